package io.cohort.collective;

import io.cohort.CohortException;
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
        if (buffer instanceof Object[] objects && what.contains("send")) {
            // Found now, not when the block for some peer is encoded after others were sent theirs.
            for (int i = 0; i < objects.length; i++) {
                Object o = objects[i];
                if (o != null && !(o instanceof Serializable)) {
                    throw new IllegalArgumentException(what + " element " + i + " is a " + o.getClass().getName()
                            + ", which is not Serializable; collectives send Object[] elements by Java serialization");
                }
            }
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
        encodeInto(buf, offset, n, ByteBuffer.wrap(out), 0);
        return out;
    }

    /**
     * Writes the primitive elements {@code [offset, offset + n)} of {@code buf} as bytes into
     * {@code out} from index {@code at} ({@code out}'s position and limit are neither used nor moved).
     */
    static void encodeInto(Object buf, int offset, int n, ByteBuffer out, int at) {
        if (buf instanceof byte[] a) {
            out.put(at, a, offset, n);
        } else if (buf instanceof ByteBuffer bb) {
            out.put(at, bb, bb.position() + offset, n);
        } else if (buf instanceof boolean[] a) {
            for (int i = 0; i < n; i++) {
                out.put(at + i, (byte) (a[offset + i] ? 1 : 0));
            }
        } else {
            ByteBuffer o = le(out, at, n * elementBytes(buf));
            if (buf instanceof int[] a) {
                o.asIntBuffer().put(a, offset, n);
            } else if (buf instanceof long[] a) {
                o.asLongBuffer().put(a, offset, n);
            } else if (buf instanceof double[] a) {
                o.asDoubleBuffer().put(a, offset, n);
            } else if (buf instanceof float[] a) {
                o.asFloatBuffer().put(a, offset, n);
            } else if (buf instanceof short[] a) {
                o.asShortBuffer().put(a, offset, n);
            } else {
                o.asCharBuffer().put((char[]) buf, offset, n);
            }
        }
    }

    /** Bytes {@code [at, at + length)} of {@code b} as a little-endian buffer of their own. */
    private static ByteBuffer le(ByteBuffer b, int at, int length) {
        return b.slice(at, length).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Writes {@code bytes}, which must hold exactly {@code n} elements, into {@code [offset, offset + n)}. */
    static void decode(byte[] bytes, Object buf, int offset, int n, String from) {
        int w = elementBytes(buf);
        if (w == 0) {
            Object[] got = Payloads.toObject(bytes, "the " + from);
            if (got.length != n) {
                throw new CohortException(from + " carried " + got.length + " objects where " + n + " were expected;"
                        + " do the peers pass the same counts?");
            }
            try {
                System.arraycopy(got, 0, (Object[]) buf, offset, n);
            } catch (ArrayStoreException e) {
                throw new CohortException(from + " carried objects that a " + typeName(buf) + " cannot hold ("
                        + e.getMessage() + "); do the peers pass buffers of the same element type?");
            }
            return;
        }
        if (bytes.length != (long) n * w) {
            throw wrongLength(from, bytes.length, buf, n);
        }
        decodeFrom(ByteBuffer.wrap(bytes), 0, buf, offset, n);
    }

    /** The failure of a message of {@code got} bytes that should have held {@code n} elements of {@code buf}'s type. */
    static CohortException wrongLength(String from, long got, Object buf, int n) {
        return new CohortException(from + " carried " + got + " bytes where " + n + " elements of " + typeName(buf)
                + " (" + (long) n * elementBytes(buf) + " bytes) were expected; do the peers pass the same counts and types?");
    }

    /**
     * Writes {@code n} primitive elements, read as bytes from {@code in} at index {@code at}, into
     * {@code [offset, offset + n)} of {@code buf} ({@code in}'s position and limit are neither used nor moved).
     */
    static void decodeFrom(ByteBuffer in, int at, Object buf, int offset, int n) {
        if (buf instanceof byte[] a) {
            in.get(at, a, offset, n);
        } else if (buf instanceof ByteBuffer bb) {
            bb.put(bb.position() + offset, in, at, n);
        } else if (buf instanceof boolean[] a) {
            for (int i = 0; i < n; i++) {
                a[offset + i] = in.get(at + i) != 0;
            }
        } else {
            ByteBuffer i = le(in, at, n * elementBytes(buf));
            if (buf instanceof int[] a) {
                i.asIntBuffer().get(a, offset, n);
            } else if (buf instanceof long[] a) {
                i.asLongBuffer().get(a, offset, n);
            } else if (buf instanceof double[] a) {
                i.asDoubleBuffer().get(a, offset, n);
            } else if (buf instanceof float[] a) {
                i.asFloatBuffer().get(a, offset, n);
            } else if (buf instanceof short[] a) {
                i.asShortBuffer().get(a, offset, n);
            } else {
                i.asCharBuffer().get((char[]) buf, offset, n);
            }
        }
    }

    /** Copies {@code n} elements between two buffers of one type (either may be a ByteBuffer). */
    static void copy(Object src, int so, Object dst, int dOff, int n) {
        if (n == 0 || (src == dst && so == dOff)) {
            return;
        }
        if (src instanceof ByteBuffer s) {
            if (dst instanceof ByteBuffer d) {
                d.put(d.position() + dOff, s, s.position() + so, n);
            } else {
                s.get(s.position() + so, (byte[]) dst, dOff, n);
            }
            return;
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
