package mpi;

/** Items of {@link MPI#FLOAT_INT} in a byte buffer: a float value and an int index. Use {@link MPI#floatInt}. */
public final class FloatInt extends Struct {
    FloatInt() {
        super(MPI.FLOAT_INT, 8);
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One item: its value and index. */
    public final class Data extends Struct.Data {
        /** The constructor Java would declare; {@link FloatInt#newData()} calls it. */
        public Data() {
        }

        public float getValue() {
            return getFloat(0);
        }

        public int getIndex() {
            return getInt(4);
        }

        public void putValue(float v) {
            putFloat(0, v);
        }

        public void putIndex(int v) {
            putInt(4, v);
        }
    }
}
