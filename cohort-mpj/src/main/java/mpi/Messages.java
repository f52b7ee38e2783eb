package mpi;

import io.cohort.Communicator;
import io.cohort.Message;
import io.cohort.ObjectBytes;
import io.cohort.mpi.support.BaseType;
import io.cohort.mpi.support.buffers.Carriers;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * What a message of mpiJava items is, for {@link Comm}'s point-to-point calls: a whole primitive
 * array sent by Cohort's typed sends as it is, a {@code byte[]} from its offset, objects serialized
 * as one {@code Object[]}, or the items' wire bytes (through the shared
 * {@link io.cohort.mpi.support.buffers.Carriers}); and back into the program's array on receipt,
 * with the truncation rules. Also Pack and Unpack, which write the same forms into a {@code byte[]}.
 *
 * <p>Arguments are checked by the caller. Stateless; any thread.
 */
final class Messages {
    private Messages() {
    }

    /** Sends a whole primitive array by Cohort's typed send; false for types it has none of. */
    static boolean sendWhole(Communicator c, int to, int tag, Object buf) {
        if (buf instanceof int[] a) {
            c.send(to, tag, a);
        } else if (buf instanceof double[] a) {
            c.send(to, tag, a);
        } else if (buf instanceof long[] a) {
            c.send(to, tag, a);
        } else if (buf instanceof float[] a) {
            c.send(to, tag, a);
        } else if (buf instanceof short[] a) {
            c.send(to, tag, a);
        } else if (buf instanceof char[] a) {
            c.send(to, tag, a);
        } else {
            return false;
        }
        return true;
    }

    /** The items' objects as one Object[] to serialize (the array itself when it is exactly them). */
    static Object[] objects(Object buf, int offset, int count, Datatype t) {
        if (Comm.whole(buf, offset, count, t)) {
            return (Object[]) buf;
        }
        return (Object[]) Carriers.gather(buf, offset, count, t.layout, BaseType.OBJECT, true);
    }

    /**
     * Cohort's nonblocking send of the items: a byte[] from its offset or a whole int[], double[] or
     * long[] as it is, else their wire bytes.
     */
    static io.cohort.Request isend(Communicator c, int to, int tag, Object buf, int offset, int count,
                                   Datatype type) {
        if (type.element == BaseType.OBJECT) {
            return c.isend(to, tag, ObjectBytes.of(objects(buf, offset, count, type)));
        } else if (type.layout.contiguous && buf instanceof byte[] b) {
            return c.isend(to, tag, b, offset, count * type.layout.size);
        } else if (Comm.whole(buf, offset, count, type) && buf instanceof int[] a) {
            return c.isend(to, tag, a);
        } else if (Comm.whole(buf, offset, count, type) && buf instanceof double[] a) {
            return c.isend(to, tag, a);
        } else if (Comm.whole(buf, offset, count, type) && buf instanceof long[] a) {
            return c.isend(to, tag, a);
        }
        return c.isend(to, tag, Carriers.encode(buf, offset, count, type.layout, type.element));
    }

    /** Writes a received message into {@code count} items of the buffer; its status. */
    static Status deliver(Comm comm, Message m, Object buf, int offset, int count, Datatype type, String op) {
        if (type.element == BaseType.OBJECT) {
            Object got = m.asObject();
            if (!(got instanceof Object[] objects)) {
                throw Errors.error(op + ": the message from rank " + comm.fromHandle(m.source()) + " (tag " + m.tag()
                        + ") holds no MPI.OBJECT items; the sender used another datatype");
            }
            int room = count * type.layout.size;
            if (objects.length > room) {
                // The items that fit stay in the buffer, as with primitive types and in Cohort's engine.
                Carriers.scatter(objects, 0, buf, offset, count, type.layout, BaseType.OBJECT);
                throw Errors.error(op + ": the message of " + objects.length + " objects from rank "
                        + comm.fromHandle(m.source()) + " (tag " + m.tag() + ") does not fit the receive buffer of " + count
                        + " items of " + type + " (" + room + " objects)");
            }
            Carriers.scatter(objects, 0, buf, offset, objects.length / Math.max(1, type.layout.size), type.layout,
                    BaseType.OBJECT);
            int rest = objects.length % Math.max(1, type.layout.size);
            if (rest > 0) {
                // A partial last item: its first elements, in type-map order.
                Object[] tail = Arrays.copyOfRange(objects, objects.length - rest, objects.length);
                int item = objects.length / type.layout.size;
                int[] cursor = {0};
                type.layout.forEachRun(offset + item * type.layout.extent, 1, (at, n) -> {
                    int k = Math.min(n, rest - cursor[0]);
                    if (k > 0) {
                        System.arraycopy(tail, cursor[0], buf, at, k);
                        cursor[0] += k;
                    }
                });
            }
            return comm.status(m.status(), objects.length);
        }
        long room = Carriers.wireBytes(count, type.layout, type.element);
        if (m.length() > room) {
            Carriers.decode(m.buffer(), buf, offset, count, type.layout, type.element); // the items that fit
            throw Errors.error(op + ": the message of " + m.length() + " bytes from rank " + comm.fromHandle(m.source())
                    + " (tag " + m.tag() + ") does not fit the receive buffer of " + count + " items of " + type + " ("
                    + room + " bytes)");
        }
        Carriers.decode(m.buffer(), buf, offset, count, type.layout, type.element);
        return comm.status(m.status(), -1);
    }

    /** A contiguous type of the same item size and base as {@code t}: how a packed carrier of its items reads. */
    static Datatype packedType(Datatype t) {
        if (t.layout.contiguous) {
            return t;
        }
        return new Datatype.Made(t.baseType, io.cohort.mpi.support.Layout.contiguous(t.layout.size,
                io.cohort.mpi.support.Layout.ONE), t.pair, null);
    }

    /** Pack_size past its checks. */
    static int packSize(int incount, Datatype datatype) {
        if (datatype.element == BaseType.OBJECT) {
            throw Errors.error("Pack_size: the packed size of MPI.OBJECT items is known only once they are serialized;"
                    + " Pack them into a buffer large enough, or send them without packing");
        }
        if (incount < 0) {
            throw Errors.error("Pack_size: the count is negative: " + incount);
        }
        long n = Carriers.wireBytes(incount, datatype.layout, datatype.element);
        if (n > Integer.MAX_VALUE) {
            throw Errors.error("Pack_size: " + incount + " items take " + n + " bytes, more than a Java array holds");
        }
        return (int) n;
    }

    /** Pack past its checks: the items' wire bytes, or their objects as a length and their serialized form. */
    static int pack(Object inbuf, int offset, int incount, Datatype datatype, byte[] outbuf, int position) {
        byte[] bytes = datatype.element == BaseType.OBJECT ? ObjectBytes.of(objects(inbuf, offset, incount, datatype))
                : null;
        long need = bytes != null ? 4L + bytes.length : Carriers.wireBytes(incount, datatype.layout, datatype.element);
        if (outbuf == null || position < 0 || position + need > outbuf.length) {
            throw Errors.error("Pack: " + need + " bytes do not fit the output buffer of "
                    + (outbuf == null ? "null" : outbuf.length + " bytes") + " from position " + position);
        }
        ByteBuffer out = ByteBuffer.wrap(outbuf, position, (int) need).order(ByteOrder.LITTLE_ENDIAN);
        if (bytes != null) {
            out.putInt(bytes.length).put(bytes);
        } else {
            Carriers.encode(inbuf, offset, incount, datatype.layout, datatype.element, out);
        }
        return out.position();
    }

    /** Unpack past its checks. */
    static int unpack(Comm comm, byte[] inbuf, int position, Object outbuf, int offset, int outcount,
                      Datatype datatype) {
        if (inbuf == null || position < 0 || position > inbuf.length) {
            throw Errors.error("Unpack: position " + position + " is outside the input buffer of "
                    + (inbuf == null ? "null" : inbuf.length + " bytes"));
        }
        ByteBuffer in = ByteBuffer.wrap(inbuf).order(ByteOrder.LITTLE_ENDIAN);
        in.position(position);
        if (datatype.element == BaseType.OBJECT) {
            if (in.remaining() < 4) {
                throw Errors.error("Unpack: no packed objects at position " + position);
            }
            int n = in.getInt();
            if (n < 0 || n > in.remaining()) {
                throw Errors.error("Unpack: the bytes at position " + position + " are not objects packed by Pack");
            }
            int from = in.position();
            // A refused or unreadable object: an MPI error like any other.
            Object got = comm.call("Unpack", () -> ObjectBytes.read(Arrays.copyOfRange(inbuf, from, from + n),
                    "the objects Unpack reads at position " + position));
            if (!(got instanceof Object[] objects) || objects.length > outcount * datatype.layout.size) {
                throw Errors.error("Unpack: the packed objects do not fit " + outcount + " items of " + datatype);
            }
            Carriers.scatter(objects, 0, outbuf, offset, objects.length / Math.max(1, datatype.layout.size),
                    datatype.layout, BaseType.OBJECT);
            return in.position() + n;
        }
        long need = Carriers.wireBytes(outcount, datatype.layout, datatype.element);
        if (need > in.remaining()) {
            throw Errors.error("Unpack: " + outcount + " items of " + datatype + " need " + need + " bytes but "
                    + in.remaining() + " remain after position " + position);
        }
        Carriers.decode(in, outbuf, offset, outcount, datatype.layout, datatype.element);
        return in.position();
    }
}
