package mpi;

import io.cohort.Communicator;
import io.cohort.Message;
import io.cohort.collective.NonblockingRunner;
import io.cohort.mpi.support.InterGroups;
import io.cohort.mpi.support.buffers.Blocks;
import io.cohort.mpi.support.buffers.Operand;

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
 * <p>This class is the communicator: its Cohort communicator, error handler, name and queue of
 * nonblocking collectives, its management (dup, free, compare, attributes) and the argument checks
 * every call shares. Its communication calls are the bindings' public methods here, and their work
 * is done by one package-private class per job: {@link PointToPoint}, {@link Collectives},
 * {@link Reductions}; buffers become what Cohort takes through {@link Buffers}.
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
            throw Errors.handle(MPI.worldErrhandler(), Errors.error(MPI.ERR_COMM,
                    "compare needs two communicators, not null"));
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

    final void checkRoot(Communicator c, int root, String op) throws MPIException {
        if (root < 0 || root >= c.size()) {
            throw error(MPI.ERR_ROOT, op + ": root " + root + " is not in this communicator of " + c.size());
        }
    }

    /**
     * The MPI status of Cohort's {@code s}. Cohort hands a thread's receives the same status object
     * while source, tag and length repeat (every round of a ping-pong), so the last one made is kept
     * and handed out again for it: statuses are immutable, and a steady loop allocates none. The
     * field is a plain one: a racing thread at worst makes its own (final fields publish safely).
     */
    Status status(io.cohort.Status s) {
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
        PointToPoint.send(this, buf, count, type, dest, tag);
    }

    /** Receives at most {@code count} items of {@code type} into {@code buf}. */
    public final Status recv(Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        return PointToPoint.recv(this, buf, count, type, source, tag);
    }

    /** Sends and receives at once (the two buffers must not overlap). */
    public final Status sendRecv(Object sendbuf, int sendcount, Datatype sendtype, int dest, int sendtag,
                                 Object recvbuf, int recvcount, Datatype recvtype, int source, int recvtag)
            throws MPIException {
        return PointToPoint.sendRecv(this, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                source, recvtag);
    }

    /** Sends {@code buf}'s items, then receives into the same buffer. */
    public final Status sendRecvReplace(Object buf, int count, Datatype type, int dest, int sendtag, int source,
                                        int recvtag) throws MPIException {
        return PointToPoint.sendRecvReplace(this, buf, count, type, dest, sendtag, source, recvtag);
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
        return PointToPoint.iSend(this, buf, count, type, dest, tag);
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
        return PointToPoint.iRecv(this, buf, count, type, source, tag);
    }

    // ---- persistent requests --------------------------------------------------------------------

    /** A persistent send: each {@link Prequest#start()} sends {@code buf}'s current items. */
    public final Prequest sendInit(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return PointToPoint.sendInit(this, buf, count, type, dest, tag);
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
        return PointToPoint.recvInit(this, buf, count, type, source, tag);
    }

    // ---- pack -------------------------------------------------------------------------------------

    /** Packs {@code incount} items into {@code outbuf} from {@code position}; returns the position after them. */
    public final int pack(Object inbuf, int incount, Datatype type, byte[] outbuf, int position) throws MPIException {
        return PointToPoint.pack(this, inbuf, incount, type, outbuf, position);
    }

    /** Unpacks {@code outcount} items from {@code inbuf} at {@code position}; returns the position after them. */
    public final int unpack(byte[] inbuf, int position, Object outbuf, int outcount,
            Datatype type) throws MPIException {
        return PointToPoint.unpack(this, inbuf, position, outbuf, outcount, type);
    }

    /** The bytes {@link #pack} writes for {@code incount} items. */
    public final int packSize(int incount, Datatype type) throws MPIException {
        return PointToPoint.packSize(this, incount, type);
    }

    // ---- probes -------------------------------------------------------------------------------------

    /** The status of a matching message if one has arrived, else null; receives nothing. */
    public final Status iProbe(int source, int tag) throws MPIException {
        return PointToPoint.iProbe(this, source, tag);
    }

    /** Waits until a matching message has arrived and returns its status; receives nothing. */
    public final Status probe(int source, int tag) throws MPIException {
        return PointToPoint.probe(this, source, tag);
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

    // ---- barrier and bcast ------------------------------------------------------------------------

    /** Returns when every process of the communicator has called it. */
    public final void barrier() throws MPIException {
        Collectives.barrier(this);
    }

    public final Request iBarrier() throws MPIException {
        return Collectives.iBarrier(this);
    }

    /** The root's {@code count} items into every process's {@code buf}. */
    public final void bcast(Object buf, int count, Datatype type, int root) throws MPIException {
        Collectives.bcast(this, buf, count, type, root);
    }

    public final Request iBcast(Object buf, int count, Datatype type, int root) throws MPIException {
        return Collectives.iBcast(this, buf, count, type, root);
    }

    // ---- gather ------------------------------------------------------------------------------------

    public final void gather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                             Datatype recvtype, int root) throws MPIException {
        Collectives.gather(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
    }

    /** In place: the root's own items are already at root x count in {@code buf}; the others send {@code buf}. */
    public final void gather(Object buf, int count, Datatype type, int root) throws MPIException {
        Collectives.gather(this, buf, count, type, root);
    }

    public final Request iGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                 Datatype recvtype, int root) throws MPIException {
        return Collectives.iGather(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
    }

    public final Request iGather(Object buf, int count, Datatype type, int root) throws MPIException {
        return Collectives.iGather(this, buf, count, type, root);
    }

    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                              int[] displs, Datatype recvtype, int root) throws MPIException {
        Collectives.gatherv(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype, root);
    }

    /** In place, at the root: its own block is already at {@code displs[root]}. */
    public final void gatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        Collectives.gatherv(this, recvbuf, recvcount, displs, recvtype, root);
    }

    /** In place, off the root: sends {@code sendbuf}. */
    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        Collectives.gatherv(this, sendbuf, sendcount, sendtype, root);
    }

    public final Request iGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                                  int[] displs, Datatype recvtype, int root) throws MPIException {
        return Collectives.iGatherv(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype, root);
    }

    public final Request iGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        return Collectives.iGatherv(this, recvbuf, recvcount, displs, recvtype, root);
    }

    public final Request iGatherv(Object sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        return Collectives.iGatherv(this, sendbuf, sendcount, sendtype, root);
    }

    // ---- scatter -----------------------------------------------------------------------------------

    public final void scatter(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                              Datatype recvtype, int root) throws MPIException {
        Collectives.scatter(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
    }

    /** In place: the root sends from {@code buf} and keeps its own block there; the others receive into {@code buf}. */
    public final void scatter(Object buf, int count, Datatype type, int root) throws MPIException {
        Collectives.scatter(this, buf, count, type, root);
    }

    public final Request iScatter(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                  Datatype recvtype, int root) throws MPIException {
        return Collectives.iScatter(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
    }

    public final Request iScatter(Object buf, int count, Datatype type, int root) throws MPIException {
        return Collectives.iScatter(this, buf, count, type, root);
    }

    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Object recvbuf,
                               int recvcount, Datatype recvtype, int root) throws MPIException {
        Collectives.scatterv(this, sendbuf, sendcount, displs, sendtype, recvbuf, recvcount, recvtype, root);
    }

    /** In place, at the root: it keeps its own block. */
    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        Collectives.scatterv(this, sendbuf, sendcount, displs, sendtype, root);
    }

    /** In place, off the root: receives into {@code recvbuf}. */
    public final void scatterv(Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        Collectives.scatterv(this, recvbuf, recvcount, recvtype, root);
    }

    public final Request iScatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Object recvbuf,
                                   int recvcount, Datatype recvtype, int root) throws MPIException {
        return Collectives.iScatterv(this, sendbuf, sendcount, displs, sendtype, recvbuf, recvcount, recvtype, root);
    }

    public final Request iScatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        return Collectives.iScatterv(this, sendbuf, sendcount, displs, sendtype, root);
    }

    public final Request iScatterv(Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        return Collectives.iScatterv(this, recvbuf, recvcount, recvtype, root);
    }

    // ---- allgather ---------------------------------------------------------------------------------

    public final void allGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                Datatype recvtype) throws MPIException {
        Collectives.allGather(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    }

    /** In place: each process's own items are already at rank x count in {@code buf}. */
    public final void allGather(Object buf, int count, Datatype type) throws MPIException {
        Collectives.allGather(this, buf, count, type);
    }

    public final Request iAllGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                    Datatype recvtype) throws MPIException {
        return Collectives.iAllGather(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    }

    public final Request iAllGather(Object buf, int count, Datatype type) throws MPIException {
        return Collectives.iAllGather(this, buf, count, type);
    }

    public final void allGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                                 int[] displs, Datatype recvtype) throws MPIException {
        Collectives.allGatherv(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype);
    }

    /** In place: each process's own block is already at {@code displs[rank]}. */
    public final void allGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        Collectives.allGatherv(this, recvbuf, recvcount, displs, recvtype);
    }

    public final Request iAllGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                                     int[] displs, Datatype recvtype) throws MPIException {
        return Collectives.iAllGatherv(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs, recvtype);
    }

    public final Request iAllGatherv(Object buf, int[] count, int[] displs, Datatype type) throws MPIException {
        return Collectives.iAllGatherv(this, buf, count, displs, type);
    }

    // ---- alltoall ----------------------------------------------------------------------------------

    /** Block r of every process's send buffer ({@code sendcount} items at r x sendcount) to rank r. */
    public final void allToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                               Datatype recvtype) throws MPIException {
        Collectives.allToAll(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    }

    public final Request iAllToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                   Datatype recvtype) throws MPIException {
        return Collectives.iAllToAll(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    }

    public final void allToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Object recvbuf,
                                int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        Collectives.allToAllv(this, sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls, recvtype);
    }

    public final Request iAllToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Object recvbuf,
                                    int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        return Collectives.iAllToAllv(this, sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls,
                recvtype);
    }

    // ---- reductions --------------------------------------------------------------------------------

    /** Combines every process's {@code count} items with {@code op} into the root's receive buffer. */
    public final void reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        Reductions.reduce(this, sendbuf, recvbuf, count, type, op, root);
    }

    /** In place: the root's {@code buf} is its operand and receives the result; the others' is their operand. */
    public final void reduce(Object buf, int count, Datatype type, Op op, int root) throws MPIException {
        Reductions.reduce(this, buf, count, type, op, root);
    }

    public final Request iReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        return Reductions.iReduce(this, sendbuf, recvbuf, count, type, op, root);
    }

    public final Request iReduce(Object buf, int count, Datatype type, Op op, int root) throws MPIException {
        return Reductions.iReduce(this, buf, count, type, op, root);
    }

    /** {@link #reduce} with the result at every process. */
    public final void allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        Reductions.allReduce(this, sendbuf, recvbuf, count, type, op);
    }

    /** In place: {@code buf} is the operand and receives the result. */
    public final void allReduce(Object buf, int count, Datatype type, Op op) throws MPIException {
        Reductions.allReduce(this, buf, count, type, op);
    }

    public final Request iAllReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op)
            throws MPIException {
        return Reductions.iAllReduce(this, sendbuf, recvbuf, count, type, op);
    }

    public final Request iAllReduce(Object buf, int count, Datatype type, Op op) throws MPIException {
        return Reductions.iAllReduce(this, buf, count, type, op);
    }

    /** Reduces {@code sum(recvcounts)} items; rank r receives its {@code recvcounts[r]} of them. */
    public final void reduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        Reductions.reduceScatter(this, sendbuf, recvbuf, recvcounts, type, op);
    }

    /** In place: {@code buf} holds all the operand items and receives this process's block at its start. */
    public final void reduceScatter(Object buf, int[] counts, Datatype type, Op op) throws MPIException {
        Reductions.reduceScatter(this, buf, counts, type, op);
    }

    public final Request iReduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        return Reductions.iReduceScatter(this, sendbuf, recvbuf, recvcounts, type, op);
    }

    public final Request iReduceScatter(Object buf, int[] counts, Datatype type, Op op) throws MPIException {
        return Reductions.iReduceScatter(this, buf, counts, type, op);
    }

    /** {@link #reduceScatter} with {@code recvcount} items for every process. */
    public final void reduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        reduceScatter(sendbuf, recvbuf, Collectives.uniform(recvcount, cc().size()), type, op);
    }

    public final void reduceScatterBlock(Object buf, int count, Datatype type, Op op) throws MPIException {
        reduceScatter(buf, Collectives.uniform(count, cc().size()), type, op);
    }

    public final Request iReduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        return iReduceScatter(sendbuf, recvbuf, Collectives.uniform(recvcount, cc().size()), type, op);
    }

    public final Request iReduceScatterBlock(Object buf, int count, Datatype type, Op op) throws MPIException {
        return iReduceScatter(buf, Collectives.uniform(count, cc().size()), type, op);
    }

    /** {@code inOutBuf[i] = inBuf[i] op inOutBuf[i]} for {@code count} items, locally. */
    public static void reduceLocal(Object inBuf, Object inOutBuf, int count, Datatype type, Op op) throws MPIException {
        Reductions.reduceLocal(inBuf, inOutBuf, count, type, op);
    }
}
