package mpi;

/** Items of {@link MPI#SHORT_INT} in a byte buffer: a short value and an int index. Use {@link MPI#shortInt}. */
public final class ShortInt extends Struct {
    ShortInt() {
        super(MPI.SHORT_INT, 8);
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One item: its value and index. */
    public final class Data extends Struct.Data {
        /** The constructor Java would declare; {@link ShortInt#newData()} calls it. */
        public Data() {
        }

        public short getValue() {
            return getShort(0);
        }

        public int getIndex() {
            return getInt(4);
        }

        public void putValue(short v) {
            putShort(0, v);
        }

        public void putIndex(int v) {
            putInt(4, v);
        }
    }
}
