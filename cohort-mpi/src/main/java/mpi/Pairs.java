package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The (value, index) pair types of MINLOC and MAXLOC ({@link MPI#INT2} ... {@link MPI#DOUBLE_INT})
 * between their byte layout and the interleaved arrays Cohort's MINLOC and MAXLOC combine:
 * {@code int[]} for INT2 and SHORT_INT, {@code long[]} for LONG_INT, {@code double[]} for
 * FLOAT_INT and DOUBLE_INT (a double holds every float and int exactly). A packed pair is its
 * value's bytes then the index's four, in the platform's byte order.
 *
 * <p>Threads: stateless; any thread.
 */
final class Pairs {
    private Pairs() {
    }

    static int valueBytes(int pair) {
        return switch (pair) {
            case Datatype.SHORT_INT -> 2;
            case Datatype.LONG_INT, Datatype.DOUBLE_INT -> 8;
            default -> 4;
        };
    }

    /** Pairs in {@code items} items of {@code t}. */
    static int count(Datatype t, int items) {
        return items * (t.size / (valueBytes(t.pair) + 4));
    }

    /** Array elements (two per pair) of {@code items} items. */
    static int elements(Datatype t, int items) {
        return 2 * count(t, items);
    }

    static Object newArray(int pair, int n) {
        return switch (pair) {
            case Datatype.LONG_INT -> new long[n];
            case Datatype.FLOAT_INT, Datatype.DOUBLE_INT -> new double[n];
            default -> new int[n];
        };
    }

    private static ByteBuffer bytes(Object carrier) {
        ByteBuffer b = carrier instanceof ByteBuffer bb ? bb.duplicate() : ByteBuffer.wrap((byte[]) carrier);
        return b.order(ByteOrder.nativeOrder());
    }

    static Object toPairs(Object carrier, Datatype t, int items) {
        int n = count(t, items);
        int vb = valueBytes(t.pair);
        int step = vb + 4;
        ByteBuffer b = bytes(carrier);
        int base = b.position();
        Object out = newArray(t.pair, 2 * n);
        for (int i = 0; i < n; i++) {
            int at = base + i * step;
            int index = b.getInt(at + vb);
            switch (t.pair) {
                case Datatype.SHORT_INT -> {
                    ((int[]) out)[2 * i] = b.getShort(at);
                    ((int[]) out)[2 * i + 1] = index;
                }
                case Datatype.LONG_INT -> {
                    ((long[]) out)[2 * i] = b.getLong(at);
                    ((long[]) out)[2 * i + 1] = index;
                }
                case Datatype.FLOAT_INT -> {
                    ((double[]) out)[2 * i] = b.getFloat(at);
                    ((double[]) out)[2 * i + 1] = index;
                }
                case Datatype.DOUBLE_INT -> {
                    ((double[]) out)[2 * i] = b.getDouble(at);
                    ((double[]) out)[2 * i + 1] = index;
                }
                default -> {
                    ((int[]) out)[2 * i] = b.getInt(at);
                    ((int[]) out)[2 * i + 1] = index;
                }
            }
        }
        return out;
    }

    static void fromPairs(Object pairs, Object carrier, Datatype t, int items) {
        int n = count(t, items);
        int vb = valueBytes(t.pair);
        int step = vb + 4;
        ByteBuffer b = bytes(carrier);
        int base = b.position();
        for (int i = 0; i < n; i++) {
            int at = base + i * step;
            switch (t.pair) {
                case Datatype.SHORT_INT -> {
                    b.putShort(at, (short) ((int[]) pairs)[2 * i]);
                    b.putInt(at + vb, ((int[]) pairs)[2 * i + 1]);
                }
                case Datatype.LONG_INT -> {
                    b.putLong(at, ((long[]) pairs)[2 * i]);
                    b.putInt(at + vb, (int) ((long[]) pairs)[2 * i + 1]);
                }
                case Datatype.FLOAT_INT -> {
                    b.putFloat(at, (float) ((double[]) pairs)[2 * i]);
                    b.putInt(at + vb, (int) ((double[]) pairs)[2 * i + 1]);
                }
                case Datatype.DOUBLE_INT -> {
                    b.putDouble(at, ((double[]) pairs)[2 * i]);
                    b.putInt(at + vb, (int) ((double[]) pairs)[2 * i + 1]);
                }
                default -> {
                    b.putInt(at, ((int[]) pairs)[2 * i]);
                    b.putInt(at + vb, ((int[]) pairs)[2 * i + 1]);
                }
            }
        }
    }
}
