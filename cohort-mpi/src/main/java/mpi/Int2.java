package mpi;

/** Items of {@link MPI#INT2} in a byte buffer: a int value and an int index. Use {@link MPI#int2}. */
public final class Int2 extends Struct {
    Int2() {
        super(MPI.INT2, 8);
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One item: its value and index. */
    public final class Data extends Struct.Data {
        /** The constructor Java would declare; {@link Int2#newData()} calls it. */
        public Data() {
        }

        public int getValue() {
            return getInt(0);
        }

        public int getIndex() {
            return getInt(4);
        }

        public void putValue(int v) {
            putInt(0, v);
        }

        public void putIndex(int v) {
            putInt(4, v);
        }
    }
}
