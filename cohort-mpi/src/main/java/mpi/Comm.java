package mpi;

import io.cohort.Communicator;
import io.cohort.Message;
import io.cohort.collective.NonblockingRunner;
import io.cohort.mpi.support.InterGroups;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A communicator ({@code MPI_Comm}) over a Cohort {@link Communicator}: point-to-point, probes,
 * collectives and their nonblocking forms, error handlers. Every buffer argument may be a Java
 * array or an NIO buffer, direct or not, in the blocking and the nonblocking calls alike (the
 * bindings' nonblocking calls took direct buffers only; the parameter types here are
 * {@code Object}, which every program written for {@code Buffer} still compiles against).
 *
 * <p>{@link MPI#COMM_WORLD} and {@link MPI#COMM_SELF} find the calling peer's communicators when
 * used; communicators made by {@code dup}, {@code split} and {@code create} hold their own. A
 * process left out of a split or create gets a communicator whose {@link #isNull()} is true.
 *
 * <p>Errors go to this communicator's error handler: {@link MPI#ERRORS_ARE_FATAL} (the default)
 * ends the job with one line naming the rank and the error, {@link MPI#ERRORS_RETURN} throws an
 * {@link MPIException}.
 *
 * <p>Threads: any thread may call (Cohort's communicators are thread-safe, so
 * {@link MPI#THREAD_MULTIPLE} is provided); collectives of one communicator must be started in
 * the same order on every process, as MPI requires.
 */
public class Comm implements Freeable {
    static final int PLAIN = 0;
    static final int WORLD = 1;
    static final int SELF = 2;

    private final int kind;
    /** A made communicator's Cohort communicator; null once freed or for MPI_COMM_NULL. */
    private volatile Communicator handle;
    private volatile Errhandler errhandler;
    /**
     * Runs this communicator's nonblocking collectives that Cohort has no nonblocking form of
     * (iGather, iScan, ...) as Cohort's blocking ones, in the order the program started them; every
     * blocking collective drains it first, and Cohort's own nonblocking forms are used only while it
     * is idle, so each peer starts the communicator's collectives in its program order.
     */
    private final NonblockingRunner queue;
    /** The name of a queue's thread, before the rank. */
    static final String THREAD_PREFIX = "cohort-mpi-coll-";
    private volatile String name;
    private Request request;
    /** The status {@link #status(io.cohort.Status)} made last (shared by threads: see there). */
    private Status lastStatus;

    /** COMM_WORLD or COMM_SELF: resolved per peer on every call. */
    Comm(int kind) {
        this.kind = kind;
        this.handle = null;
        this.queue = null;
        this.name = kind == WORLD ? "MPI_COMM_WORLD" : "MPI_COMM_SELF";
    }

    /** A communicator made from another; {@code handle} null makes MPI_COMM_NULL. */
    Comm(Communicator handle, Errhandler errhandler) {
        this.kind = PLAIN;
        this.handle = handle;
        this.errhandler = errhandler;
        this.queue = handle == null ? null : new NonblockingRunner(handle.rank(), THREAD_PREFIX);
    }

    // ---- what this communicator is ----------------------------------------------------------

    /** The Cohort communicator, or an error if this is MPI_COMM_NULL or freed. */
    final Communicator c() throws MPIException {
        // The common case in one Peer look-up: every point-to-point call and collective starts here.
        Peer p = Peer.current();
        if (p != null && p.initialized && !p.finalized) {
            Communicator c = resolve(p);
            if (c != null) {
                return c;
            }
        }
        MPI.check();
        Communicator c = resolve();
        if (c == null) {
            throw Errors.handle(MPI.worldErrhandler(), Errors.error(MPI.ERR_COMM,
                    "the communicator is null (freed, or this process was left out of the split or create that made it)"));
        }
        return c;
    }

    private Communicator resolve() {
        return resolve(kind == PLAIN ? null : Peer.current());
    }

    /** This communicator's Cohort communicator for the calling thread's peer {@code p}. */
    private Communicator resolve(Peer p) {
        if (kind == PLAIN) {
            return handle;
        }
        if (p == null) {
            return null;
        }
        return kind == WORLD ? p.world : p.self;
    }

    final NonblockingRunner queue() {
        if (kind == PLAIN) {
            return queue;
        }
        Peer p = Peer.current();
        return kind == WORLD ? p.worldQueue : p.selfQueue;
    }

    final Errhandler errhandler() {
        if (kind == PLAIN) {
            return errhandler;
        }
        Peer p = Peer.current();
        if (p == null) {
            return MPI.ERRORS_ARE_FATAL;
        }
        return kind == WORLD ? p.worldErrhandler : p.selfErrhandler;
    }

    /** Applies the error handler to a failure of {@code operation}: returns the exception to throw, or ends the job. */
    final MPIException fail(Throwable e, String operation) {
        return Errors.handle(errhandler(), Errors.of(e, operation, this::in));
    }

    final MPIException error(int errorClass, String message) {
        return Errors.handle(errhandler(), Errors.error(errorClass, message));
    }

    /**
     * The Cohort communicator for a collective: an inter-communicator refuses them (its Cohort
     * communicator spans both groups, where MPI's inter-communicator collectives pair them).
     */
    final Communicator cc() throws MPIException {
        Communicator c = c();
        if (this instanceof Intercomm) {
            throw error(MPI.ERR_COMM, "collective operations on an inter-communicator are not supported; merge() it"
                    + " into an intra-communicator and run them there");
        }
        return c;
    }

    // Point-to-point ranks: an inter-communicator's name the remote group, which these translate.

    /** The Cohort communicator's rank that point-to-point rank {@code r} names ({@link MPI#ANY_SOURCE} stays). */
    int out(int r) {
        return r;
    }

    /** The point-to-point rank of the Cohort communicator's rank {@code r} (a status's source). */
    int in(int r) {
        return r;
    }

    /** How many processes point-to-point may name. */
    int peers(Communicator c) {
        return c.size();
    }

    /** This process's group: all of the Cohort communicator's here. */
    io.cohort.Group localGroup(Communicator c) {
        return c.group();
    }

    int localRank(Communicator c) {
        return c.rank();
    }

    int localSize(Communicator c) {
        return c.size();
    }

    /** A new communicator over {@code c} (null: MPI_COMM_NULL), inheriting this one's error handler. */
    Intracomm derive(Communicator c) {
        return new Intracomm(c, errhandler());
    }

    public final int getSize() throws MPIException {
        return localSize(c());
    }

    public final int getRank() throws MPIException {
        return localRank(c());
    }

    /** Whether this is MPI_COMM_NULL: freed, or made for a process left out of a split or create. */
    public final boolean isNull() {
        return resolve() == null;
    }

    /** What {@link #dup()} makes of the duplicate {@code c}: a plain one here; a topology keeps its own. */
    Comm duplicate(Communicator c) {
        return derive(c);
    }

    /** A new communicator with the same group and a context of its own. Collective. */
    public Comm dup() throws MPIException {
        Communicator c = c();
        queue().drain();
        try {
            return duplicate(c.dup());
        } catch (RuntimeException e) {
            throw fail(e, "dup");
        }
    }

    /**
     * An inter-communicator between {@code localComm}'s group and another group
     * ({@code MPI_Intercomm_create}), called on the peer communicator by every process of both
     * groups: {@code localLeader} is the local leader's rank in {@code localComm},
     * {@code remoteLeader} the other group's leader's rank in this communicator, {@code tag} the
     * tag the leaders exchange on. This communicator must hold both groups ({@code COMM_WORLD}
     * always does; MPI asks for the two leaders only), and the groups must be disjoint.
     */
    public final Intercomm createIntercomm(Comm localComm, int localLeader, int remoteLeader, int tag)
            throws MPIException {
        Communicator p = c();
        if (this instanceof Intercomm) {
            throw error(MPI.ERR_COMM, "createIntercomm is called on an intra-communicator holding both groups, not on"
                    + " an inter-communicator");
        }
        if (localComm == null || localComm instanceof Intercomm) {
            throw error(MPI.ERR_COMM, "createIntercomm needs the local group's intra-communicator, not "
                    + (localComm == null ? "null" : "an inter-communicator"));
        }
        Communicator l = localComm.c();
        queue().drain();
        try {
            return new Intercomm(InterGroups.create(l, localLeader, p, remoteLeader, tag, "createIntercomm"),
                    errhandler());
        } catch (RuntimeException e) {
            throw fail(e, "createIntercomm");
        }
    }

    /** As {@link #dup()}; Cohort makes it at once, so {@link #getRequest()} is a completed request. */
    public Comm iDup() throws MPIException {
        Comm d = dup();
        d.request = Request.completed(d, Status.empty(MPI.UNDEFINED));
        return d;
    }

    /** The request of a communicator made by {@link #iDup()}, else null. */
    public final Request getRequest() {
        return request;
    }

    @Override
    public Comm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /**
     * {@link MPI#IDENT} for the same communicator, {@link MPI#CONGRUENT} for the same group in the
     * same order, {@link MPI#SIMILAR} for the same members, else {@link MPI#UNEQUAL}.
     */
    public static int compare(Comm comm1, Comm comm2) throws MPIException {
        if (comm1 == null || comm2 == null) {
            MPI.check();
            throw Errors.handle(MPI.worldErrhandler(), Errors.error(MPI.ERR_COMM, "compare needs two communicators, not null"));
        }
        Communicator a = comm1.c();
        Communicator b = comm2.c();
        if (a == b) {
            return MPI.IDENT;
        }
        return switch (a.group().compare(b.group())) {
            case IDENTICAL -> MPI.CONGRUENT;
            case SIMILAR -> MPI.SIMILAR;
            default -> MPI.UNEQUAL;
        };
    }

    /** Frees a communicator made by dup, split or create; the predefined ones cannot be freed. */
    @Override
    public void free() throws MPIException {
        MPI.check();
        if (kind != PLAIN) {
            throw error(MPI.ERR_COMM, "free: " + name + " cannot be freed");
        }
        Communicator c = handle;
        if (c == null) {
            throw error(MPI.ERR_COMM, "free: the communicator is already null");
        }
        handle = null;
        queue.close();
        try {
            c.close();
        } catch (RuntimeException e) {
            throw fail(e, "free");
        }
    }

    /** As {@link #free()}. */
    public final void disconnect() throws MPIException {
        free();
    }

    public final Group getGroup() throws MPIException {
        return new Group(localGroup(c()));
    }

    /** True for an {@link Intercomm}. */
    public final boolean isInter() throws MPIException {
        c();
        return this instanceof Intercomm;
    }

    /** {@link MPI#CART} for a {@link CartComm}, {@link MPI#GRAPH} for a {@link GraphComm}, else {@link MPI#UNDEFINED}. */
    public int getTopology() throws MPIException {
        c();
        return MPI.UNDEFINED;
    }

    /** Ends the whole job with exit status {@code errorcode}. */
    public final void abort(int errorcode) throws MPIException {
        Communicator c = c();
        Errors.abort(c, errorcode);
    }

    public final void setErrhandler(Errhandler errhandler) throws MPIException {
        c();
        if (errhandler == null) {
            throw error(MPI.ERR_ARG, "setErrhandler needs MPI.ERRORS_ARE_FATAL or MPI.ERRORS_RETURN, not null");
        }
        if (kind == PLAIN) {
            this.errhandler = errhandler;
        } else if (kind == WORLD) {
            Peer.current().worldErrhandler = errhandler;
        } else {
            Peer.current().selfErrhandler = errhandler;
        }
    }

    public final Errhandler getErrhandler() throws MPIException {
        c();
        return errhandler();
    }

    /** Raises {@code errorcode} on this communicator, through its error handler. */
    public final void callErrhandler(int errorcode) throws MPIException {
        c();
        throw error(errorcode, "callErrhandler(" + MPI.errorClassName(errorcode) + ")");
    }

    public final void setName(String name) throws MPIException {
        c();
        this.name = name;
    }

    public final String getName() throws MPIException {
        c();
        return name == null ? "" : name;
    }

    /**
     * The predefined attributes: {@link MPI#TAG_UB} (largest tag), {@link MPI#HOST} and
     * {@link MPI#IO} ({@link MPI#PROC_NULL}, {@link MPI#ANY_SOURCE}), {@link MPI#WTIME_IS_GLOBAL}
     * (false), {@link MPI#APPNUM} (0), {@link MPI#UNIVERSE_SIZE} (the world's size); null otherwise.
     */
    public final Object getAttr(int keyval) throws MPIException {
        c();
        if (keyval == MPI.TAG_UB) {
            return Communicator.MAX_TAG;
        } else if (keyval == MPI.HOST) {
            return MPI.PROC_NULL;
        } else if (keyval == MPI.IO) {
            return MPI.ANY_SOURCE;
        } else if (keyval == MPI.WTIME_IS_GLOBAL) {
            return Boolean.FALSE;
        } else if (keyval == MPI.APPNUM) {
            return 0;
        } else if (keyval == MPI.UNIVERSE_SIZE) {
            return Peer.current().world.size();
        } else if (keyval == MPI.LASTUSEDCODE) {
            return MPI.ERR_LASTCODE;
        }
        return null;
    }

    @Override
    public String toString() {
        Communicator c = resolve();
        return (name != null ? name : "Comm") + (c == null ? "[null]" : "[rank " + c.rank() + " of " + c.size() + "]");
    }

    // ---- argument checks ------------------------------------------------------------------------

    final void checkBuffer(Object buf, int count, Datatype type, String what) throws MPIException {
        MPIException e = Buffers.check(buf, count, type, what);
        if (e != null) {
            throw Errors.handle(errhandler(), e);
        }
    }

    /**
     * {@link #checkBuffer(Object, int, Datatype, String)} for the buffer in {@code role} of call
     * {@code op}, whose refusal reads "op: the role ...". No string is made unless the check fails:
     * collectives check every call, and building one each time was most of what allReduce
     * allocated per call.
     */
    final void checkBuffer(Object buf, int count, Datatype type, String op, String role) throws MPIException {
        MPIException e = Buffers.check(buf, count, type, role);
        if (e != null) {
            throw Errors.handle(errhandler(), Errors.error(e.getErrorClass(), op + ": " + e.getMessage()));
        }
    }

    private void checkDest(Communicator c, int dest, String op) throws MPIException {
        int n = peers(c);
        if (dest < 0 || dest >= n) {
            throw error(MPI.ERR_RANK, op + ": destination rank " + dest + " is not in " + whom() + " of "
                    + n + " (ranks 0 to " + (n - 1) + ", or MPI.PROC_NULL)");
        }
    }

    private void checkSource(Communicator c, int source, String op) throws MPIException {
        int n = peers(c);
        if (source != MPI.ANY_SOURCE && (source < 0 || source >= n)) {
            throw error(MPI.ERR_RANK, op + ": source rank " + source + " is not in " + whom() + " of " + n
                    + " (ranks 0 to " + (n - 1) + ", MPI.ANY_SOURCE or MPI.PROC_NULL)");
        }
    }

    /** What point-to-point ranks name, in errors. */
    private String whom() {
        return this instanceof Intercomm ? "the remote group" : "this communicator";
    }

    private void checkSendTag(int tag, String op) throws MPIException {
        if (tag < 0) {
            throw error(MPI.ERR_TAG, op + ": tag " + tag + " is negative; tags are 0 to MPI.TAG_UB (MPI.ANY_TAG is for receives)");
        }
    }

    private void checkRecvTag(int tag, String op) throws MPIException {
        if (tag < 0 && tag != MPI.ANY_TAG) {
            throw error(MPI.ERR_TAG, op + ": tag " + tag + " is negative; receives take 0 to MPI.TAG_UB or MPI.ANY_TAG");
        }
    }

    final void checkRoot(Communicator c, int root, String op) throws MPIException {
        if (root < 0 || root >= c.size()) {
            throw error(MPI.ERR_ROOT, op + ": root " + root + " is not in this communicator of " + c.size());
        }
    }

    private void checkFits(long got, int count, Datatype type, int source, int tag, String op) throws MPIException {
        long room = Buffers.wireBytes(count, type);
        if (got > room) {
            throw error(MPI.ERR_TRUNCATE, op + ": the message of " + got + " bytes from rank " + source + " (tag " + tag
                    + ") does not fit the receive buffer of " + count + " items of " + type + " (" + room + " bytes)");
        }
    }

    /**
     * The MPI status of Cohort's {@code s}. Cohort hands a thread's receives the same status object
     * while source, tag and length repeat (every round of a ping-pong), so the last one made is kept
     * and handed out again for it: statuses are immutable, and a steady loop allocates none. The
     * field is a plain one: a racing thread at worst makes its own (final fields publish safely).
     */
    private Status status(io.cohort.Status s) {
        Status last = lastStatus;
        if (last != null && last.origin == s) {
            return last;
        }
        last = new Status(s, in(s.source()), MPI.UNDEFINED);
        lastStatus = last;
        return last;
    }

    // ---- blocking point-to-point ------------------------------------------------------------

    /** Sends {@code count} items of {@code type} from {@code buf}; returns once {@code buf} may be reused. */
    public final void send(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        Communicator c = c();
        int raw = Buffers.checkedRawBytes(buf, count, type);
        if (raw < 0) {
            checkBuffer(buf, count, type, "send", "send buffer");
        }
        if (dest == MPI.PROC_NULL) {
            return;
        }
        checkDest(c, dest, "send");
        checkSendTag(tag, "send");
        try {
            if (buf instanceof ByteBuffer b && raw >= 0) {
                c.send(out(dest), tag, b, 0, raw);
            } else if (buf instanceof byte[] a && raw >= 0) {
                c.send(out(dest), tag, a, 0, raw);
            } else {
                c.send(out(dest), tag, Buffers.pack(buf, count, type));
            }
        } catch (RuntimeException e) {
            throw fail(e, "send");
        }
    }

    /** Receives at most {@code count} items of {@code type} into {@code buf}. */
    public final Status recv(Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        Communicator c = c();
        int raw = Buffers.checkedRawBytes(buf, count, type);
        if (raw < 0) {
            checkBuffer(buf, count, type, "recv", "receive buffer");
        }
        if (source == MPI.PROC_NULL) {
            return Status.procNull(MPI.UNDEFINED);
        }
        checkSource(c, source, "recv");
        checkRecvTag(tag, "recv");
        if (raw < 0) {
            return receive(c, buf, count, type, source, tag, "recv");
        }
        try { // the checked common case: straight into the buffer's bytes, no view, no copy
            return status(buf instanceof byte[] a ? c.recv(out(source), tag, a, 0, raw)
                    : c.recv(out(source), tag, (ByteBuffer) buf, 0, raw));
        } catch (RuntimeException e) {
            throw fail(e, "recv");
        }
    }

    private Status receive(Communicator c, Object buf, int count, Datatype type, int source, int tag, String op)
            throws MPIException {
        try {
            ByteBuffer raw = Buffers.rawWindow(buf, count, type);
            if (raw != null) {
                return status(c.recv(out(source), tag, raw));
            }
            Message m = c.recv(out(source), tag);
            Buffers.unpack(m.buffer(), buf, count, type); // a longer message leaves the items that fit, as the raw path does
            checkFits(m.length(), count, type, in(m.source()), m.tag(), op);
            return status(m.status());
        } catch (RuntimeException e) {
            throw fail(e, op);
        }
    }

    /** Sends and receives at once (the two buffers must not overlap). */
    public final Status sendRecv(Object sendbuf, int sendcount, Datatype sendtype, int dest, int sendtag,
                                 Object recvbuf, int recvcount, Datatype recvtype, int source, int recvtag)
            throws MPIException {
        Communicator c = c();
        checkBuffer(sendbuf, sendcount, sendtype, "sendRecv", "send buffer");
        checkBuffer(recvbuf, recvcount, recvtype, "sendRecv", "receive buffer");
        return exchange(c, Buffers.pack(sendbuf, sendcount, sendtype), dest, sendtag, recvbuf, recvcount, recvtype,
                source, recvtag, "sendRecv");
    }

    /** Sends {@code buf}'s items, then receives into the same buffer. */
    public final Status sendRecvReplace(Object buf, int count, Datatype type, int dest, int sendtag, int source,
                                        int recvtag) throws MPIException {
        Communicator c = c();
        checkBuffer(buf, count, type, "sendRecvReplace", "buffer");
        ByteBuffer out = Buffers.pack(buf, count, type);
        if (Buffers.rawWindow(buf, count, type) != null) {
            // The wire bytes are the buffer itself, which the receive overwrites: send a copy.
            ByteBuffer copy = ByteBuffer.allocate(out.remaining());
            copy.put(out.duplicate()).flip();
            out = copy;
        }
        return exchange(c, out, dest, sendtag, buf, count, type, source, recvtag, "sendRecvReplace");
    }

    private Status exchange(Communicator c, ByteBuffer payload, int dest, int sendtag, Object recvbuf, int recvcount,
                            Datatype recvtype, int source, int recvtag, String op) throws MPIException {
        if (dest != MPI.PROC_NULL) {
            checkDest(c, dest, op);
            checkSendTag(sendtag, op);
        }
        if (source != MPI.PROC_NULL) {
            checkSource(c, source, op);
            checkRecvTag(recvtag, op);
        }
        io.cohort.Request sent;
        try {
            sent = dest == MPI.PROC_NULL ? null : c.isend(out(dest), sendtag, payload);
        } catch (RuntimeException e) {
            throw fail(e, op);
        }
        Status s = source == MPI.PROC_NULL ? Status.procNull(MPI.UNDEFINED)
                : receive(c, recvbuf, recvcount, recvtype, source, recvtag, op);
        if (sent != null) {
            try {
                sent.await();
            } catch (RuntimeException e) {
                throw fail(e, op);
            }
        }
        return s;
    }

    /** A buffered-mode send; Cohort's sends are always buffered (eager), so this is {@link #send}. */
    public final void bSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        send(buf, count, type, dest, tag);
    }

    /**
     * A synchronous-mode send. Cohort has no rendezvous send: this is {@link #send}, which returns
     * once the buffer may be reused, possibly before the matching receive started.
     */
    public final void sSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        send(buf, count, type, dest, tag);
    }

    /** A ready-mode send: {@link #send}. */
    public final void rSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        send(buf, count, type, dest, tag);
    }

    // ---- nonblocking point-to-point ------------------------------------------------------------

    /** Starts a send; {@code buf} (an array or any NIO buffer) must stay untouched until the request completes. */
    public final Request iSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        Communicator c = c();
        checkBuffer(buf, count, type, "iSend", "send buffer");
        if (dest == MPI.PROC_NULL) {
            return Request.completed(this, Status.procNull(MPI.UNDEFINED));
        }
        checkDest(c, dest, "iSend");
        checkSendTag(tag, "iSend");
        try {
            return new Request(c.isend(out(dest), tag, Buffers.pack(buf, count, type)), this, true, null);
        } catch (RuntimeException e) {
            throw fail(e, "iSend");
        }
    }

    public final Request ibSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return iSend(buf, count, type, dest, tag);
    }

    /** As {@link #sSend}: a standard nonblocking send. */
    public final Request isSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return iSend(buf, count, type, dest, tag);
    }

    public final Request irSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return iSend(buf, count, type, dest, tag);
    }

    /**
     * Starts a receive into {@code buf}. A {@code ByteBuffer} or {@code byte[]} of a contiguous type
     * is filled as the message arrives; any other buffer when a wait or test completes the request.
     */
    public final Request iRecv(Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        Communicator c = c();
        checkBuffer(buf, count, type, "iRecv", "receive buffer");
        if (source == MPI.PROC_NULL) {
            return Request.completed(this, Status.procNull(MPI.UNDEFINED));
        }
        checkSource(c, source, "iRecv");
        checkRecvTag(tag, "iRecv");
        Request r = new Request(null, this, true, null);
        postReceive(c, r, buf, count, type, source, tag);
        return r;
    }

    private void postReceive(Communicator c, Request into, Object buf, int count, Datatype type, int source, int tag)
            throws MPIException {
        try {
            ByteBuffer raw = Buffers.rawWindow(buf, count, type);
            if (raw != null) {
                into.start(c.irecv(out(source), tag, raw), true, null);
                return;
            }
            io.cohort.Request[] inner = new io.cohort.Request[1];
            inner[0] = c.irecv(out(source), tag);
            into.start(inner[0], true, s -> {
                Message m = inner[0].message();
                Buffers.unpack(m.buffer(), buf, count, type); // the items that fit, then the truncation
                checkFits(m.length(), count, type, in(m.source()), m.tag(), "iRecv");
            });
        } catch (RuntimeException e) {
            throw fail(e, "iRecv");
        }
    }

    // ---- persistent requests --------------------------------------------------------------------

    /** A persistent send: each {@link Prequest#start()} sends {@code buf}'s current items. */
    public final Prequest sendInit(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        Communicator c = c();
        checkBuffer(buf, count, type, "sendInit", "send buffer");
        if (dest != MPI.PROC_NULL) {
            checkDest(c, dest, "sendInit");
            checkSendTag(tag, "sendInit");
        }
        return new Prequest(this, p -> {
            if (dest == MPI.PROC_NULL) {
                p.startCompleted(Status.procNull(MPI.UNDEFINED));
                return;
            }
            try {
                p.start(c.isend(out(dest), tag, Buffers.pack(buf, count, type)), true, null);
            } catch (RuntimeException e) {
                throw fail(e, "start");
            }
        });
    }

    public final Prequest bSendInit(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return sendInit(buf, count, type, dest, tag);
    }

    public final Prequest sSendInit(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return sendInit(buf, count, type, dest, tag);
    }

    public final Prequest rSendInit(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return sendInit(buf, count, type, dest, tag);
    }

    /** A persistent receive into {@code buf}. */
    public final Prequest recvInit(Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        Communicator c = c();
        checkBuffer(buf, count, type, "recvInit", "receive buffer");
        if (source != MPI.PROC_NULL) {
            checkSource(c, source, "recvInit");
            checkRecvTag(tag, "recvInit");
        }
        return new Prequest(this, p -> {
            if (source == MPI.PROC_NULL) {
                p.startCompleted(Status.procNull(MPI.UNDEFINED));
            } else {
                postReceive(c, p, buf, count, type, source, tag);
            }
        });
    }

    // ---- pack -------------------------------------------------------------------------------------

    /** Packs {@code incount} items into {@code outbuf} from {@code position}; returns the position after them. */
    public final int pack(Object inbuf, int incount, Datatype type, byte[] outbuf, int position) throws MPIException {
        c();
        checkBuffer(inbuf, incount, type, "pack", "input buffer");
        if (outbuf == null) {
            throw error(MPI.ERR_BUFFER, "pack: the output buffer is null");
        }
        ByteBuffer b = Buffers.pack(inbuf, incount, type);
        if (position < 0 || (long) position + b.remaining() > outbuf.length) {
            throw error(MPI.ERR_TRUNCATE, "pack: " + b.remaining() + " bytes do not fit in " + outbuf.length
                    + " bytes from position " + position);
        }
        b.duplicate().get(outbuf, position, b.remaining());
        return position + b.remaining();
    }

    /** Unpacks {@code outcount} items from {@code inbuf} at {@code position}; returns the position after them. */
    public final int unpack(byte[] inbuf, int position, Object outbuf, int outcount, Datatype type) throws MPIException {
        c();
        checkBuffer(outbuf, outcount, type, "unpack", "output buffer");
        if (inbuf == null) {
            throw error(MPI.ERR_BUFFER, "unpack: the input buffer is null");
        }
        long n = Buffers.wireBytes(outcount, type);
        if (position < 0 || position + n > inbuf.length) {
            throw error(MPI.ERR_TRUNCATE, "unpack: " + outcount + " items need " + n + " bytes but " + inbuf.length
                    + " bytes from position " + position + " hold fewer");
        }
        Buffers.unpack(ByteBuffer.wrap(inbuf, position, (int) n).slice(), outbuf, outcount, type);
        return position + (int) n;
    }

    /** The bytes {@link #pack} writes for {@code incount} items. */
    public final int packSize(int incount, Datatype type) throws MPIException {
        c();
        if (type == null || type.baseType == Datatype.NULL) {
            throw error(MPI.ERR_TYPE, "packSize: the datatype is " + (type == null ? "null" : "MPI.DATATYPE_NULL"));
        }
        if (incount < 0) {
            throw error(MPI.ERR_COUNT, "packSize: the count is negative: " + incount);
        }
        long n = Buffers.wireBytes(incount, type);
        if (n > Integer.MAX_VALUE) {
            throw error(MPI.ERR_COUNT, "packSize: " + incount + " items of " + type + " take " + n
                    + " bytes, more than a Java array holds");
        }
        return (int) n;
    }

    // ---- probes -------------------------------------------------------------------------------------

    /** The status of a matching message if one has arrived, else null; receives nothing. */
    public final Status iProbe(int source, int tag) throws MPIException {
        Communicator c = c();
        if (source == MPI.PROC_NULL) {
            return Status.procNull(MPI.UNDEFINED);
        }
        checkSource(c, source, "iProbe");
        checkRecvTag(tag, "iProbe");
        try {
            Optional<io.cohort.Status> s = c.iprobe(out(source), tag);
            return s.map(this::status).orElse(null);
        } catch (RuntimeException e) {
            throw fail(e, "iProbe");
        }
    }

    /** Waits until a matching message has arrived and returns its status; receives nothing. */
    public final Status probe(int source, int tag) throws MPIException {
        Communicator c = c();
        if (source == MPI.PROC_NULL) {
            return Status.procNull(MPI.UNDEFINED);
        }
        checkSource(c, source, "probe");
        checkRecvTag(tag, "probe");
        try {
            return status(c.probe(out(source), tag));
        } catch (RuntimeException e) {
            throw fail(e, "probe");
        }
    }

    // ---- collectives: running them -------------------------------------------------------------

    /** A collective made ready: its Cohort call, and what to copy back into the program's buffers after it. */
    interface Prepared {
        void run();

        default void store() throws MPIException {
        }
    }

    final void blocking(String op, Prepared p) throws MPIException {
        queue().drain();
        try {
            p.run();
            p.store();
        } catch (MPIException e) {
            throw Errors.handle(errhandler(), e);
        } catch (RuntimeException e) {
            throw fail(e, op);
        }
    }

    /** Starts a nonblocking collective: Cohort's own nonblocking form when one exists and nothing is queued. */
    final Request nonblocking(String op, Prepared p, Supplier<io.cohort.Request> cohortForm) throws MPIException {
        try {
            NonblockingRunner q = queue();
            io.cohort.Request inner = cohortForm != null && q.idle() ? cohortForm.get() : q.submit(p::run);
            return new Request(inner, this, false, s -> p.store());
        } catch (RuntimeException e) {
            throw fail(e, op);
        }
    }

    /** A carrier holding exactly items [first, first + count) of {@code buf}, with their values. */
    private static Object input(Object buf, int first, int count, Datatype t) {
        if (first == 0) {
            Object d = Buffers.direct(buf, count * t.size, t, true);
            if (d != null) {
                return d;
            }
        }
        return Buffers.gather(buf, first, count, t, true);
    }

    /** Where a collective writes {@code count} items for {@code buf}: the buffer itself or a carrier copied back by {@link Out#store}. */
    static final class Out {
        final Object carrier;
        private final Object buf;
        private final int count;
        private final Datatype t;

        Out(Object buf, int count, Datatype t, boolean load) {
            Object d = Buffers.direct(buf, count * t.size, t, false);
            this.carrier = d != null ? d : Buffers.gather(buf, 0, count, t, load);
            this.buf = buf;
            this.count = count;
            this.t = t;
        }

        private Out(Object carrier, Object buf, int count, Datatype t) {
            this.carrier = carrier;
            this.buf = buf;
            this.count = count;
            this.t = t;
        }

        static Out over(Object carrier, Object buf, int count, Datatype t) {
            return new Out(carrier, buf, count, t);
        }

        void store() {
            Buffers.scatter(carrier, buf, 0, count, t);
        }
    }

    /** Blocks of items at displacements (in extents of the type), as a carrier with element counts and displacements. */
    static final class Blocks {
        final Object carrier;
        final int[] counts;
        final int[] displs;
        private final Object buf;
        private final int[] itemCounts;
        private final int[] itemDispls;
        private final Datatype t;

        Blocks(Object buf, int[] itemCounts, int[] itemDispls, Datatype t, boolean load) {
            this.buf = buf;
            this.itemCounts = itemCounts;
            this.itemDispls = itemDispls;
            this.t = t;
            int n = itemCounts.length;
            int span = 0;
            for (int r = 0; r < n; r++) {
                span = Math.max(span, itemDispls[r] + itemCounts[r]);
            }
            this.counts = new int[n];
            this.displs = new int[n];
            Object d = Buffers.direct(buf, span * t.size, t, false);
            for (int r = 0; r < n; r++) {
                counts[r] = itemCounts[r] * t.size;
                displs[r] = itemDispls[r] * t.size; // contiguous types: extent == size; else packed items
            }
            this.carrier = d != null ? d : Buffers.gather(buf, 0, span, t, load);
        }

        /** Copies the blocks {@code which} (all if null) back into the buffer. */
        void store(boolean[] which) {
            for (int r = 0; r < itemCounts.length; r++) {
                if (which == null || which[r]) {
                    Buffers.scatter(carrier, buf, itemDispls[r], itemCounts[r], t);
                }
            }
        }
    }

    static int[] uniform(int count, int n) {
        int[] c = new int[n];
        Arrays.fill(c, count);
        return c;
    }

    static int[] packed(int count, int n) {
        int[] d = new int[n];
        for (int r = 0; r < n; r++) {
            d[r] = r * count;
        }
        return d;
    }

    /** Counts with their displacements, as the v-collectives take them: both required, one per process. */
    private void checkCounts(Communicator c, int[] counts, int[] displs, String op) throws MPIException {
        if (displs == null) {
            throw error(MPI.ERR_ARG, op + " needs one count and one displacement per process (" + c.size()
                    + "), not null displacements");
        }
        checkCountsOnly(c, counts, displs, op);
    }

    /** Counts alone (reduceScatter), or with displacements when {@code displs} is not null. */
    private void checkCountsOnly(Communicator c, int[] counts, int[] displs, String op) throws MPIException {
        if (counts == null || counts.length != c.size() || displs != null && displs.length != c.size()) {
            throw error(MPI.ERR_ARG, op + " needs one count" + (displs != null ? " and one displacement" : "")
                    + " per process (" + c.size() + ")");
        }
        for (int r = 0; r < counts.length; r++) {
            if (counts[r] < 0 || displs != null && displs[r] < 0) {
                throw error(MPI.ERR_COUNT, op + ": the count or displacement of rank " + r + " is negative");
            }
        }
    }

    private void checkBlocks(Object buf, int[] counts, int[] displs, Datatype t, String what) throws MPIException {
        long span = 0;
        for (int r = 0; r < counts.length; r++) {
            span = Math.max(span, (long) displs[r] + counts[r]);
        }
        checkBuffer(buf, (int) Math.min(Integer.MAX_VALUE, span), t, what);
    }

    /** As {@link #checkBlocks}, for blocks received into: they may not overlap (the data would depend on arrival order). */
    private void checkReceiveBlocks(Object buf, int[] counts, int[] displs, Datatype t, String what) throws MPIException {
        checkBlocks(buf, counts, displs, t, what);
        String overlap = io.cohort.mpi.support.ReceiveBlocks.overlap(counts, displs);
        if (overlap != null) {
            throw error(MPI.ERR_ARG, what + ": " + overlap);
        }
    }

    private void sameBase(Datatype a, Datatype b, String op) throws MPIException {
        if (a.baseType != b.baseType) {
            throw error(MPI.ERR_TYPE, op + ": the send type " + a + " and the receive type " + b
                    + " have different base types; they must carry the same elements");
        }
    }

    // ---- barrier and bcast ------------------------------------------------------------------------

    /** Returns when every process of the communicator has called it. */
    public final void barrier() throws MPIException {
        Communicator c = cc();
        // Straight to Cohort, as bcast: nothing to prepare or store, and no Prepared made per call.
        queue().drain();
        try {
            c.barrier();
        } catch (RuntimeException e) {
            throw fail(e, "barrier");
        }
    }

    public final Request iBarrier() throws MPIException {
        Communicator c = cc();
        return nonblocking("iBarrier", c::barrier, c::ibarrier);
    }

    /** The root's {@code count} items into every process's {@code buf}. */
    public final void bcast(Object buf, int count, Datatype type, int root) throws MPIException {
        Communicator c = cc();
        checkRoot(c, root, "bcast");
        checkBuffer(buf, count, type, "bcast", "buffer");
        Object d = Buffers.direct(buf, count * type.size, type, true);
        if (d == null) {
            blocking("bcast", packedBcast(c, buf, count, type, root));
            return;
        }
        // The buffer is the carrier (the common case): no prepared call to make, nothing to store.
        queue().drain();
        try {
            c.bcast(root, d);
        } catch (RuntimeException e) {
            throw fail(e, "bcast");
        }
    }

    public final Request iBcast(Object buf, int count, Datatype type, int root) throws MPIException {
        Communicator c = cc();
        Prepared p = prepareBcast(c, buf, count, type, root);
        Object carrier = ((BcastPrepared) p).carrier;
        return nonblocking("iBcast", p, () -> c.ibcast(root, carrier));
    }

    private record BcastPrepared(Communicator c, int root, Object carrier, Out out) implements Prepared {
        @Override
        public void run() {
            c.bcast(root, carrier);
        }

        @Override
        public void store() {
            if (out != null && c.rank() != root) {
                out.store();
            }
        }
    }

    private Prepared prepareBcast(Communicator c, Object buf, int count, Datatype type, int root) throws MPIException {
        checkRoot(c, root, "bcast");
        checkBuffer(buf, count, type, "bcast", "buffer");
        Object d = Buffers.direct(buf, count * type.size, type, true);
        return d != null ? new BcastPrepared(c, root, d, null) : packedBcast(c, buf, count, type, root);
    }

    /** A bcast through a packed carrier of {@code buf}'s items (loaded at the root), stored back into it after. */
    private static Prepared packedBcast(Communicator c, Object buf, int count, Datatype type, int root) {
        Object carrier = Buffers.gather(buf, 0, count, type, c.rank() == root);
        return new BcastPrepared(c, root, carrier, Out.over(carrier, buf, count, type));
    }

    // ---- gather ------------------------------------------------------------------------------------

    private record GatherPrepared(Communicator c, int root, Object send, Blocks recv) implements Prepared {
        @Override
        public void run() {
            c.gatherv(root, send, recv == null ? null : recv.carrier, recv == null ? null : recv.counts,
                    recv == null ? null : recv.displs);
        }

        @Override
        public void store() {
            if (recv != null) {
                recv.store(null);
            }
        }
    }

    /**
     * Gathers: rank r's send items into the root's receive buffer at r x recvcount items (or at
     * {@code displs[r]} for gatherv). {@code sendbuf} null means in place (the root's own block is
     * already in its receive buffer, which the others' send from).
     */
    private Prepared prepareGather(Communicator c, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                   int[] recvcounts, int[] displs, Datatype recvtype, int root, boolean inPlace, String op)
            throws MPIException {
        checkRoot(c, root, op);
        boolean atRoot = c.rank() == root;
        Blocks recv = null;
        Object send;
        if (atRoot) {
            checkCounts(c, recvcounts, displs, op);
            checkReceiveBlocks(recvbuf, recvcounts, displs, recvtype, op + " receive buffer");
            recv = new Blocks(recvbuf, recvcounts, displs, recvtype, false);
            if (inPlace) {
                send = input(recvbuf, displs[root], recvcounts[root], recvtype);
            } else {
                checkBuffer(sendbuf, sendcount, sendtype, op, "send buffer");
                sameBase(sendtype, recvtype, op);
                send = input(sendbuf, 0, sendcount, sendtype);
            }
        } else {
            checkBuffer(sendbuf, sendcount, sendtype, op, "send buffer");
            send = input(sendbuf, 0, sendcount, sendtype);
        }
        return new GatherPrepared(c, root, send, recv);
    }

    private Prepared gatherPrepared(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                    Datatype recvtype, int root, String op) throws MPIException {
        Communicator c = cc();
        boolean root0 = c.rank() == root;
        return prepareGather(c, sendbuf, sendcount, sendtype, recvbuf, root0 ? uniform(recvcount, c.size()) : null,
                root0 ? packed(recvcount, c.size()) : null, recvtype, root, false, op);
    }

    public final void gather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                             Datatype recvtype, int root) throws MPIException {
        blocking("gather", gatherPrepared(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, "gather"));
    }

    /** In place: the root's own items are already at root x count in {@code buf}; the others send {@code buf}. */
    public final void gather(Object buf, int count, Datatype type, int root) throws MPIException {
        blocking("gather", gatherInPlace(buf, count, type, root));
    }

    private Prepared gatherInPlace(Object buf, int count, Datatype type, int root) throws MPIException {
        Communicator c = cc();
        if (c.rank() == root) {
            return prepareGather(c, null, 0, type, buf, uniform(count, c.size()), packed(count, c.size()), type, root,
                    true, "gather");
        }
        return prepareGather(c, buf, count, type, null, null, null, type, root, false, "gather");
    }

    public final Request iGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                 Datatype recvtype, int root) throws MPIException {
        return nonblocking("iGather", gatherPrepared(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                "iGather"), null);
    }

    public final Request iGather(Object buf, int count, Datatype type, int root) throws MPIException {
        return nonblocking("iGather", gatherInPlace(buf, count, type, root), null);
    }

    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                              int[] displs, Datatype recvtype, int root) throws MPIException {
        Communicator c = cc();
        blocking("gatherv", prepareGather(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype, root,
                false, "gatherv"));
    }

    /** In place, at the root: its own block is already at {@code displs[root]}. */
    public final void gatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        Communicator c = cc();
        blocking("gatherv", prepareGather(c, null, 0, recvtype, recvbuf, recvcount, displs, recvtype, root, true,
                "gatherv"));
    }

    /** In place, off the root: sends {@code sendbuf}. */
    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        Communicator c = cc();
        blocking("gatherv", prepareGather(c, sendbuf, sendcount, sendtype, null, null, null, sendtype, root, false,
                "gatherv"));
    }

    public final Request iGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                                  int[] displs, Datatype recvtype, int root) throws MPIException {
        Communicator c = cc();
        return nonblocking("iGatherv", prepareGather(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs,
                recvtype, root, false, "iGatherv"), null);
    }

    public final Request iGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        Communicator c = cc();
        return nonblocking("iGatherv", prepareGather(c, null, 0, recvtype, recvbuf, recvcount, displs, recvtype, root,
                true, "iGatherv"), null);
    }

    public final Request iGatherv(Object sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        Communicator c = cc();
        return nonblocking("iGatherv", prepareGather(c, sendbuf, sendcount, sendtype, null, null, null, sendtype, root,
                false, "iGatherv"), null);
    }

    // ---- scatter -----------------------------------------------------------------------------------

    private record ScatterPrepared(Communicator c, int root, Blocks send, Out recv, int[] elementCounts)
            implements Prepared {
        @Override
        public void run() {
            c.scatterv(root, send == null ? null : send.carrier, elementCounts, send == null ? null : send.displs,
                    recv.carrier);
        }

        @Override
        public void store() {
            recv.store();
        }
    }

    /**
     * Scatters: the root's block r (r x sendcount items, or {@code displs[r]} for scatterv) into
     * rank r's receive buffer. In place, the root keeps its block where it is.
     */
    private Prepared prepareScatter(Communicator c, Object sendbuf, int[] sendcounts, int[] displs, Datatype sendtype,
                                    Object recvbuf, int recvcount, Datatype recvtype, int root, boolean inPlace,
                                    String op) throws MPIException {
        checkRoot(c, root, op);
        Blocks send = null;
        Out recv;
        int[] elementCounts;
        if (c.rank() == root) {
            checkCounts(c, sendcounts, displs, op);
            checkBlocks(sendbuf, sendcounts, displs, sendtype, op + " send buffer");
            send = new Blocks(sendbuf, sendcounts, displs, sendtype, true);
            elementCounts = send.counts;
            if (inPlace) {
                // The root's own block stays where it is: Cohort copies it into a scratch carrier.
                recv = Out.over(Buffers.newCarrier(sendtype.baseType, sendcounts[root] * sendtype.size), null, 0, sendtype);
            } else {
                checkBuffer(recvbuf, recvcount, recvtype, op, "receive buffer");
                sameBase(sendtype, recvtype, op);
                recv = new Out(recvbuf, recvcount, recvtype, false);
            }
        } else {
            checkBuffer(recvbuf, recvcount, recvtype, op, "receive buffer");
            recv = new Out(recvbuf, recvcount, recvtype, false);
            elementCounts = new int[c.size()];
            elementCounts[c.rank()] = recvcount * recvtype.size;
        }
        return new ScatterPrepared(c, root, send, recv, elementCounts);
    }

    private Prepared scatterPrepared(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                     Datatype recvtype, int root, boolean inPlace, String op) throws MPIException {
        Communicator c = cc();
        return prepareScatter(c, sendbuf, uniform(sendcount, c.size()), packed(sendcount, c.size()), sendtype, recvbuf,
                recvcount, recvtype, root, inPlace, op);
    }

    public final void scatter(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                              Datatype recvtype, int root) throws MPIException {
        blocking("scatter", scatterPrepared(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, false,
                "scatter"));
    }

    /** In place: the root sends from {@code buf} and keeps its own block there; the others receive into {@code buf}. */
    public final void scatter(Object buf, int count, Datatype type, int root) throws MPIException {
        blocking("scatter", scatterPrepared(buf, count, type, buf, count, type, root, true, "scatter"));
    }

    public final Request iScatter(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                  Datatype recvtype, int root) throws MPIException {
        return nonblocking("iScatter", scatterPrepared(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                false, "iScatter"), null);
    }

    public final Request iScatter(Object buf, int count, Datatype type, int root) throws MPIException {
        return nonblocking("iScatter", scatterPrepared(buf, count, type, buf, count, type, root, true, "iScatter"),
                null);
    }

    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Object recvbuf,
                               int recvcount, Datatype recvtype, int root) throws MPIException {
        blocking("scatterv", prepareScatter(cc(), sendbuf, sendcount, displs, sendtype, recvbuf, recvcount, recvtype,
                root, false, "scatterv"));
    }

    /** In place, at the root: it keeps its own block. */
    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        blocking("scatterv", prepareScatter(cc(), sendbuf, sendcount, displs, sendtype, null, 0, sendtype, root, true,
                "scatterv"));
    }

    /** In place, off the root: receives into {@code recvbuf}. */
    public final void scatterv(Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        blocking("scatterv", prepareScatter(cc(), null, null, null, recvtype, recvbuf, recvcount, recvtype, root, false,
                "scatterv"));
    }

    public final Request iScatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Object recvbuf,
                                   int recvcount, Datatype recvtype, int root) throws MPIException {
        return nonblocking("iScatterv", prepareScatter(cc(), sendbuf, sendcount, displs, sendtype, recvbuf, recvcount,
                recvtype, root, false, "iScatterv"), null);
    }

    public final Request iScatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        return nonblocking("iScatterv", prepareScatter(cc(), sendbuf, sendcount, displs, sendtype, null, 0, sendtype,
                root, true, "iScatterv"), null);
    }

    public final Request iScatterv(Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        return nonblocking("iScatterv", prepareScatter(cc(), null, null, null, recvtype, recvbuf, recvcount, recvtype,
                root, false, "iScatterv"), null);
    }

    // ---- allgather ---------------------------------------------------------------------------------

    private record AllgatherPrepared(Communicator c, Object send, Blocks recv) implements Prepared {
        @Override
        public void run() {
            c.allgatherv(send, recv.carrier, recv.counts, recv.displs);
        }

        @Override
        public void store() {
            recv.store(null);
        }
    }

    private Prepared prepareAllgather(Communicator c, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                      int[] recvcounts, int[] displs, Datatype recvtype, boolean inPlace, String op)
            throws MPIException {
        checkCounts(c, recvcounts, displs, op);
        checkReceiveBlocks(recvbuf, recvcounts, displs, recvtype, op + " receive buffer");
        Object send;
        if (inPlace) {
            send = input(recvbuf, displs[c.rank()], recvcounts[c.rank()], recvtype);
        } else {
            checkBuffer(sendbuf, sendcount, sendtype, op, "send buffer");
            sameBase(sendtype, recvtype, op);
            send = input(sendbuf, 0, sendcount, sendtype);
        }
        return new AllgatherPrepared(c, send, new Blocks(recvbuf, recvcounts, displs, recvtype, false));
    }

    public final void allGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                Datatype recvtype) throws MPIException {
        Communicator c = cc();
        blocking("allGather", prepareAllgather(c, sendbuf, sendcount, sendtype, recvbuf, uniform(recvcount, c.size()),
                packed(recvcount, c.size()), recvtype, false, "allGather"));
    }

    /** In place: each process's own items are already at rank x count in {@code buf}. */
    public final void allGather(Object buf, int count, Datatype type) throws MPIException {
        Communicator c = cc();
        blocking("allGather", prepareAllgather(c, null, 0, type, buf, uniform(count, c.size()), packed(count, c.size()),
                type, true, "allGather"));
    }

    public final Request iAllGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                    Datatype recvtype) throws MPIException {
        Communicator c = cc();
        return nonblocking("iAllGather", prepareAllgather(c, sendbuf, sendcount, sendtype, recvbuf,
                uniform(recvcount, c.size()), packed(recvcount, c.size()), recvtype, false, "iAllGather"), null);
    }

    public final Request iAllGather(Object buf, int count, Datatype type) throws MPIException {
        Communicator c = cc();
        return nonblocking("iAllGather", prepareAllgather(c, null, 0, type, buf, uniform(count, c.size()),
                packed(count, c.size()), type, true, "iAllGather"), null);
    }

    public final void allGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                                 int[] displs, Datatype recvtype) throws MPIException {
        blocking("allGatherv", prepareAllgather(cc(), sendbuf, sendcount, sendtype, recvbuf, recvcount, displs,
                recvtype, false, "allGatherv"));
    }

    /** In place: each process's own block is already at {@code displs[rank]}. */
    public final void allGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        blocking("allGatherv", prepareAllgather(cc(), null, 0, recvtype, recvbuf, recvcount, displs, recvtype, true,
                "allGatherv"));
    }

    public final Request iAllGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                                     int[] displs, Datatype recvtype) throws MPIException {
        return nonblocking("iAllGatherv", prepareAllgather(cc(), sendbuf, sendcount, sendtype, recvbuf, recvcount,
                displs, recvtype, false, "iAllGatherv"), null);
    }

    public final Request iAllGatherv(Object buf, int[] count, int[] displs, Datatype type) throws MPIException {
        return nonblocking("iAllGatherv", prepareAllgather(cc(), null, 0, type, buf, count, displs, type, true,
                "iAllGatherv"), null);
    }

    // ---- alltoall ----------------------------------------------------------------------------------

    private record AlltoallPrepared(Communicator c, Blocks send, Blocks recv) implements Prepared {
        @Override
        public void run() {
            c.alltoallv(send.carrier, send.counts, send.displs, recv.carrier, recv.counts, recv.displs);
        }

        @Override
        public void store() {
            recv.store(null);
        }
    }

    private Prepared prepareAlltoall(Communicator c, Object sendbuf, int[] sendcounts, int[] sdispls, Datatype sendtype,
                                     Object recvbuf, int[] recvcounts, int[] rdispls, Datatype recvtype, String op)
            throws MPIException {
        checkCounts(c, sendcounts, sdispls, op);
        checkCounts(c, recvcounts, rdispls, op);
        checkBlocks(sendbuf, sendcounts, sdispls, sendtype, op + " send buffer");
        checkReceiveBlocks(recvbuf, recvcounts, rdispls, recvtype, op + " receive buffer");
        sameBase(sendtype, recvtype, op);
        return new AlltoallPrepared(c, new Blocks(sendbuf, sendcounts, sdispls, sendtype, true),
                new Blocks(recvbuf, recvcounts, rdispls, recvtype, false));
    }

    /** Block r of every process's send buffer ({@code sendcount} items at r x sendcount) to rank r. */
    public final void allToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                               Datatype recvtype) throws MPIException {
        Communicator c = cc();
        int n = c.size();
        blocking("allToAll", prepareAlltoall(c, sendbuf, uniform(sendcount, n), packed(sendcount, n), sendtype, recvbuf,
                uniform(recvcount, n), packed(recvcount, n), recvtype, "allToAll"));
    }

    public final Request iAllToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                   Datatype recvtype) throws MPIException {
        Communicator c = cc();
        int n = c.size();
        return nonblocking("iAllToAll", prepareAlltoall(c, sendbuf, uniform(sendcount, n), packed(sendcount, n),
                sendtype, recvbuf, uniform(recvcount, n), packed(recvcount, n), recvtype, "iAllToAll"), null);
    }

    public final void allToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Object recvbuf,
                                int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        blocking("allToAllv", prepareAlltoall(cc(), sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls,
                recvtype, "allToAllv"));
    }

    public final Request iAllToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Object recvbuf,
                                    int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        return nonblocking("iAllToAllv", prepareAlltoall(cc(), sendbuf, sendcount, sdispls, sendtype, recvbuf,
                recvcount, rdispls, recvtype, "iAllToAllv"), null);
    }

    // ---- reductions --------------------------------------------------------------------------------

    /** The Cohort op for {@code type}, checked against its elements before anything is sent. */
    final io.cohort.Op cohortOp(Op op, Datatype type, int count, String what) throws MPIException {
        if (op != null && op.predefined != null && !op.isNull() && type != null && type.baseType != Datatype.NULL
                && type.pair == Datatype.NULL && op.knownToApply(type.baseType) && !op.isMinMaxLoc()) {
            // The common case, small enough for the JIT to inline into every reduction.
            return op.predefined;
        }
        return checkedOp(op, type, count, what);
    }

    /** {@link #cohortOp} past its common case: user ops, pair types, first uses, and every refusal. */
    private io.cohort.Op checkedOp(Op op, Datatype type, int count, String what) throws MPIException {
        if (op == null || op.isNull()) {
            throw error(MPI.ERR_OP, what + " needs an op, not " + (op == null ? "null" : "a freed one"));
        }
        if (op.predefined == null && !op.hasFunction()) {
            throw error(MPI.ERR_OP, what + ": the user op has no function (it was made with null)");
        }
        if (type == null || type.baseType == Datatype.NULL) {
            throw error(MPI.ERR_TYPE, what + ": the datatype is " + (type == null ? "null" : "MPI.DATATYPE_NULL"));
        }
        if (op.isMinMaxLoc() && type.pair == Datatype.NULL) {
            throw error(MPI.ERR_OP, what + ": " + op + " takes a pair type (MPI.INT2, MPI.SHORT_INT, MPI.LONG_INT,"
                    + " MPI.FLOAT_INT or MPI.DOUBLE_INT), not " + type);
        }
        if (op.predefined != null && !op.isMinMaxLoc() && type.pair != Datatype.NULL) {
            throw error(MPI.ERR_OP, what + ": " + op + " does not apply to the pair type " + type
                    + "; pair types are for MPI.MINLOC and MPI.MAXLOC");
        }
        io.cohort.Op c = op.toCohort(type);
        if (op.predefined != null) {
            boolean pairs = op.isMinMaxLoc();
            if (pairs || !op.knownToApply(type.baseType)) {
                Object probe = pairs ? Pairs.newArray(type.pair, 0) : io.cohort.mpi.support.BaseType.empty(type.baseType);
                try {
                    c.check(probe, pairs ? Pairs.elements(type, count) : count * type.size);
                } catch (IllegalArgumentException e) {
                    throw error(MPI.ERR_OP, what + ": " + op + " does not apply to " + type);
                }
                if (!pairs) {
                    op.appliesTo(type.baseType); // whether a plain op applies depends on the base type alone
                }
            }
        }
        return c;
    }

    /**
     * The operands of a reduction: a carrier of the send items and one for the result, as the
     * Cohort op wants them (for MINLOC and MAXLOC, the pair types as interleaved value and index
     * arrays). In place, send and result are one carrier.
     */
    static final class Operands {
        final Object send;
        final Object recv;
        private final Out out;
        private final Datatype type;
        private final int count;
        private final boolean pairs;

        /** {@code recvbuf} null: no result at this process. */
        Operands(Object sendbuf, Object recvbuf, int count, int resultCount, Datatype type, Op op, boolean inPlace) {
            this.type = type;
            this.count = resultCount;
            this.pairs = op.isMinMaxLoc();
            Object s = input(sendbuf, 0, count, type);
            if (recvbuf == null) {
                this.out = null;
                this.recv = null;
                this.send = pairs ? Pairs.toPairs(s, type, count) : s;
            } else if (pairs) {
                this.send = Pairs.toPairs(s, type, count);
                this.out = new Out(recvbuf, resultCount, type, false);
                this.recv = Pairs.newArray(type.pair, Pairs.elements(type, resultCount));
            } else if (inPlace) {
                this.send = s;
                this.recv = s;
                this.out = Out.over(s, recvbuf, resultCount, type);
            } else {
                this.send = s;
                this.out = new Out(recvbuf, resultCount, type, false);
                this.recv = out.carrier;
            }
        }

        void store() {
            if (out == null) {
                return;
            }
            if (pairs) {
                Pairs.fromPairs(recv, out.carrier, type, count);
            }
            out.store();
        }
    }

    private record ReducePrepared(Communicator c, int root, Operands x, io.cohort.Op op) implements Prepared {
        @Override
        public void run() {
            c.reduce(root, x.send, c.rank() == root ? x.recv : null, op);
        }

        @Override
        public void store() {
            if (c.rank() == root) {
                x.store();
            }
        }
    }

    private Prepared prepareReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root,
                                   boolean inPlace, String name) throws MPIException {
        Communicator c = cc();
        checkRoot(c, root, name);
        io.cohort.Op cop = cohortOp(op, type, count, name);
        boolean atRoot = c.rank() == root;
        checkBuffer(sendbuf, count, type, name, "send buffer");
        if (atRoot) {
            checkBuffer(recvbuf, count, type, name, "receive buffer");
        }
        return new ReducePrepared(c, root, new Operands(sendbuf, atRoot ? recvbuf : null, count, count, type, op,
                inPlace), cop);
    }

    /** Combines every process's {@code count} items with {@code op} into the root's receive buffer. */
    public final void reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        reduce(sendbuf, recvbuf, count, type, op, root, false);
    }

    /** In place: the root's {@code buf} is its operand and receives the result; the others' is their operand. */
    public final void reduce(Object buf, int count, Datatype type, Op op, int root) throws MPIException {
        reduce(buf, buf, count, type, op, root, true);
    }

    private void reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root, boolean inPlace)
            throws MPIException {
        Communicator c = cc();
        checkRoot(c, root, "reduce");
        io.cohort.Op cop = cohortOp(op, type, count, "reduce");
        boolean atRoot = c.rank() == root;
        checkBuffer(sendbuf, count, type, "reduce", "send buffer");
        if (atRoot) {
            checkBuffer(recvbuf, count, type, "reduce", "receive buffer");
        }
        if (!op.isMinMaxLoc()) {
            // As allReduce: buffers that are Cohort's carriers go straight to Cohort. Only the root
            // has a receive buffer; the others pass none.
            int elements = count * type.size;
            Object send = Buffers.direct(sendbuf, elements, type, true);
            Object recv = send == null || !atRoot ? null
                    : inPlace ? send : Buffers.direct(recvbuf, elements, type, false);
            if (send != null && (recv != null || !atRoot)) {
                queue().drain();
                try {
                    c.reduce(root, send, recv, cop);
                } catch (RuntimeException e) {
                    throw fail(e, "reduce");
                }
                return;
            }
        }
        blocking("reduce", new ReducePrepared(c, root, new Operands(sendbuf, atRoot ? recvbuf : null, count, count,
                type, op, inPlace), cop));
    }

    public final Request iReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        return nonblocking("iReduce", prepareReduce(sendbuf, recvbuf, count, type, op, root, false, "iReduce"), null);
    }

    public final Request iReduce(Object buf, int count, Datatype type, Op op, int root) throws MPIException {
        return nonblocking("iReduce", prepareReduce(buf, buf, count, type, op, root, true, "iReduce"), null);
    }

    private record AllreducePrepared(Communicator c, Operands x, io.cohort.Op op) implements Prepared {
        @Override
        public void run() {
            c.allreduce(x.send, x.recv, op);
        }

        @Override
        public void store() {
            x.store();
        }
    }

    private Prepared prepareAllreduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, boolean inPlace,
                                      String name) throws MPIException {
        Communicator c = cc();
        io.cohort.Op cop = cohortOp(op, type, count, name);
        checkBuffer(sendbuf, count, type, name, "send buffer");
        checkBuffer(recvbuf, count, type, name, "receive buffer");
        return new AllreducePrepared(c, new Operands(sendbuf, recvbuf, count, count, type, op, inPlace), cop);
    }

    /** {@link #reduce} with the result at every process. */
    public final void allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        allReduce(sendbuf, recvbuf, count, type, op, false);
    }

    /** In place: {@code buf} is the operand and receives the result. */
    public final void allReduce(Object buf, int count, Datatype type, Op op) throws MPIException {
        allReduce(buf, buf, count, type, op, true);
    }

    private void allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, boolean inPlace)
            throws MPIException {
        Communicator c = cc();
        io.cohort.Op cop = cohortOp(op, type, count, "allReduce");
        checkBuffer(sendbuf, count, type, "allReduce", "send buffer");
        checkBuffer(recvbuf, count, type, "allReduce", "receive buffer");
        if (!op.isMinMaxLoc()) {
            // Both buffers Cohort's carriers (the common case): nothing to pack, prepare or store,
            // as Operands would find; saves its three objects a call.
            int elements = count * type.size;
            Object send = Buffers.direct(sendbuf, elements, type, true);
            Object recv = send == null ? null : inPlace ? send : Buffers.direct(recvbuf, elements, type, false);
            if (recv != null) {
                queue().drain();
                try {
                    c.allreduce(send, recv, cop);
                } catch (RuntimeException e) {
                    throw fail(e, "allReduce");
                }
                return;
            }
        }
        blocking("allReduce", new AllreducePrepared(c, new Operands(sendbuf, recvbuf, count, count, type, op, inPlace),
                cop));
    }

    public final Request iAllReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op)
            throws MPIException {
        Communicator c = cc();
        AllreducePrepared p = (AllreducePrepared) prepareAllreduce(sendbuf, recvbuf, count, type, op, false,
                "iAllReduce");
        return nonblocking("iAllReduce", p, () -> c.iallreduce(p.x.send, p.x.recv, p.op));
    }

    public final Request iAllReduce(Object buf, int count, Datatype type, Op op) throws MPIException {
        Communicator c = cc();
        AllreducePrepared p = (AllreducePrepared) prepareAllreduce(buf, buf, count, type, op, true, "iAllReduce");
        return nonblocking("iAllReduce", p, () -> c.iallreduce(p.x.send, p.x.recv, p.op));
    }

    private record ReduceScatterPrepared(Communicator c, Operands x, int[] counts, io.cohort.Op op)
            implements Prepared {
        @Override
        public void run() {
            c.reduceScatter(x.send, x.recv, counts, op);
        }

        @Override
        public void store() {
            x.store();
        }
    }

    private Prepared prepareReduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op,
                                          boolean inPlace, String name) throws MPIException {
        Communicator c = cc();
        checkCountsOnly(c, recvcounts, null, name);
        int total = 0;
        for (int n : recvcounts) {
            total += n;
        }
        io.cohort.Op cop = cohortOp(op, type, total, name);
        checkBuffer(sendbuf, total, type, name, "send buffer");
        checkBuffer(recvbuf, recvcounts[c.rank()], type, name, "receive buffer");
        int[] elements = new int[recvcounts.length];
        for (int r = 0; r < elements.length; r++) {
            elements[r] = op.isMinMaxLoc() ? Pairs.elements(type, recvcounts[r]) : recvcounts[r] * type.size;
        }
        Operands x = new Operands(sendbuf, recvbuf, total, recvcounts[c.rank()], type, op, inPlace);
        return new ReduceScatterPrepared(c, x, elements, cop);
    }

    /** Reduces {@code sum(recvcounts)} items; rank r receives its {@code recvcounts[r]} of them. */
    public final void reduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        blocking("reduceScatter", prepareReduceScatter(sendbuf, recvbuf, recvcounts, type, op, false, "reduceScatter"));
    }

    /** In place: {@code buf} holds all the operand items and receives this process's block at its start. */
    public final void reduceScatter(Object buf, int[] counts, Datatype type, Op op) throws MPIException {
        blocking("reduceScatter", prepareReduceScatter(buf, buf, counts, type, op, true, "reduceScatter"));
    }

    public final Request iReduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        return nonblocking("iReduceScatter", prepareReduceScatter(sendbuf, recvbuf, recvcounts, type, op, false,
                "iReduceScatter"), null);
    }

    public final Request iReduceScatter(Object buf, int[] counts, Datatype type, Op op) throws MPIException {
        return nonblocking("iReduceScatter", prepareReduceScatter(buf, buf, counts, type, op, true, "iReduceScatter"),
                null);
    }

    /** {@link #reduceScatter} with {@code recvcount} items for every process. */
    public final void reduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        reduceScatter(sendbuf, recvbuf, uniform(recvcount, cc().size()), type, op);
    }

    public final void reduceScatterBlock(Object buf, int count, Datatype type, Op op) throws MPIException {
        reduceScatter(buf, uniform(count, cc().size()), type, op);
    }

    public final Request iReduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        return iReduceScatter(sendbuf, recvbuf, uniform(recvcount, cc().size()), type, op);
    }

    public final Request iReduceScatterBlock(Object buf, int count, Datatype type, Op op) throws MPIException {
        return iReduceScatter(buf, uniform(count, cc().size()), type, op);
    }

    /** {@code inOutBuf[i] = inBuf[i] op inOutBuf[i]} for {@code count} items, locally. */
    public static void reduceLocal(Object inBuf, Object inOutBuf, int count, Datatype type, Op op) throws MPIException {
        MPI.check();
        Comm world = MPI.COMM_WORLD;
        io.cohort.Op cop = world.cohortOp(op, type, count, "reduceLocal");
        world.checkBuffer(inBuf, count, type, "reduceLocal", "input buffer");
        world.checkBuffer(inOutBuf, count, type, "reduceLocal", "in-out buffer");
        boolean pairs = op.isMinMaxLoc();
        Object in = array(input(inBuf, 0, count, type));
        Out out = new Out(inOutBuf, count, type, true);
        Object io = array(out.carrier);
        try {
            if (pairs) {
                Object a = Pairs.toPairs(in, type, count);
                Object b = Pairs.toPairs(io, type, count);
                cop.apply(a, b, Pairs.elements(type, count));
                Pairs.fromPairs(b, io, type, count);
            } else {
                cop.apply(in, io, count * type.size);
            }
        } catch (RuntimeException e) {
            throw world.fail(e, "reduceLocal");
        }
        if (io != out.carrier) {
            ((ByteBuffer) out.carrier).duplicate().put((byte[]) io);
        }
        out.store();
    }

    /** A carrier as an array: a ByteBuffer window copied into a byte[]. */
    private static Object array(Object carrier) {
        if (carrier instanceof ByteBuffer b) {
            byte[] a = new byte[b.remaining()];
            b.duplicate().get(a);
            return a;
        }
        return carrier;
    }
}
