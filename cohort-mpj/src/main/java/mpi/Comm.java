package mpi;

import io.cohort.Communicator;
import io.cohort.mpi.support.BaseType;
import io.cohort.mpi.support.buffers.Carriers;
import io.cohort.mpi.support.buffers.Operand;

import java.nio.ByteBuffer;

/**
 * A communicator of mpiJava 1.2 over a Cohort {@link Communicator}: point-to-point in every mode,
 * blocking, nonblocking and persistent, probes, pack and unpack, groups, comparison and attributes.
 * Buffers are Java arrays (a primitive array of the datatype's base type, or {@code Object[]} for
 * {@link MPI#OBJECT}) with an offset counted in elements of the array.
 *
 * <p>{@link MPI#COMM_WORLD} and {@link MPI#COMM_SELF} find the calling peer's communicators when
 * used; communicators made by clone, Split, Create and the topology constructors hold their own.
 *
 * <p>Errors go to the process's error handler ({@link MPI#Errorhandler_set}):
 * {@link MPI#ERRORS_ARE_FATAL} (the default) ends the process with one line naming the rank and the
 * error, {@link MPI#ERRORS_RETURN} throws an {@link MPIException}.
 *
 * <p>Threads: any thread may call (Cohort's communicators are thread-safe); collectives of one
 * communicator must be called in the same order on every process, as MPI requires.
 */
public class Comm {
    static final int PLAIN = 0;
    static final int WORLD = 1;
    static final int SELF = 2;

    /** The communicator's group, as MPJ Express exposes it (COMM_WORLD's is set by Init). */
    public Group group;
    private final int kind;
    /** A made communicator's Cohort communicator; null once freed. */
    private volatile Communicator handle;

    /** COMM_WORLD or COMM_SELF: resolved per peer on every call. */
    Comm(int kind) {
        this.kind = kind;
    }

    /** A communicator over {@code handle}. */
    Comm(Communicator handle) {
        this.kind = PLAIN;
        this.handle = handle;
        this.group = new Group(handle.group());
    }

    // ---- what this communicator is ----------------------------------------------------------

    /** The Cohort communicator, or an error if MPI is not initialized or this one was freed. */
    final Communicator c(String operation) {
        MPI.check(operation);
        Communicator c = resolve();
        if (c == null) {
            throw Errors.error(operation + ": the communicator was freed");
        }
        return c;
    }

    private Communicator resolve() {
        if (kind == PLAIN) {
            return handle;
        }
        Peer p = Peer.current();
        if (p == null) {
            return null;
        }
        return kind == WORLD ? p.world : p.self;
    }

    /** Ranks point-to-point may name (an inter-communicator's remote group). */
    int peers(Communicator c) {
        return c.size();
    }

    /** The Cohort rank of this communicator's rank {@code rank} as a destination or source. */
    int toHandle(int rank) {
        return rank;
    }

    /** This communicator's rank of a Cohort source rank. */
    int fromHandle(int rank) {
        return rank;
    }

    /** Runs what {@code operation} does with Cohort through {@link Errors#run}: a failure is the call's MPI error. */
    final void run(String operation, Runnable body) {
        Errors.run(operation, this, body);
    }

    /** As {@link #run}, for a body with a result. */
    final <T> T call(String operation, java.util.function.Supplier<T> body) {
        return Errors.call(operation, this, body);
    }

    /** The number of processes (of the local group, for an inter-communicator). */
    public int Size() throws MPIException {
        return c("Size").size();
    }

    /** This process's rank (in the local group, for an inter-communicator). */
    public int Rank() throws MPIException {
        return c("Rank").rank();
    }

    /** This communicator's group (the local group, for an inter-communicator). */
    public Group Group() throws MPIException {
        return new Group(c("Group").group());
    }

    /**
     * {@link MPI#IDENT} for the same communicator, {@link MPI#CONGRUENT} for the same group in the
     * same order, {@link MPI#SIMILAR} for the same members, else {@link MPI#UNEQUAL}.
     */
    public static int Compare(Comm comm1, Comm comm2) throws MPIException {
        if (comm1 == null || comm2 == null) {
            throw Errors.error("Comm.Compare needs two communicators, not null");
        }
        Communicator a = comm1.c("Compare");
        Communicator b = comm2.c("Compare");
        if (a == b) {
            return MPI.IDENT;
        }
        return switch (comm1.Group().g.compare(comm2.Group().g)) {
            case IDENTICAL -> MPI.CONGRUENT;
            case SIMILAR -> MPI.SIMILAR;
            default -> MPI.UNEQUAL;
        };
    }

    /** Frees a communicator made by clone, Split, Create ...; the predefined ones cannot be freed. */
    public void Free() throws MPIException {
        MPI.check("Free");
        if (kind != PLAIN) {
            throw Errors.error("Free: " + (kind == WORLD ? "MPI.COMM_WORLD" : "MPI.COMM_SELF") + " cannot be freed");
        }
        Communicator c = handle;
        if (c == null) {
            throw Errors.error("Free: the communicator was already freed");
        }
        handle = null;
        run("Free", c::close);
    }

    /** Whether this is an inter-communicator. */
    public boolean Test_inter() throws MPIException {
        c("Test_inter");
        return false;
    }

    /** {@link MPI#CART}, {@link MPI#GRAPH}, or {@link MPI#UNDEFINED} for a communicator without a topology. */
    public int Topo_test() throws MPIException {
        c("Topo_test");
        return MPI.UNDEFINED;
    }

    /**
     * The predefined attributes: {@link MPI#TAG_UB} (the largest tag), {@link MPI#HOST}
     * ({@link MPI#PROC_NULL}: no host is special), {@link MPI#IO} (this rank: every process can do
     * I/O); null for any other key.
     */
    public Object Attr_get(int keyval) throws MPIException {
        Communicator c = c("Attr_get");
        if (keyval == MPI.TAG_UB) {
            return MPI.tagUpperBound();
        } else if (keyval == MPI.HOST) {
            return MPI.PROC_NULL;
        } else if (keyval == MPI.IO) {
            return c.rank();
        }
        return null;
    }

    /** Predefined attributes cannot be deleted, and there are no others. */
    public void Attr_delete(int keyval) throws MPIException {
        c("Attr_delete");
        throw Errors.error("Attr_delete: attribute " + keyval + " is predefined or absent; Cohort keeps no user attributes");
    }

    /** Ends the whole job with exit status {@code errorcode}. */
    public void Abort(int errorcode) throws MPIException {
        Peer p = MPI.check("Abort");
        Errors.abort(p.world.rank(), errorcode);
    }

    /** A new communicator with the same group and a context of its own (MPI_COMM_DUP). Collective. */
    @Override
    public Object clone() throws MPIException {
        Communicator c = c("clone");
        return call("clone", () -> new Intracomm(c.dup()));
    }

    @Override
    public String toString() {
        Communicator c = resolve();
        String name = kind == WORLD ? "MPI.COMM_WORLD" : kind == SELF ? "MPI.COMM_SELF" : getClass().getSimpleName();
        return name + (c == null ? "[freed]" : "[rank " + c.rank() + " of " + c.size() + "]");
    }

    // ---- argument checks ------------------------------------------------------------------------

    /** Checks that {@code buf} from {@code offset} holds {@code count} items of {@code type}. */
    static void checkBuffer(Object buf, int offset, int count, Datatype type, String what) {
        if (type != null && buf != null && count >= 0 && offset >= 0 && type.element != BaseType.NULL
                && BaseType.ofArray(buf) == type.element && (count == 0 || offset + type.layout.trueLb >= 0)
                && offset + type.layout.span(count) <= java.lang.reflect.Array.getLength(buf)) {
            return; // the common case, small enough for the JIT to inline into every call
        }
        refuse(buf, offset, count, type, what);
    }

    /**
     * {@link #checkBuffer} past its common case: throws what is wrong, or returns for the few buffers
     * the quick test leaves out that are right (an empty Struct over an array of another type).
     * Apart so that checkBuffer stays small enough to inline: with these strings it was not.
     */
    private static void refuse(Object buf, int offset, int count, Datatype type, String what) {
        if (type == null) {
            throw Errors.error(what + ": the datatype is null");
        }
        if (type.element == BaseType.NULL) {
            throw Errors.error(what + ": " + type + " describes no data; pass MPI.INT, MPI.DOUBLE ... or a type made from them");
        }
        if (count < 0) {
            throw Errors.error(what + ": the count is negative: " + count);
        }
        if (offset < 0) {
            throw Errors.error(what + ": the offset is negative: " + offset);
        }
        if (buf == null) {
            if (count == 0) {
                return;
            }
            throw Errors.error(what + ": the buffer is null");
        }
        int holds = BaseType.ofArray(buf);
        if (holds == BaseType.NULL) {
            throw Errors.error(what + ": the buffer is a " + buf.getClass().getName() + "; pass an array (a primitive"
                    + " array, or Object[] for MPI.OBJECT)");
        }
        // A type of no elements (an empty Struct) touches nothing, so any array goes.
        if (holds != type.element && type.layout.size > 0) {
            throw Errors.error(what + ": the buffer is a " + BaseType.name(holds) + "[] but its datatype " + type
                    + " is made of " + BaseType.name(type.element) + " elements; they must match");
        }
        if (count > 0 && offset + type.layout.trueLb < 0) {
            throw Errors.error(what + ": " + count + " items of " + type + " at offset " + offset
                    + " reach before the buffer's start");
        }
        long need = offset + type.layout.span(count);
        int length = java.lang.reflect.Array.getLength(buf);
        if (need > length) {
            throw Errors.error(what + ": " + count + " items of " + type + " at offset " + offset + " need " + need
                    + " elements but the buffer has " + length);
        }
    }

    private void checkDest(Communicator c, int dest, String op) {
        int n = peers(c);
        if (dest < 0 || dest >= n) {
            throw Errors.error(op + ": destination rank " + dest + " is not in this communicator of " + n
                    + " (ranks 0 to " + (n - 1) + ", or MPI.PROC_NULL)");
        }
    }

    private int source(Communicator c, int source, String op) {
        if (source == MPI.ANY_SOURCE) {
            return Communicator.ANY_SOURCE;
        }
        int n = peers(c);
        if (source < 0 || source >= n) {
            throw Errors.error(op + ": source rank " + source + " is not in this communicator of " + n
                    + " (ranks 0 to " + (n - 1) + ", MPI.ANY_SOURCE or MPI.PROC_NULL)");
        }
        return toHandle(source);
    }

    private static void checkSendTag(int tag, String op) {
        if (tag < 0) {
            throw Errors.error(op + ": tag " + tag + " is negative; tags are 0 to the TAG_UB attribute"
                    + " (MPI.ANY_TAG is for receives)");
        }
    }

    private static int recvTag(int tag, String op) {
        if (tag == MPI.ANY_TAG) {
            return Communicator.ANY_TAG;
        }
        if (tag < 0) {
            throw Errors.error(op + ": tag " + tag + " is negative; receives take 0 to the TAG_UB attribute or MPI.ANY_TAG");
        }
        return tag;
    }

    /** Whether {@code buf} is exactly {@code count} items of a contiguous type from element 0: sendable as it is. */
    static boolean whole(Object buf, int offset, int count, Datatype t) {
        return Operand.whole(buf, offset, count * t.layout.size, t.layout, t.element);
    }

    Status status(io.cohort.Status s, int objects) {
        return new Status(fromHandle(s.source()), s.tag(), s.length(), objects);
    }

    // ---- blocking point-to-point ------------------------------------------------------------

    /** Sends {@code count} items of {@code datatype} from {@code buf[offset]}; returns once {@code buf} may be reused. */
    public void Send(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        send(buf, offset, count, datatype, dest, tag, "Send");
    }

    /**
     * A synchronous send. Cohort's sends are eager, so this returns once {@code buf} may be reused,
     * possibly before the matching receive started; no correct program can tell.
     */
    public void Ssend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        send(buf, offset, count, datatype, dest, tag, "Ssend");
    }

    /** A buffered send: as {@link #Send}; Cohort buffers every send itself and never needs the attached buffer. */
    public void Bsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        send(buf, offset, count, datatype, dest, tag, "Bsend");
    }

    /** A ready send: as {@link #Send} (correct whether or not the receive was posted). */
    public void Rsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        send(buf, offset, count, datatype, dest, tag, "Rsend");
    }

    private void send(Object buf, int offset, int count, Datatype type, int dest, int tag, String op) {
        Communicator c = c(op);
        checkBuffer(buf, offset, count, type, op);
        if (dest == MPI.PROC_NULL) {
            return;
        }
        checkDest(c, dest, op);
        checkSendTag(tag, op);
        int to = toHandle(dest);
        try { // caught here, not through run(): a lambda would be an object per message
            if (type.element == BaseType.OBJECT) {
                c.sendObject(to, tag, Messages.objects(buf, offset, count, type));
            } else if (type.layout.contiguous && buf instanceof byte[] b) {
                c.send(to, tag, b, offset, count * type.layout.size);
            } else if (!whole(buf, offset, count, type) || !Messages.sendWhole(c, to, tag, buf)) {
                c.send(to, tag, Carriers.encode(buf, offset, count, type.layout, type.element));
            }
        } catch (RuntimeException e) {
            throw Errors.failed(e, op, this);
        }
    }

    /** Receives at most {@code count} items of {@code datatype} into {@code buf[offset]}. */
    public Status Recv(Object buf, int offset, int count, Datatype datatype, int source, int tag) throws MPIException {
        Communicator c = c("Recv");
        checkBuffer(buf, offset, count, datatype, "Recv");
        if (source == MPI.PROC_NULL) {
            return new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0, 0);
        }
        int from = source(c, source, "Recv");
        int t = recvTag(tag, "Recv");
        try { // as in send: no lambda per message
            return receive(c, from, t, buf, offset, count, datatype);
        } catch (RuntimeException e) {
            throw Errors.failed(e, "Recv", this);
        }
    }

    /** Recv past its checks: straight into a byte[] or a whole int[], double[] or long[]; else decoded. */
    private Status receive(Communicator c, int from, int tag, Object buf, int offset, int count, Datatype type) {
        if (type.element != BaseType.OBJECT && type.layout.contiguous && buf instanceof byte[] b) {
            return status(c.recv(from, tag, ByteBuffer.wrap(b, offset, count * type.layout.size)), -1);
        }
        if (whole(buf, offset, count, type)) {
            if (buf instanceof int[] a) {
                return status(c.recv(from, tag, a), -1);
            } else if (buf instanceof double[] a) {
                return status(c.recv(from, tag, a), -1);
            } else if (buf instanceof long[] a) {
                return status(c.recv(from, tag, a), -1);
            }
        }
        return Messages.deliver(this, c.recv(from, tag), buf, offset, count, type, "Recv");
    }

    /** Sends and receives at once; the two buffers must not overlap. */
    public Status Sendrecv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, int dest, int sendtag,
                           Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int source, int recvtag)
            throws MPIException {
        Request s = isend(sendbuf, sendoffset, sendcount, sendtype, dest, sendtag, "Sendrecv");
        Status st = Recv(recvbuf, recvoffset, recvcount, recvtype, source, recvtag);
        s.Wait();
        return st;
    }

    /** Sends {@code count} items of {@code buf} and receives into the same items. */
    public Status Sendrecv_replace(Object buf, int offset, int count, Datatype datatype, int dest, int sendtag,
                                   int source, int recvtag) throws MPIException {
        Communicator c = c("Sendrecv_replace");
        checkBuffer(buf, offset, count, datatype, "Sendrecv_replace");
        // Send a copy: the receive overwrites the buffer while the send may still be reading it.
        Object copy = Carriers.gather(buf, offset, count, datatype.layout, datatype.element, true);
        Datatype packed = Messages.packedType(datatype);
        Request s = isend(copy, 0, count, packed, dest, sendtag, "Sendrecv_replace");
        Status st = Recv(buf, offset, count, datatype, source, recvtag);
        s.Wait();
        return st;
    }

    // ---- nonblocking point-to-point -------------------------------------------------------------

    /** Starts a standard send; {@code buf} must stay untouched until the request completes. */
    public Request Isend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        return isend(buf, offset, count, datatype, dest, tag, "Isend");
    }

    /** Starts a buffered send (as {@link #Isend}). */
    public Request Ibsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        return isend(buf, offset, count, datatype, dest, tag, "Ibsend");
    }

    /** Starts a synchronous send (as {@link #Isend}; see {@link #Ssend}). */
    public Request Issend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        return isend(buf, offset, count, datatype, dest, tag, "Issend");
    }

    /** Starts a ready send (as {@link #Isend}). */
    public Request Irsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        return isend(buf, offset, count, datatype, dest, tag, "Irsend");
    }

    private Request isend(Object buf, int offset, int count, Datatype type, int dest, int tag, String op) {
        Request r = new Request(null);
        startSend(r, buf, offset, count, type, dest, tag, op);
        return r;
    }

    private void startSend(Request r, Object buf, int offset, int count, Datatype type, int dest, int tag, String op) {
        Communicator c = c(op);
        checkBuffer(buf, offset, count, type, op);
        if (dest == MPI.PROC_NULL) {
            r.startCompleted(new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0, 0));
            return;
        }
        checkDest(c, dest, op);
        checkSendTag(tag, op);
        int to = toHandle(dest);
        try { // as in send: no lambda per message
            r.start(Messages.isend(c, to, tag, buf, offset, count, type), null);
        } catch (RuntimeException e) {
            throw Errors.failed(e, op, this);
        }
    }

    /** Starts a receive; the data is in {@code buf} once a wait or a test completes the request. */
    public Request Irecv(Object buf, int offset, int count, Datatype datatype, int source, int tag) throws MPIException {
        Request r = new Request(null);
        startRecv(r, buf, offset, count, datatype, source, tag, "Irecv");
        return r;
    }

    private void startRecv(Request r, Object buf, int offset, int count, Datatype type, int source, int tag, String op) {
        Communicator c = c(op);
        checkBuffer(buf, offset, count, type, op);
        if (source == MPI.PROC_NULL) {
            r.startCompleted(new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0, 0));
            return;
        }
        int from = source(c, source, op);
        int t = recvTag(tag, op);
        r.ranks(this::fromHandle);
        try { // as in send: no lambda per message beyond the completion's
            if (type.element != BaseType.OBJECT && type.layout.contiguous && buf instanceof byte[] b) {
                r.start(c.irecv(from, t, ByteBuffer.wrap(b, offset, count * type.layout.size)), s -> status(s, -1));
                return;
            }
            io.cohort.Request inner = c.irecv(from, t);
            r.start(inner, s -> Messages.deliver(this, inner.message(), buf, offset, count, type, op));
        } catch (RuntimeException e) {
            throw Errors.failed(e, op, this);
        }
    }

    // ---- persistent requests ------------------------------------------------------------------

    /** A persistent standard send: each {@link Prequest#Start()} sends the buffer's items as they are then. */
    public Prequest Send_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag)
            throws MPIException {
        return sendInit(buf, offset, count, datatype, dest, tag, "Send_init");
    }

    /** A persistent buffered send (as {@link #Send_init}). */
    public Prequest Bsend_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag)
            throws MPIException {
        return sendInit(buf, offset, count, datatype, dest, tag, "Bsend_init");
    }

    /** A persistent synchronous send (as {@link #Send_init}). */
    public Prequest Ssend_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag)
            throws MPIException {
        return sendInit(buf, offset, count, datatype, dest, tag, "Ssend_init");
    }

    /** A persistent ready send (as {@link #Send_init}). */
    public Prequest Rsend_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag)
            throws MPIException {
        return sendInit(buf, offset, count, datatype, dest, tag, "Rsend_init");
    }

    private Prequest sendInit(Object buf, int offset, int count, Datatype type, int dest, int tag, String op) {
        c(op);
        checkBuffer(buf, offset, count, type, op);
        return new Prequest(r -> startSend(r, buf, offset, count, type, dest, tag, op));
    }

    /** A persistent receive: each {@link Prequest#Start()} posts it again. */
    public Prequest Recv_init(Object buf, int offset, int count, Datatype datatype, int source, int tag)
            throws MPIException {
        c("Recv_init");
        checkBuffer(buf, offset, count, datatype, "Recv_init");
        return new Prequest(r -> startRecv(r, buf, offset, count, datatype, source, tag, "Recv_init"));
    }

    // ---- probes ---------------------------------------------------------------------------------

    /**
     * Waits until a matching message is available, without receiving it. Its status gives the
     * size by {@link Status#Get_count} for primitive types; for {@link MPI#OBJECT} the count is
     * known only once received.
     */
    public Status Probe(int source, int tag) throws MPIException {
        Communicator c = c("Probe");
        if (source == MPI.PROC_NULL) {
            return new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0, 0);
        }
        int from = source(c, source, "Probe");
        int t = recvTag(tag, "Probe");
        return call("Probe", () -> status(c.probe(from, t), -1));
    }

    /** The status of a matching message if one is available now, else null. */
    public Status Iprobe(int source, int tag) throws MPIException {
        Communicator c = c("Iprobe");
        if (source == MPI.PROC_NULL) {
            return new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0, 0);
        }
        int from = source(c, source, "Iprobe");
        int t = recvTag(tag, "Iprobe");
        return call("Iprobe", () -> c.iprobe(from, t).map(x -> status(x, -1)).orElse(null));
    }

    // ---- pack ---------------------------------------------------------------------------------

    /**
     * The bytes {@link #Pack} writes for {@code incount} items of {@code datatype}. Objects have no
     * bound before they are serialized, so this is an error for {@link MPI#OBJECT}.
     */
    public int Pack_size(int incount, Datatype datatype) throws MPIException {
        c("Pack_size");
        checkBuffer(null, 0, 0, datatype, "Pack_size");
        return Messages.packSize(incount, datatype);
    }

    /**
     * Packs {@code incount} items of {@code inbuf[offset]} into {@code outbuf} from byte
     * {@code position}; returns the position after them. Objects are packed as a 4-byte length and
     * their serialized form.
     */
    public int Pack(Object inbuf, int offset, int incount, Datatype datatype, byte[] outbuf, int position)
            throws MPIException {
        c("Pack");
        checkBuffer(inbuf, offset, incount, datatype, "Pack");
        return Messages.pack(inbuf, offset, incount, datatype, outbuf, position);
    }

    /**
     * Unpacks {@code outcount} items into {@code outbuf[offset]} from {@code inbuf} at byte
     * {@code position}; returns the position after them.
     */
    public int Unpack(byte[] inbuf, int position, Object outbuf, int offset, int outcount, Datatype datatype)
            throws MPIException {
        c("Unpack");
        checkBuffer(outbuf, offset, outcount, datatype, "Unpack");
        return Messages.unpack(this, inbuf, position, outbuf, offset, outcount, datatype);
    }

    // ---- inter-communicators ------------------------------------------------------------------

    /**
     * An inter-communicator between the group of {@code local_comm} and a remote group, made on
     * this, the peer communicator, in which the two groups' leaders reach each other (mpiJava
     * defines it on the peer communicator, like a send to the remote leader). {@code local_leader}
     * is a rank in {@code local_comm}, {@code remote_leader} the remote leader's rank in this
     * communicator. Collective over both groups.
     *
     * <p>Cohort makes the new communicator over this peer communicator, so the two groups together
     * must be all of its processes (the usual case: COMM_WORLD split in two); otherwise every
     * process gets the same error.
     */
    public Intercomm Create_intercomm(Comm local_comm, int local_leader, int remote_leader, int tag)
            throws MPIException {
        return Intercomm.create(local_comm, this, local_leader, remote_leader, tag);
    }
}
