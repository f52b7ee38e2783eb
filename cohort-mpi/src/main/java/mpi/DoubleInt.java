package mpi;

/** Items of {@link MPI#DOUBLE_INT} in a byte buffer: a double value and an int index. Use {@link MPI#doubleInt}. */
public final class DoubleInt extends Struct {
    DoubleInt() {
        super(MPI.DOUBLE_INT, 16);
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One item: its value and index. */
    public final class Data extends Struct.Data {
        /** The constructor Java would declare; {@link DoubleInt#newData()} calls it. */
        public Data() {
        }

        public double getValue() {
            return getDouble(0);
        }

        public int getIndex() {
            return getInt(8);
        }

        public void putValue(double v) {
            putDouble(0, v);
        }

        public void putIndex(int v) {
            putInt(8, v);
        }
    }
}
