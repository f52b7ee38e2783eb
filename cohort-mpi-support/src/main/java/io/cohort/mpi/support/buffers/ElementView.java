package io.cohort.mpi.support.buffers;

import io.cohort.mpi.support.BaseType;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * A program's buffer seen as elements of one base type, at absolute element indexes (a buffer's
 * position is ignored): an array of the type itself (including {@code Object[]} for
 * {@link BaseType#OBJECT}), a typed NIO buffer, or byte storage ({@code byte[]} or
 * {@link ByteBuffer}) read in the platform's byte order as raw memory is. It copies runs of
 * elements to and from carrier arrays, and encodes them as wire bytes (little-endian, as Cohort's
 * typed sends encode values; a boolean is one byte, 1 or 0).
 *
 * <p>Not thread-safe (it keeps a window on the buffer); make one per use. Objects are never
 * encoded: they travel by serialization as a whole carrier.
 */
public final class ElementView {
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    private final int type;
    /** The buffer itself when it is an array of the type: runs are copied with System.arraycopy. */
    private final Object array;
    /** Otherwise a typed view over it. */
    private final Buffer nio;

    public ElementView(Object buf, int type) {
        this.type = type;
        if (buf != null && BaseType.ofArray(buf) == type) {
            this.array = buf;
            this.nio = type == BaseType.BOOLEAN || type == BaseType.OBJECT ? null : wrap(buf);
            return;
        }
        this.array = null;
        if (buf == null) {
            this.nio = ByteBuffer.allocate(0);
        } else if (buf instanceof ByteBuffer || buf instanceof byte[]) {
            ByteBuffer b = buf instanceof ByteBuffer bb ? bb.duplicate() : ByteBuffer.wrap((byte[]) buf);
            b.clear();
            b.order(NATIVE);
            this.nio = switch (type) {
                case BaseType.CHAR -> b.asCharBuffer();
                case BaseType.SHORT -> b.asShortBuffer();
                case BaseType.INT -> b.asIntBuffer();
                case BaseType.LONG -> b.asLongBuffer();
                case BaseType.FLOAT -> b.asFloatBuffer();
                case BaseType.DOUBLE -> b.asDoubleBuffer();
                default -> b;
            };
        } else if (buf instanceof Buffer b) {
            Buffer d = duplicate(b);
            d.clear();
            this.nio = d;
        } else {
            throw new IllegalArgumentException("a " + buf.getClass().getSimpleName() + " cannot hold "
                    + BaseType.name(type) + " elements");
        }
    }

    private static Buffer duplicate(Buffer b) {
        if (b instanceof IntBuffer x) {
            return x.duplicate();
        } else if (b instanceof DoubleBuffer x) {
            return x.duplicate();
        } else if (b instanceof LongBuffer x) {
            return x.duplicate();
        } else if (b instanceof FloatBuffer x) {
            return x.duplicate();
        } else if (b instanceof ShortBuffer x) {
            return x.duplicate();
        }
        return ((CharBuffer) b).duplicate();
    }

    private static Buffer wrap(Object a) {
        if (a instanceof int[] x) {
            return IntBuffer.wrap(x);
        } else if (a instanceof double[] x) {
            return DoubleBuffer.wrap(x);
        } else if (a instanceof long[] x) {
            return LongBuffer.wrap(x);
        } else if (a instanceof float[] x) {
            return FloatBuffer.wrap(x);
        } else if (a instanceof short[] x) {
            return ShortBuffer.wrap(x);
        } else if (a instanceof byte[] x) {
            return ByteBuffer.wrap(x);
        }
        return CharBuffer.wrap((char[]) a);
    }

    private Buffer window(int at, int n) {
        nio.clear();
        nio.limit(at + n);
        nio.position(at);
        return nio;
    }

    /** Appends elements [at, at + n) to {@code dst} as wire bytes, advancing it (dst must be little-endian). */
    public void encode(int at, int n, ByteBuffer dst) {
        if (type == BaseType.BOOLEAN) {
            for (int i = 0; i < n; i++) {
                dst.put(array != null ? (byte) (((boolean[]) array)[at + i] ? 1 : 0) : ((ByteBuffer) nio).get(at + i));
            }
            return;
        }
        Buffer w = window(at, n);
        int p = dst.position();
        switch (type) {
            case BaseType.CHAR -> dst.asCharBuffer().put((CharBuffer) w);
            case BaseType.SHORT -> dst.asShortBuffer().put((ShortBuffer) w);
            case BaseType.INT -> dst.asIntBuffer().put((IntBuffer) w);
            case BaseType.LONG -> dst.asLongBuffer().put((LongBuffer) w);
            case BaseType.FLOAT -> dst.asFloatBuffer().put((FloatBuffer) w);
            case BaseType.DOUBLE -> dst.asDoubleBuffer().put((DoubleBuffer) w);
            default -> dst.put((ByteBuffer) w);
        }
        dst.position(p + n * BaseType.bytes(type));
    }

    /** Reads {@code n} elements of wire bytes from {@code src} (little-endian) into [at, at + n), advancing it. */
    public void decode(ByteBuffer src, int at, int n) {
        if (type == BaseType.BOOLEAN) {
            for (int i = 0; i < n; i++) {
                byte b = src.get();
                if (array != null) {
                    ((boolean[]) array)[at + i] = b != 0;
                } else {
                    ((ByteBuffer) nio).put(at + i, b);
                }
            }
            return;
        }
        Buffer w = window(at, n);
        int bytes = n * BaseType.bytes(type);
        ByteBuffer s = src.slice().order(src.order());
        s.limit(bytes);
        switch (type) {
            case BaseType.CHAR -> ((CharBuffer) w).put(s.asCharBuffer());
            case BaseType.SHORT -> ((ShortBuffer) w).put(s.asShortBuffer());
            case BaseType.INT -> ((IntBuffer) w).put(s.asIntBuffer());
            case BaseType.LONG -> ((LongBuffer) w).put(s.asLongBuffer());
            case BaseType.FLOAT -> ((FloatBuffer) w).put(s.asFloatBuffer());
            case BaseType.DOUBLE -> ((DoubleBuffer) w).put(s.asDoubleBuffer());
            default -> ((ByteBuffer) w).put(s);
        }
        src.position(src.position() + bytes);
    }

    /** Copies elements [at, at + n) into the carrier array {@code arr} at {@code off}. */
    public void toArray(int at, int n, Object arr, int off) {
        if (array != null) {
            System.arraycopy(array, at, arr, off, n);
            return;
        }
        if (type == BaseType.BOOLEAN) {
            ByteBuffer b = (ByteBuffer) nio;
            boolean[] z = (boolean[]) arr;
            for (int i = 0; i < n; i++) {
                z[off + i] = b.get(at + i) != 0;
            }
            return;
        }
        Buffer w = window(at, n);
        switch (type) {
            case BaseType.CHAR -> ((CharBuffer) w).get((char[]) arr, off, n);
            case BaseType.SHORT -> ((ShortBuffer) w).get((short[]) arr, off, n);
            case BaseType.INT -> ((IntBuffer) w).get((int[]) arr, off, n);
            case BaseType.LONG -> ((LongBuffer) w).get((long[]) arr, off, n);
            case BaseType.FLOAT -> ((FloatBuffer) w).get((float[]) arr, off, n);
            case BaseType.DOUBLE -> ((DoubleBuffer) w).get((double[]) arr, off, n);
            default -> ((ByteBuffer) w).get((byte[]) arr, off, n);
        }
    }

    /** Copies {@code n} elements of the carrier array {@code arr} from {@code off} into [at, at + n). */
    public void fromArray(Object arr, int off, int at, int n) {
        if (array != null) {
            System.arraycopy(arr, off, array, at, n);
            return;
        }
        if (type == BaseType.BOOLEAN) {
            ByteBuffer b = (ByteBuffer) nio;
            boolean[] z = (boolean[]) arr;
            for (int i = 0; i < n; i++) {
                b.put(at + i, (byte) (z[off + i] ? 1 : 0));
            }
            return;
        }
        Buffer w = window(at, n);
        switch (type) {
            case BaseType.CHAR -> ((CharBuffer) w).put((char[]) arr, off, n);
            case BaseType.SHORT -> ((ShortBuffer) w).put((short[]) arr, off, n);
            case BaseType.INT -> ((IntBuffer) w).put((int[]) arr, off, n);
            case BaseType.LONG -> ((LongBuffer) w).put((long[]) arr, off, n);
            case BaseType.FLOAT -> ((FloatBuffer) w).put((float[]) arr, off, n);
            case BaseType.DOUBLE -> ((DoubleBuffer) w).put((double[]) arr, off, n);
            default -> ((ByteBuffer) w).put((byte[]) arr, off, n);
        }
    }
}
