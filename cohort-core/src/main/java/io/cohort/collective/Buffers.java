package io.cohort.collective;

import io.cohort.CohortException;
import io.cohort.Status;
import io.cohort.engine.Payloads;

import java.io.Serializable;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The buffers collectives accept, as element ranges: primitive arrays (little-endian on the wire),
 * a {@link ByteBuffer} (its bytes from position to limit, read and written with absolute
 * operations so its position never moves) and {@code Object[]} of {@link Serializable} elements
 * (a range travels as one serialized {@code Object[]}). Algorithms speak element ranges only,
 * never byte offsets, so objects of any size work everywhere.
 *
 * <p>Threads: stateless; any thread.
 */
final class Buffers {
    private Buffers() {
    }

    /** Bytes per element; 0 for objects (variable). */
    static int elementBytes(Object buffer) {
        if (buffer instanceof byte[] || buffer instanceof boolean[] || buffer instanceof ByteBuffer) {
            return 1;
        } else if (buffer instanceof short[] || buffer instanceof char[]) {
            return 2;
        } else if (buffer instanceof int[] || buffer instanceof float[]) {
            return 4;
        } else if (buffer instanceof long[] || buffer instanceof double[]) {
            return 8;
        }
        return 0;
    }

    /** Bytes the policy assumes per element: the real width, or 64 for objects, which all peers agree on. */
    static int nominalBytes(Object buffer) {
        int b = elementBytes(buffer);
        return b == 0 ? 64 : b;
    }

    /** Throws one sentence unless {@code buffer} is a supported buffer. */
    static void check(Object buffer, String what) {
        if (buffer == null) {
            throw new IllegalArgumentException(what + " is null; pass a primitive array, a ByteBuffer or an Object[]");
        }
        if (elementBytes(buffer) == 0 && !(buffer instanceof Object[])) {
            throw new IllegalArgumentException(what + " is a " + buffer.getClass().getName()
                    + "; collectives take primitive arrays, ByteBuffers and Object[] of Serializable elements");
        }
        if (buffer instanceof ByteBuffer b && b.isReadOnly() && what.contains("recv")) {
            throw new IllegalArgumentException(what + " is a read-only ByteBuffer; results cannot be written into it");
        }
    }

    /** The element type's name for messages: "int[]", "ByteBuffer", "String[]". */
    static String typeName(Object buffer) {
        return buffer instanceof ByteBuffer ? "ByteBuffer" : buffer.getClass().getSimpleName();
    }

    /** Whether two buffers hold the same element type (a ByteBuffer and a byte[] both hold bytes). */
    static boolean sameType(Object a, Object b) {
        return family(a).equals(family(b));
    }

    /** One letter per element type, as the bcast header carries it. */
    static String family(Object buffer) {
        if (buffer instanceof ByteBuffer || buffer instanceof byte[]) {
            return "B";
        } else if (buffer instanceof Object[]) {
            return "L";
        }
        return buffer.getClass().getName().substring(1); // "[I" -> "I"
    }

    /** The element type a bcast header's family letter stands for. */
    static String familyName(char family) {
        return switch (family) {
            case 'B' -> "byte[] or ByteBuffer";
            case 'L' -> "Object[]";
            case 'S' -> "short[]";
            case 'I' -> "int[]";
            case 'J' -> "long[]";
            case 'F' -> "float[]";
            case 'D' -> "double[]";
            case 'C' -> "char[]";
            case 'Z' -> "boolean[]";
            default -> "an unknown type";
        };
    }

    static int count(Object buffer) {
        return buffer instanceof ByteBuffer b ? b.remaining() : Array.getLength(buffer);
    }

    private static ByteBuffer le(byte[] b) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The elements {@code [offset, offset + n)} as bytes. */
    static byte[] encode(Object buf, int offset, int n) {
        int w = elementBytes(buf);
        if (w == 0) {
            Object[] slice = Arrays.copyOfRange((Object[]) buf, offset, offset + n, Object[].class);
            for (Object o : slice) {
                if (o != null && !(o instanceof Serializable)) {
                    throw new IllegalArgumentException("element of type " + o.getClass().getName()
                            + " is not Serializable; collectives send Object[] elements by Java serialization");
                }
            }
            return Payloads.ofObject(slice);
        }
        byte[] out = new byte[Math.multiplyExact(n, w)];
        if (buf instanceof byte[] a) {
            System.arraycopy(a, offset, out, 0, n);
        } else if (buf instanceof ByteBuffer bb) {
            bb.get(bb.position() + offset, out, 0, n);
        } else if (buf instanceof boolean[] a) {
            for (int i = 0; i < n; i++) {
                out[i] = (byte) (a[offset + i] ? 1 : 0);
            }
        } else if (buf instanceof int[] a) {
            le(out).asIntBuffer().put(a, offset, n);
        } else if (buf instanceof long[] a) {
            le(out).asLongBuffer().put(a, offset, n);
        } else if (buf instanceof double[] a) {
            le(out).asDoubleBuffer().put(a, offset, n);
        } else if (buf instanceof float[] a) {
            le(out).asFloatBuffer().put(a, offset, n);
        } else if (buf instanceof short[] a) {
            le(out).asShortBuffer().put(a, offset, n);
        } else {
            le(out).asCharBuffer().put((char[]) buf, offset, n);
        }
        return out;
    }

    /** Writes {@code bytes}, which must hold exactly {@code n} elements, into {@code [offset, offset + n)}. */
    static void decode(byte[] bytes, Object buf, int offset, int n, String from) {
        int w = elementBytes(buf);
        if (w == 0) {
            Object[] got = Payloads.toObject(bytes, new Status(-1, 0, bytes.length));
            if (got.length != n) {
                throw new CohortException(from + " carried " + got.length + " objects where " + n + " were expected;"
                        + " do the peers pass the same counts?");
            }
            System.arraycopy(got, 0, (Object[]) buf, offset, n);
            return;
        }
        if (bytes.length != (long) n * w) {
            throw new CohortException(from + " carried " + bytes.length + " bytes where " + n + " elements of "
                    + typeName(buf) + " (" + (long) n * w + " bytes) were expected; do the peers pass the same counts and types?");
        }
        if (buf instanceof byte[] a) {
            System.arraycopy(bytes, 0, a, offset, n);
        } else if (buf instanceof ByteBuffer bb) {
            bb.put(bb.position() + offset, bytes, 0, n);
        } else if (buf instanceof boolean[] a) {
            for (int i = 0; i < n; i++) {
                a[offset + i] = bytes[i] != 0;
            }
        } else if (buf instanceof int[] a) {
            le(bytes).asIntBuffer().get(a, offset, n);
        } else if (buf instanceof long[] a) {
            le(bytes).asLongBuffer().get(a, offset, n);
        } else if (buf instanceof double[] a) {
            le(bytes).asDoubleBuffer().get(a, offset, n);
        } else if (buf instanceof float[] a) {
            le(bytes).asFloatBuffer().get(a, offset, n);
        } else if (buf instanceof short[] a) {
            le(bytes).asShortBuffer().get(a, offset, n);
        } else {
            le(bytes).asCharBuffer().get((char[]) buf, offset, n);
        }
    }

    /** Copies {@code n} elements between two buffers of one type (either may be a ByteBuffer). */
    static void copy(Object src, int so, Object dst, int dOff, int n) {
        if (n == 0 || (src == dst && so == dOff)) {
            return;
        }
        if (src instanceof ByteBuffer s) {
            byte[] tmp = new byte[n];
            s.get(s.position() + so, tmp, 0, n);
            src = tmp;
            so = 0;
        }
        if (dst instanceof ByteBuffer d) {
            d.put(d.position() + dOff, (byte[]) src, so, n);
        } else {
            System.arraycopy(src, so, dst, dOff, n);
        }
    }

    /**
     * A private array holding a copy of {@code n} elements of {@code buf} from 0, which reductions
     * combine in place: byte[] for a ByteBuffer, Object[] for any object array.
     */
    static Object workingCopy(Object buf, int n) {
        Object work = newArrayLike(buf, n);
        copy(buf, 0, work, 0, n);
        return work;
    }

    /** A new array of {@code n} elements of {@code buf}'s element type (byte[] for a ByteBuffer). */
    static Object newArrayLike(Object buf, int n) {
        if (buf instanceof ByteBuffer) {
            return new byte[n];
        } else if (buf instanceof Object[]) {
            return new Object[n];
        }
        return Array.newInstance(buf.getClass().getComponentType(), n);
    }
}
