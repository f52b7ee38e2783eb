package mpi;

import io.cohort.Communicator;
import io.cohort.Message;

import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * {@link Comm}'s point-to-point calls behind its public methods: blocking, nonblocking and
 * persistent sends and receives, probes, pack and unpack, with their argument checks. A buffer
 * becomes wire bytes through {@link Buffers} (a {@code byte[]} or {@code ByteBuffer} of a contiguous
 * type goes to Cohort as it is, with an offset and a length; anything else is packed once).
 *
 * <p>Stateless: every method takes the communicator it serves; any thread.
 */
final class PointToPoint {
    private PointToPoint() {
    }

    static void checkDest(Comm comm, Communicator c, int dest, String op) throws MPIException {
        int n = comm.peers(c);
        if (dest < 0 || dest >= n) {
            throw comm.error(MPI.ERR_RANK, op + ": destination rank " + dest + " is not in " + whom(comm) + " of "
                    + n + " (ranks 0 to " + (n - 1) + ", or MPI.PROC_NULL)");
        }
    }

    static void checkSource(Comm comm, Communicator c, int source, String op) throws MPIException {
        int n = comm.peers(c);
        if (source != MPI.ANY_SOURCE && (source < 0 || source >= n)) {
            throw comm.error(MPI.ERR_RANK, op + ": source rank " + source + " is not in " + whom(comm) + " of " + n
                    + " (ranks 0 to " + (n - 1) + ", MPI.ANY_SOURCE or MPI.PROC_NULL)");
        }
    }

    /** What point-to-point ranks name, in errors. */
    static String whom(Comm comm) {
        return comm instanceof Intercomm ? "the remote group" : "comm communicator";
    }

    static void checkSendTag(Comm comm, int tag, String op) throws MPIException {
        if (tag < 0) {
            throw comm.error(MPI.ERR_TAG,
                    op + ": tag " + tag + " is negative; tags are 0 to MPI.TAG_UB (MPI.ANY_TAG is for receives)");
        }
    }

    static void checkRecvTag(Comm comm, int tag, String op) throws MPIException {
        if (tag < 0 && tag != MPI.ANY_TAG) {
            throw comm.error(MPI.ERR_TAG,
                    op + ": tag " + tag + " is negative; receives take 0 to MPI.TAG_UB or MPI.ANY_TAG");
        }
    }

    static void checkFits(Comm comm, long got, int count, Datatype type, int source, int tag,
            String op) throws MPIException {
        long room = Buffers.wireBytes(count, type);
        if (got > room) {
            throw comm.error(MPI.ERR_TRUNCATE,
                    op + ": the message of " + got + " bytes from rank " + source + " (tag " + tag
                    + ") does not fit the receive buffer of " + count + " items of " + type + " (" + room + " bytes)");
        }
    }

    static void send(Comm comm, Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        Communicator c = comm.c();
        int raw = Buffers.checkedRawBytes(buf, count, type);
        if (raw < 0) {
            comm.checkBuffer(buf, count, type, "send", "send buffer");
        }
        if (dest == MPI.PROC_NULL) {
            return;
        }
        checkDest(comm, c, dest, "send");
        checkSendTag(comm, tag, "send");
        try {
            if (buf instanceof ByteBuffer b && raw >= 0) {
                c.send(comm.out(dest), tag, b, 0, raw);
            } else if (buf instanceof byte[] a && raw >= 0) {
                c.send(comm.out(dest), tag, a, 0, raw);
            } else {
                c.send(comm.out(dest), tag, Buffers.pack(buf, count, type));
            }
        } catch (RuntimeException e) {
            throw comm.fail(e, "send");
        }
    }

    static Status recv(Comm comm, Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        Communicator c = comm.c();
        int raw = Buffers.checkedRawBytes(buf, count, type);
        if (raw < 0) {
            comm.checkBuffer(buf, count, type, "recv", "receive buffer");
        }
        if (source == MPI.PROC_NULL) {
            return Status.procNull(MPI.UNDEFINED);
        }
        checkSource(comm, c, source, "recv");
        checkRecvTag(comm, tag, "recv");
        if (raw < 0) {
            return receive(comm, c, buf, count, type, source, tag, "recv");
        }
        try { // the checked common case: straight into the buffer's bytes, no view, no copy
            return comm.status(buf instanceof byte[] a ? c.recv(comm.out(source), tag, a, 0, raw)
                    : c.recv(comm.out(source), tag, (ByteBuffer) buf, 0, raw));
        } catch (RuntimeException e) {
            throw comm.fail(e, "recv");
        }
    }

    static Status receive(Comm comm, Communicator c, Object buf, int count, Datatype type, int source, int tag,
            String op)
            throws MPIException {
        try {
            ByteBuffer raw = Buffers.rawWindow(buf, count, type);
            if (raw != null) {
                return comm.status(c.recv(comm.out(source), tag, raw));
            }
            Message m = c.recv(comm.out(source), tag);
            // A longer message leaves the items that fit, as the raw path does.
            Buffers.unpack(m.buffer(), buf, count, type);
            checkFits(comm, m.length(), count, type, comm.in(m.source()), m.tag(), op);
            return comm.status(m.status());
        } catch (RuntimeException e) {
            throw comm.fail(e, op);
        }
    }

    static Status sendRecv(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, int dest, int sendtag,
                                 Object recvbuf, int recvcount, Datatype recvtype, int source, int recvtag)
            throws MPIException {
        Communicator c = comm.c();
        comm.checkBuffer(sendbuf, sendcount, sendtype, "sendRecv", "send buffer");
        comm.checkBuffer(recvbuf, recvcount, recvtype, "sendRecv", "receive buffer");
        return exchange(comm, c, Buffers.pack(sendbuf, sendcount, sendtype), dest, sendtag, recvbuf, recvcount,
                recvtype,
                source, recvtag, "sendRecv");
    }

    static Status sendRecvReplace(Comm comm, Object buf, int count, Datatype type, int dest, int sendtag, int source,
                                        int recvtag) throws MPIException {
        Communicator c = comm.c();
        comm.checkBuffer(buf, count, type, "sendRecvReplace", "buffer");
        ByteBuffer out = Buffers.pack(buf, count, type);
        if (Buffers.rawWindow(buf, count, type) != null) {
            // The wire bytes are the buffer itself, which the receive overwrites: send a copy.
            ByteBuffer copy = ByteBuffer.allocate(out.remaining());
            copy.put(out.duplicate()).flip();
            out = copy;
        }
        return exchange(comm, c, out, dest, sendtag, buf, count, type, source, recvtag, "sendRecvReplace");
    }

    static Status exchange(Comm comm, Communicator c, ByteBuffer payload, int dest, int sendtag, Object recvbuf,
            int recvcount,
                            Datatype recvtype, int source, int recvtag, String op) throws MPIException {
        if (dest != MPI.PROC_NULL) {
            checkDest(comm, c, dest, op);
            checkSendTag(comm, sendtag, op);
        }
        if (source != MPI.PROC_NULL) {
            checkSource(comm, c, source, op);
            checkRecvTag(comm, recvtag, op);
        }
        io.cohort.Request sent;
        try {
            sent = dest == MPI.PROC_NULL ? null : c.isend(comm.out(dest), sendtag, payload);
        } catch (RuntimeException e) {
            throw comm.fail(e, op);
        }
        Status s = source == MPI.PROC_NULL ? Status.procNull(MPI.UNDEFINED)
                : receive(comm, c, recvbuf, recvcount, recvtype, source, recvtag, op);
        if (sent != null) {
            try {
                sent.await();
            } catch (RuntimeException e) {
                throw comm.fail(e, op);
            }
        }
        return s;
    }

    static Request iSend(Comm comm, Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        Communicator c = comm.c();
        comm.checkBuffer(buf, count, type, "iSend", "send buffer");
        if (dest == MPI.PROC_NULL) {
            return Request.completed(comm, Status.procNull(MPI.UNDEFINED));
        }
        checkDest(comm, c, dest, "iSend");
        checkSendTag(comm, tag, "iSend");
        try {
            return new Request(c.isend(comm.out(dest), tag, Buffers.pack(buf, count, type)), comm, true, null);
        } catch (RuntimeException e) {
            throw comm.fail(e, "iSend");
        }
    }

    static Request iRecv(Comm comm, Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        Communicator c = comm.c();
        comm.checkBuffer(buf, count, type, "iRecv", "receive buffer");
        if (source == MPI.PROC_NULL) {
            return Request.completed(comm, Status.procNull(MPI.UNDEFINED));
        }
        checkSource(comm, c, source, "iRecv");
        checkRecvTag(comm, tag, "iRecv");
        Request r = new Request(null, comm, true, null);
        postReceive(comm, c, r, buf, count, type, source, tag);
        return r;
    }

    static void postReceive(Comm comm, Communicator c, Request into, Object buf, int count, Datatype type,
            int source, int tag)
            throws MPIException {
        try {
            ByteBuffer raw = Buffers.rawWindow(buf, count, type);
            if (raw != null) {
                into.start(c.irecv(comm.out(source), tag, raw), true, null);
                return;
            }
            io.cohort.Request[] inner = new io.cohort.Request[1];
            inner[0] = c.irecv(comm.out(source), tag);
            into.start(inner[0], true, s -> {
                Message m = inner[0].message();
                Buffers.unpack(m.buffer(), buf, count, type); // the items that fit, then the truncation
                checkFits(comm, m.length(), count, type, comm.in(m.source()), m.tag(), "iRecv");
            });
        } catch (RuntimeException e) {
            throw comm.fail(e, "iRecv");
        }
    }

    static Prequest sendInit(Comm comm, Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        Communicator c = comm.c();
        comm.checkBuffer(buf, count, type, "sendInit", "send buffer");
        if (dest != MPI.PROC_NULL) {
            checkDest(comm, c, dest, "sendInit");
            checkSendTag(comm, tag, "sendInit");
        }
        return new Prequest(comm, p -> {
            if (dest == MPI.PROC_NULL) {
                p.startCompleted(Status.procNull(MPI.UNDEFINED));
                return;
            }
            try {
                p.start(c.isend(comm.out(dest), tag, Buffers.pack(buf, count, type)), true, null);
            } catch (RuntimeException e) {
                throw comm.fail(e, "start");
            }
        });
    }

    static Prequest recvInit(Comm comm, Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        Communicator c = comm.c();
        comm.checkBuffer(buf, count, type, "recvInit", "receive buffer");
        if (source != MPI.PROC_NULL) {
            checkSource(comm, c, source, "recvInit");
            checkRecvTag(comm, tag, "recvInit");
        }
        return new Prequest(comm, p -> {
            if (source == MPI.PROC_NULL) {
                p.startCompleted(Status.procNull(MPI.UNDEFINED));
            } else {
                postReceive(comm, c, p, buf, count, type, source, tag);
            }
        });
    }

    static int pack(Comm comm, Object inbuf, int incount, Datatype type, byte[] outbuf,
            int position) throws MPIException {
        comm.c();
        comm.checkBuffer(inbuf, incount, type, "pack", "input buffer");
        if (outbuf == null) {
            throw comm.error(MPI.ERR_BUFFER, "pack: the output buffer is null");
        }
        ByteBuffer b = Buffers.pack(inbuf, incount, type);
        if (position < 0 || (long) position + b.remaining() > outbuf.length) {
            throw comm.error(MPI.ERR_TRUNCATE, "pack: " + b.remaining() + " bytes do not fit in " + outbuf.length
                    + " bytes from position " + position);
        }
        b.duplicate().get(outbuf, position, b.remaining());
        return position + b.remaining();
    }

    static int unpack(Comm comm, byte[] inbuf, int position, Object outbuf, int outcount,
            Datatype type) throws MPIException {
        comm.c();
        comm.checkBuffer(outbuf, outcount, type, "unpack", "output buffer");
        if (inbuf == null) {
            throw comm.error(MPI.ERR_BUFFER, "unpack: the input buffer is null");
        }
        long n = Buffers.wireBytes(outcount, type);
        if (position < 0 || position + n > inbuf.length) {
            throw comm.error(MPI.ERR_TRUNCATE, "unpack: " + outcount + " items need " + n + " bytes but " + inbuf.length
                    + " bytes from position " + position + " hold fewer");
        }
        Buffers.unpack(ByteBuffer.wrap(inbuf, position, (int) n).slice(), outbuf, outcount, type);
        return position + (int) n;
    }

    static int packSize(Comm comm, int incount, Datatype type) throws MPIException {
        comm.c();
        if (type == null || type.baseType == Datatype.NULL) {
            throw comm.error(MPI.ERR_TYPE,
                    "packSize: the datatype is " + (type == null ? "null" : "MPI.DATATYPE_NULL"));
        }
        if (incount < 0) {
            throw comm.error(MPI.ERR_COUNT, "packSize: the count is negative: " + incount);
        }
        long n = Buffers.wireBytes(incount, type);
        if (n > Integer.MAX_VALUE) {
            throw comm.error(MPI.ERR_COUNT, "packSize: " + incount + " items of " + type + " take " + n
                    + " bytes, more than a Java array holds");
        }
        return (int) n;
    }

    static Status iProbe(Comm comm, int source, int tag) throws MPIException {
        Communicator c = comm.c();
        if (source == MPI.PROC_NULL) {
            return Status.procNull(MPI.UNDEFINED);
        }
        checkSource(comm, c, source, "iProbe");
        checkRecvTag(comm, tag, "iProbe");
        try {
            Optional<io.cohort.Status> s = c.iprobe(comm.out(source), tag);
            return s.map(comm::status).orElse(null);
        } catch (RuntimeException e) {
            throw comm.fail(e, "iProbe");
        }
    }

    static Status probe(Comm comm, int source, int tag) throws MPIException {
        Communicator c = comm.c();
        if (source == MPI.PROC_NULL) {
            return Status.procNull(MPI.UNDEFINED);
        }
        checkSource(comm, c, source, "probe");
        checkRecvTag(comm, tag, "probe");
        try {
            return comm.status(c.probe(comm.out(source), tag));
        } catch (RuntimeException e) {
            throw comm.fail(e, "probe");
        }
    }
}
