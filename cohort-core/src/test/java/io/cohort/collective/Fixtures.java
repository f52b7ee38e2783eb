package io.cohort.collective;

import io.cohort.Communicator;
import io.cohort.Op;
import io.cohort.comm.EngineCommunicator;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Test data and sequential references for the collectives: every rank builds every rank's input
 * deterministically, so each checks its own result against a reference computed locally.
 */
final class Fixtures {
    /** The element types under test: primitive arrays, heap and direct ByteBuffers, objects. */
    enum Kind { BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, CHAR, BOOLEAN, HEAP_BUFFER, DIRECT_BUFFER, OBJECT }

    static final int CONTEXT = 1000;

    private Fixtures() {
    }

    static Collectives collectives(Communicator world, CollectiveMode mode, Consumer<String> log) {
        return new Collectives(channel(world, CONTEXT), mode, log);
    }

    static EngineChannel channel(Communicator world, int context) {
        return EngineChannel.world(((EngineCommunicator) world).engine(), context, world::broadcastDomain);
    }

    /** Small values (|v| &lt;= 5), so sums and products of up to 9 of them are exact even in float. */
    static int value(int rank, int i, int salt) {
        return Math.floorMod(rank * 31 + i * 7 + salt * 13, 11) - 5;
    }

    /** Rank {@code rank}'s input of {@code len} elements of {@code kind}. */
    static Object data(Kind kind, int rank, int len, int salt) {
        Object a = switch (kind) {
            case BYTE, HEAP_BUFFER, DIRECT_BUFFER -> new byte[len];
            case SHORT -> new short[len];
            case INT -> new int[len];
            case LONG -> new long[len];
            case FLOAT -> new float[len];
            case DOUBLE -> new double[len];
            case CHAR -> new char[len];
            case BOOLEAN -> new boolean[len];
            case OBJECT -> new String[len];
        };
        for (int i = 0; i < len; i++) {
            int v = value(rank, i, salt);
            switch (kind) {
                case BYTE, HEAP_BUFFER, DIRECT_BUFFER -> ((byte[]) a)[i] = (byte) v;
                case SHORT -> ((short[]) a)[i] = (short) v;
                case INT -> ((int[]) a)[i] = v;
                case LONG -> ((long[]) a)[i] = v * 1_000_000_007L;
                case FLOAT -> ((float[]) a)[i] = v;
                case DOUBLE -> ((double[]) a)[i] = v;
                case CHAR -> ((char[]) a)[i] = (char) (v + 5);
                case BOOLEAN -> ((boolean[]) a)[i] = v > 0;
                case OBJECT -> ((String[]) a)[i] = "r" + rank + "i" + i + "s" + salt;
            }
        }
        return wrap(kind, a);
    }

    /** (value, index) pairs for MINLOC / MAXLOC: values with ties, the index is the rank. */
    static Object pairs(Kind kind, int rank, int pairs, int salt) {
        Object a = data(kind, rank, 2 * pairs, salt);
        Object arr = unwrap(a);
        for (int i = 0; i < pairs; i++) {
            int v = Math.floorMod(rank * 3 + i + salt, 4); // many ties
            set(arr, 2 * i, v);
            set(arr, 2 * i + 1, rank);
        }
        return wrap(kind, arr);
    }

    private static void set(Object arr, int i, int v) {
        if (arr instanceof byte[] b) {
            b[i] = (byte) v;
        } else if (arr instanceof short[] s) {
            s[i] = (short) v;
        } else if (arr instanceof int[] x) {
            x[i] = v;
        } else if (arr instanceof long[] l) {
            l[i] = v;
        } else if (arr instanceof float[] f) {
            f[i] = v;
        } else {
            ((double[]) arr)[i] = v;
        }
    }

    /** An empty buffer of {@code len} elements (for ByteBuffers: positioned at 3, to catch position bugs). */
    static Object empty(Kind kind, int len) {
        return wrap(kind, Array.newInstance(unwrap(data(kind, 0, 0, 0)).getClass().getComponentType(), len));
    }

    static Object wrap(Kind kind, Object array) {
        if (kind == Kind.HEAP_BUFFER || kind == Kind.DIRECT_BUFFER) {
            byte[] b = (byte[]) array;
            ByteBuffer bb = kind == Kind.HEAP_BUFFER ? ByteBuffer.allocate(b.length + 5)
                    : ByteBuffer.allocateDirect(b.length + 5);
            bb.position(3);
            bb.put(b);
            bb.position(3).limit(3 + b.length);
            return bb;
        }
        return array;
    }

    /** The elements as an array (a ByteBuffer's position to limit, without moving it). */
    static Object unwrap(Object buffer) {
        if (buffer instanceof ByteBuffer bb) {
            byte[] b = new byte[bb.remaining()];
            bb.duplicate().get(b);
            return b;
        }
        return buffer;
    }

    static Object copy(Object buffer) {
        Object a = unwrap(buffer);
        int n = Array.getLength(a);
        Object c = Array.newInstance(a.getClass().getComponentType(), n);
        System.arraycopy(a, 0, c, 0, n);
        return c;
    }

    /** x0 op x1 op ... op x(last), left to right, over copies (ByteBuffers as byte[]). */
    static Object fold(Op op, List<Object> inputs) {
        Object acc = copy(inputs.get(0));
        for (int r = 1; r < inputs.size(); r++) {
            Object next = copy(inputs.get(r));
            op.apply(acc, next, Array.getLength(next));
            acc = next;
        }
        return acc;
    }

    /** Elements [from, from + n) of an array as a new array. */
    static Object slice(Object array, int from, int n) {
        Object a = unwrap(array);
        Object c = Array.newInstance(a.getClass().getComponentType(), n);
        System.arraycopy(a, from, c, 0, n);
        return c;
    }

    /** The arrays one after another. */
    static Object concat(List<Object> parts) {
        Object first = unwrap(parts.get(0));
        int total = 0;
        for (Object p : parts) {
            total += Array.getLength(unwrap(p));
        }
        Object c = Array.newInstance(first.getClass().getComponentType(), total);
        int at = 0;
        for (Object p : parts) {
            Object a = unwrap(p);
            int n = Array.getLength(a);
            System.arraycopy(a, 0, c, at, n);
            at += n;
        }
        return c;
    }

    static List<Object> inputs(int n, java.util.function.IntFunction<Object> byRank) {
        List<Object> l = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            l.add(byRank.apply(r));
        }
        return l;
    }

    /** Fails naming the first differing element; compares ByteBuffers by their remaining bytes. */
    static void assertSame(Object expected, Object actual, String what) {
        Object e = unwrap(expected);
        Object a = unwrap(actual);
        int n = Array.getLength(e);
        if (Array.getLength(a) != n) {
            fail(what + ": length " + Array.getLength(a) + ", expected " + n);
        }
        for (int i = 0; i < n; i++) {
            if (!Objects.equals(Array.get(e, i), Array.get(a, i))) {
                fail(what + ": element " + i + " is " + Array.get(a, i) + ", expected " + Array.get(e, i)
                        + (n <= 40 ? " (got " + deep(a) + ", expected " + deep(e) + ")" : ""));
            }
        }
    }

    private static String deep(Object a) {
        return Arrays.deepToString(new Object[] {a});
    }

    /** 2x2 matrices of longs stored flat (a, b, c, d): a non-commutative, associative op. */
    static final Op MATMUL = Op.create("2x2 matrix product", false, 4, (in, inout, count) -> {
        long[] x = (long[]) in;
        long[] y = (long[]) inout;
        for (int i = 0; i < count; i += 4) {
            long a = x[i] * y[i] + x[i + 1] * y[i + 2];
            long b = x[i] * y[i + 1] + x[i + 1] * y[i + 3];
            long c = x[i + 2] * y[i] + x[i + 3] * y[i + 2];
            long d = x[i + 2] * y[i + 1] + x[i + 3] * y[i + 3];
            y[i] = a;
            y[i + 1] = b;
            y[i + 2] = c;
            y[i + 3] = d;
        }
    });

    /** String concatenation: non-commutative, over Object[]. */
    static final Op CONCAT = Op.<String>ofObjects((a, b) -> a + "," + b, false);

    static long[] matrices(int rank, int count, int salt) {
        long[] m = new long[4 * count];
        for (int i = 0; i < m.length; i++) {
            m[i] = value(rank, i, salt) + (i % 4 == 0 || i % 4 == 3 ? 1 : 0);
        }
        return m;
    }
}
