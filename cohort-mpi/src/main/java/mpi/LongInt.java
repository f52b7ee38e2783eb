package mpi;

/** Items of {@link MPI#LONG_INT} in a byte buffer: a long value and an int index. Use {@link MPI#longInt}. */
public final class LongInt extends Struct {
    LongInt() {
        super(MPI.LONG_INT, 16);
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One item: its value and index. */
    public final class Data extends Struct.Data {
        /** The constructor Java would declare; {@link LongInt#newData()} calls it. */
        public Data() {
        }

        public long getValue() {
            return getLong(0);
        }

        public int getIndex() {
            return getInt(8);
        }

        public void putValue(long v) {
            putLong(0, v);
        }

        public void putIndex(int v) {
            putInt(8, v);
        }
    }
}
