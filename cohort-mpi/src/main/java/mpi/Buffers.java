package mpi;

import java.lang.reflect.Array;
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
 * Moves items of a {@link Datatype} between a program's buffer and what Cohort sends: wire bytes
 * for point-to-point (little-endian values, as Cohort's typed sends encode them) and "carriers"
 * for collectives (a primitive array of the base type, or a {@link ByteBuffer} for byte types).
 *
 * <p>A buffer is a primitive array or an NIO buffer, direct or not, whose element 0 is the
 * buffer's index 0 (its position is ignored, as the bindings ignore it; {@link MPI#slice} makes a
 * buffer that starts further in). A {@code byte[]} or {@link ByteBuffer} may hold any base type,
 * read in the platform's byte order as raw memory is; a typed array or buffer holds its own type.
 * Where the buffer already is the wire form or the carrier (a direct {@code ByteBuffer} of bytes,
 * an {@code int[]} of exactly the items' length for a contiguous int type) nothing is copied.
 *
 * <p>Threads: stateless; any thread.
 */
final class Buffers {
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    private Buffers() {
    }

    // ---- checks ---------------------------------------------------------------------------------

    /** The base type a buffer holds, or -1 for byte[] / ByteBuffer (any), or -2 if it is no buffer. */
    private static int holds(Object buf) {
        if (buf instanceof ByteBuffer || buf instanceof byte[]) {
            return -1;
        } else if (buf instanceof int[] || buf instanceof IntBuffer) {
            return Datatype.INT;
        } else if (buf instanceof double[] || buf instanceof DoubleBuffer) {
            return Datatype.DOUBLE;
        } else if (buf instanceof long[] || buf instanceof LongBuffer) {
            return Datatype.LONG;
        } else if (buf instanceof float[] || buf instanceof FloatBuffer) {
            return Datatype.FLOAT;
        } else if (buf instanceof short[] || buf instanceof ShortBuffer) {
            return Datatype.SHORT;
        } else if (buf instanceof char[] || buf instanceof CharBuffer) {
            return Datatype.CHAR;
        } else if (buf instanceof boolean[]) {
            return Datatype.BOOLEAN;
        }
        return -2;
    }

    /** Buffer elements of the type's base type the buffer holds. */
    static int capacity(Object buf, Datatype t) {
        if (buf == null) {
            return 0;
        }
        if (buf instanceof ByteBuffer b) {
            return b.capacity() / t.baseSize;
        } else if (buf instanceof byte[] a) {
            return a.length / t.baseSize;
        } else if (buf instanceof Buffer b) {
            return b.capacity();
        }
        return Array.getLength(buf);
    }

    /** Elements {@code count} items span from index 0: the highest element index touched, plus one. */
    static long span(int count, Datatype t) {
        if (count == 0 || t.size == 0) {
            return 0;
        }
        return (long) (count - 1) * t.extent + t.trueLb + t.trueExtent;
    }

    /**
     * Checks that {@code buf} can hold {@code count} items of {@code t}; returns the error to raise, or null.
     *
     * @param what "send buffer", "receive buffer"...
     */
    static MPIException check(Object buf, int count, Datatype t, String what) {
        if (t == null || t.baseType == Datatype.NULL) {
            return Errors.error(MPI.ERR_TYPE, "the " + what + "'s datatype is " + (t == null ? "null" : "MPI.DATATYPE_NULL"));
        }
        if (!t.isCommitted()) {
            return Errors.error(MPI.ERR_TYPE, "the " + what + "'s datatype " + t + " is not committed (or was freed);"
                    + " call commit() on it first");
        }
        if (count < 0) {
            return Errors.error(MPI.ERR_COUNT, "the " + what + "'s count is negative: " + count);
        }
        if (buf == null) {
            return count == 0 ? null : Errors.error(MPI.ERR_BUFFER, "the " + what + " is null");
        }
        int h = holds(buf);
        if (h == -2) {
            return Errors.error(MPI.ERR_BUFFER, "the " + what + " is a " + buf.getClass().getName()
                    + "; pass a primitive array or an NIO buffer");
        }
        if (h != -1 && h != t.baseType) {
            return Errors.error(MPI.ERR_TYPE, "the " + what + " holds " + Datatype.baseName(h) + " elements but its datatype "
                    + t + " is made of " + Datatype.baseName(t.baseType) + " elements");
        }
        if (t.trueLb < 0 && count > 0) {
            return Errors.error(MPI.ERR_BUFFER, "the " + what + "'s datatype " + t + " reaches before the buffer's start");
        }
        long need = span(count, t);
        int cap = capacity(buf, t);
        if (need > cap) {
            return Errors.error(MPI.ERR_BUFFER, "the " + what + " holds " + cap + " " + Datatype.baseName(t.baseType)
                    + " elements but " + count + " items of " + t + " need " + need);
        }
        return null;
    }

    // ---- wire bytes (point-to-point) --------------------------------------------------------------

    /** Bytes {@code count} items carry on the wire. */
    static long wireBytes(int count, Datatype t) {
        return (long) count * t.size * t.baseSize;
    }

    /**
     * The buffer itself as the wire bytes of {@code count} items, when it holds raw bytes laid out
     * contiguously (a ByteBuffer or byte[] with a contiguous type): a window from index 0; else null.
     */
    static ByteBuffer rawWindow(Object buf, int count, Datatype t) {
        if (!t.contiguous || t.baseType == Datatype.BOOLEAN && !(buf instanceof ByteBuffer || buf instanceof byte[])) {
            return null;
        }
        int bytes = (int) wireBytes(count, t);
        if (buf instanceof ByteBuffer b) {
            ByteBuffer w = b.duplicate();
            w.clear();
            w.limit(bytes);
            return w;
        } else if (buf instanceof byte[] a) {
            return ByteBuffer.wrap(a, 0, bytes);
        } else if (buf == null) {
            return ByteBuffer.allocate(0);
        }
        return null;
    }

    /** The wire bytes of {@code count} items of {@code t} in {@code buf} (position 0 to limit). */
    static ByteBuffer pack(Object buf, int count, Datatype t) {
        ByteBuffer w = rawWindow(buf, count, t);
        if (w != null) {
            return w;
        }
        ByteBuffer out = ByteBuffer.allocate((int) wireBytes(count, t)).order(ByteOrder.LITTLE_ENDIAN);
        View v = new View(buf, t.baseType);
        forEachRun(count, t, (at, n) -> v.encode(at, n, out));
        return out.flip();
    }

    /** Writes the wire bytes from {@code src}'s position into items of {@code t}, as far as they go. */
    static void unpack(ByteBuffer src, Object buf, int count, Datatype t) {
        ByteBuffer in = src.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        View v = new View(buf, t.baseType);
        int bs = t.baseSize;
        forEachRun(count, t, (at, n) -> {
            int m = Math.min(n, in.remaining() / bs);
            if (m > 0) {
                v.decode(in, at, m);
            }
        });
    }

    @FunctionalInterface
    interface RunVisitor {
        void run(int at, int n);
    }

    /** Calls {@code visitor} for each run of consecutive elements of {@code count} items, in type-map order. */
    static void forEachRun(int count, Datatype t, RunVisitor visitor) {
        if (count == 0 || t.size == 0) {
            return;
        }
        if (t.contiguous) {
            visitor.run(0, count * t.size);
            return;
        }
        for (int k = 0; k < count; k++) {
            int base = k * t.extent;
            for (int r = 0; r < t.runOffset.length; r++) {
                visitor.run(base + t.runOffset[r], t.runLength[r]);
            }
        }
    }

    // ---- carriers (collectives) -----------------------------------------------------------------

    /** A new carrier of {@code n} base elements: byte[] for byte types, else the primitive array. */
    static Object newCarrier(int baseType, int n) {
        return switch (baseType) {
            case Datatype.CHAR -> new char[n];
            case Datatype.SHORT -> new short[n];
            case Datatype.BOOLEAN -> new boolean[n];
            case Datatype.INT -> new int[n];
            case Datatype.LONG -> new long[n];
            case Datatype.FLOAT -> new float[n];
            case Datatype.DOUBLE -> new double[n];
            default -> new byte[n];
        };
    }

    private static boolean isCarrierArray(Object buf, int baseType) {
        return switch (baseType) {
            case Datatype.CHAR -> buf instanceof char[];
            case Datatype.SHORT -> buf instanceof short[];
            case Datatype.BOOLEAN -> buf instanceof boolean[];
            case Datatype.INT -> buf instanceof int[];
            case Datatype.LONG -> buf instanceof long[];
            case Datatype.FLOAT -> buf instanceof float[];
            case Datatype.DOUBLE -> buf instanceof double[];
            default -> buf instanceof byte[];
        };
    }

    /**
     * The user's own storage as a carrier of exactly {@code elements} base elements from index 0,
     * when that needs no copy; else null.
     */
    static Object direct(Object buf, int elements, Datatype t, boolean exact) {
        if (!t.contiguous) {
            return null;
        }
        if (isCarrierArray(buf, t.baseType)) {
            int len = Array.getLength(buf);
            return len == elements || !exact && len >= elements ? buf : null;
        }
        if (buf instanceof ByteBuffer b && t.baseType == Datatype.BYTE) {
            ByteBuffer w = b.duplicate();
            w.clear();
            w.limit(elements);
            return w;
        }
        return null;
    }

    /** A carrier of items {@code first} to {@code first + count - 1} packed back to back ({@code t.size} elements each). */
    static Object gather(Object buf, int first, int count, Datatype t, boolean load) {
        Object c = newCarrier(t.baseType, count * t.size);
        if (load && buf != null) {
            View v = new View(buf, t.baseType);
            int[] cursor = {0};
            int start = first * t.extent;
            forEachRun(count, t, (at, n) -> {
                v.toArray(start + at, n, c, cursor[0]);
                cursor[0] += n;
            });
        }
        return c;
    }

    /** Writes items {@code first} to {@code first + count - 1} of a packed carrier back into the buffer. */
    static void scatter(Object carrier, Object buf, int first, int count, Datatype t) {
        if (carrier == buf || count == 0) {
            return;
        }
        if (carrier instanceof ByteBuffer c) {
            // A window on the user's ByteBuffer: already in place.
            if (buf instanceof ByteBuffer) {
                return;
            }
            byte[] copy = new byte[c.remaining()];
            c.duplicate().get(copy);
            carrier = copy;
        }
        View v = new View(buf, t.baseType);
        int[] cursor = {first * t.size};
        Object c = carrier;
        int start = first * t.extent;
        forEachRun(count, t, (at, n) -> {
            v.fromArray(c, cursor[0], start + at, n);
            cursor[0] += n;
        });
    }

    // ---- element views ------------------------------------------------------------------------

    /**
     * A buffer seen as elements of one base type: a typed NIO view over any array or buffer (byte
     * storage read in native order), or a boolean[]. Positions are absolute element indexes.
     */
    static final class View {
        private final int type;
        private final Buffer nio;
        private final boolean[] bools;

        View(Object buf, int type) {
            this.type = type;
            if (buf instanceof boolean[] z) {
                this.bools = z;
                this.nio = null;
                return;
            }
            this.bools = null;
            if (buf == null) {
                this.nio = ByteBuffer.allocate(0);
            } else if (buf instanceof ByteBuffer || buf instanceof byte[]) {
                ByteBuffer b = buf instanceof ByteBuffer bb ? bb.duplicate() : ByteBuffer.wrap((byte[]) buf);
                b.clear();
                b.order(NATIVE);
                this.nio = switch (type) {
                    case Datatype.CHAR -> b.asCharBuffer();
                    case Datatype.SHORT -> b.asShortBuffer();
                    case Datatype.INT -> b.asIntBuffer();
                    case Datatype.LONG -> b.asLongBuffer();
                    case Datatype.FLOAT -> b.asFloatBuffer();
                    case Datatype.DOUBLE -> b.asDoubleBuffer();
                    default -> b;
                };
            } else if (buf instanceof Buffer b) {
                Buffer d = duplicate(b);
                d.clear();
                this.nio = d;
            } else {
                this.nio = wrap(buf);
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
            }
            return CharBuffer.wrap((char[]) a);
        }

        private Buffer window(int at, int n) {
            nio.clear();
            nio.limit(at + n);
            nio.position(at);
            return nio;
        }

        /** Appends elements [at, at + n) to {@code dst} (little-endian), advancing it. */
        void encode(int at, int n, ByteBuffer dst) {
            if (bools != null) {
                for (int i = 0; i < n; i++) {
                    dst.put((byte) (bools[at + i] ? 1 : 0));
                }
                return;
            }
            Buffer w = window(at, n);
            int p = dst.position();
            switch (type) {
                case Datatype.CHAR -> dst.asCharBuffer().put((CharBuffer) w);
                case Datatype.SHORT -> dst.asShortBuffer().put((ShortBuffer) w);
                case Datatype.INT -> dst.asIntBuffer().put((IntBuffer) w);
                case Datatype.LONG -> dst.asLongBuffer().put((LongBuffer) w);
                case Datatype.FLOAT -> dst.asFloatBuffer().put((FloatBuffer) w);
                case Datatype.DOUBLE -> dst.asDoubleBuffer().put((DoubleBuffer) w);
                default -> dst.put((ByteBuffer) w);
            }
            dst.position(p + n * Datatype.bytesOf(type));
        }

        /** Reads {@code n} elements from {@code src} (little-endian) into [at, at + n), advancing it. */
        void decode(ByteBuffer src, int at, int n) {
            if (bools != null) {
                for (int i = 0; i < n; i++) {
                    bools[at + i] = src.get() != 0;
                }
                return;
            }
            Buffer w = window(at, n);
            int bytes = n * Datatype.bytesOf(type);
            ByteBuffer s = src.slice().order(src.order());
            s.limit(bytes);
            switch (type) {
                case Datatype.CHAR -> ((CharBuffer) w).put(s.asCharBuffer());
                case Datatype.SHORT -> ((ShortBuffer) w).put(s.asShortBuffer());
                case Datatype.INT -> ((IntBuffer) w).put(s.asIntBuffer());
                case Datatype.LONG -> ((LongBuffer) w).put(s.asLongBuffer());
                case Datatype.FLOAT -> ((FloatBuffer) w).put(s.asFloatBuffer());
                case Datatype.DOUBLE -> ((DoubleBuffer) w).put(s.asDoubleBuffer());
                default -> ((ByteBuffer) w).put(s);
            }
            src.position(src.position() + bytes);
        }

        /** Copies elements [at, at + n) into the carrier array {@code arr} at {@code off}. */
        void toArray(int at, int n, Object arr, int off) {
            if (bools != null) {
                System.arraycopy(bools, at, arr, off, n);
                return;
            }
            if (type == Datatype.BOOLEAN) {
                ByteBuffer b = (ByteBuffer) nio;
                boolean[] z = (boolean[]) arr;
                for (int i = 0; i < n; i++) {
                    z[off + i] = b.get(at + i) != 0;
                }
                return;
            }
            Buffer w = window(at, n);
            switch (type) {
                case Datatype.CHAR -> ((CharBuffer) w).get((char[]) arr, off, n);
                case Datatype.SHORT -> ((ShortBuffer) w).get((short[]) arr, off, n);
                case Datatype.INT -> ((IntBuffer) w).get((int[]) arr, off, n);
                case Datatype.LONG -> ((LongBuffer) w).get((long[]) arr, off, n);
                case Datatype.FLOAT -> ((FloatBuffer) w).get((float[]) arr, off, n);
                case Datatype.DOUBLE -> ((DoubleBuffer) w).get((double[]) arr, off, n);
                default -> ((ByteBuffer) w).get((byte[]) arr, off, n);
            }
        }

        /** Copies {@code n} elements of the carrier array {@code arr} from {@code off} into [at, at + n). */
        void fromArray(Object arr, int off, int at, int n) {
            if (bools != null) {
                System.arraycopy(arr, off, bools, at, n);
                return;
            }
            if (type == Datatype.BOOLEAN) {
                ByteBuffer b = (ByteBuffer) nio;
                boolean[] z = (boolean[]) arr;
                for (int i = 0; i < n; i++) {
                    b.put(at + i, (byte) (z[off + i] ? 1 : 0));
                }
                return;
            }
            Buffer w = window(at, n);
            switch (type) {
                case Datatype.CHAR -> ((CharBuffer) w).put((char[]) arr, off, n);
                case Datatype.SHORT -> ((ShortBuffer) w).put((short[]) arr, off, n);
                case Datatype.INT -> ((IntBuffer) w).put((int[]) arr, off, n);
                case Datatype.LONG -> ((LongBuffer) w).put((long[]) arr, off, n);
                case Datatype.FLOAT -> ((FloatBuffer) w).put((float[]) arr, off, n);
                case Datatype.DOUBLE -> ((DoubleBuffer) w).put((double[]) arr, off, n);
                default -> ((ByteBuffer) w).put((byte[]) arr, off, n);
            }
        }
    }
}
