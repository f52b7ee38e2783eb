package mpi;

import io.cohort.Communicator;

import java.net.InetAddress;
import java.nio.ByteBuffer;

/**
 * The MPI environment of mpiJava 1.2 as MPJ Express has it: {@link #Init}, {@link #Finalize}, the
 * predefined communicators, datatypes, operations and constants, timers, the attached buffer.
 * The fields are MPJ Express's, with its values (most are non-final static fields there too).
 *
 * <p>{@link #Init} attaches to the job Cohort's launcher set up ({@code io.cohort.Cohort.init()}):
 * under {@code cohort run -n N -cp cohort-mpj.jar:. Program} every peer is one process of
 * {@link #COMM_WORLD}, with Cohort's rank; run as plain {@code java} it is a world of one.
 *
 * <p>Threads: Cohort's communicators may be used from any thread.
 */
public class MPI {
    /** As in MPJ Express. */
    public static final boolean DEBUG = true;
    /** MPJ Express's flag for its own collective algorithms; Cohort ignores it. */
    public static boolean isOldSelected = false;
    /** The processors of this machine. */
    public static final int NUM_OF_PROCESSORS = Runtime.getRuntime().availableProcessors();

    public static int UNDEFINED = -1;

    // ---- datatypes: MPJ Express's base type numbers --------------------------------------------
    public static Datatype NULL = Datatype.basic(Datatype.NULL_TYPE, "MPI.NULL");
    public static Datatype BYTE = Datatype.basic(Datatype.BYTE_TYPE, "MPI.BYTE");
    public static Datatype CHAR = Datatype.basic(Datatype.CHAR_TYPE, "MPI.CHAR");
    public static Datatype SHORT = Datatype.basic(Datatype.SHORT_TYPE, "MPI.SHORT");
    public static Datatype BOOLEAN = Datatype.basic(Datatype.BOOLEAN_TYPE, "MPI.BOOLEAN");
    public static Datatype INT = Datatype.basic(Datatype.INT_TYPE, "MPI.INT");
    public static Datatype LONG = Datatype.basic(Datatype.LONG_TYPE, "MPI.LONG");
    public static Datatype FLOAT = Datatype.basic(Datatype.FLOAT_TYPE, "MPI.FLOAT");
    public static Datatype DOUBLE = Datatype.basic(Datatype.DOUBLE_TYPE, "MPI.DOUBLE");
    /** The bytes {@link Comm#Pack} writes, in a {@code byte[]}. */
    public static Datatype PACKED = Datatype.basic(Datatype.PACKED_TYPE, "MPI.PACKED");
    /** A marker for {@link Datatype#Struct}: sets the lower bound at its displacement. */
    public static Datatype LB = Datatype.marker(Datatype.LB_TYPE, "MPI.LB");
    /** A marker for {@link Datatype#Struct}: sets the upper bound at its displacement. */
    public static Datatype UB = Datatype.marker(Datatype.UB_TYPE, "MPI.UB");
    /** Serializable objects in an {@code Object[]}, sent by Java serialization. */
    public static Datatype OBJECT = Datatype.basic(Datatype.OBJECT_TYPE, "MPI.OBJECT");

    public static int THREAD_SINGLE = 1;
    public static int THREAD_FUNNELED = 2;
    public static int THREAD_SERIALIZED = 3;
    public static int THREAD_MULTIPLE = 4;

    /** (value, index) pairs for MINLOC and MAXLOC, both in the array's type: {@code short[]} ... {@code double[]}. */
    public static Datatype SHORT2 = Datatype.pair(SHORT, "MPI.SHORT2");
    public static Datatype INT2 = Datatype.pair(INT, "MPI.INT2");
    public static Datatype LONG2 = Datatype.pair(LONG, "MPI.LONG2");
    public static Datatype FLOAT2 = Datatype.pair(FLOAT, "MPI.FLOAT2");
    public static Datatype DOUBLE2 = Datatype.pair(DOUBLE, "MPI.DOUBLE2");

    // ---- operations ----------------------------------------------------------------------------
    public static Op MAX = Op.predefined(io.cohort.Op.MAX, "MPI.MAX");
    public static Op MIN = Op.predefined(io.cohort.Op.MIN, "MPI.MIN");
    public static Op SUM = Op.predefined(io.cohort.Op.SUM, "MPI.SUM");
    public static Op PROD = Op.predefined(io.cohort.Op.PROD, "MPI.PROD");
    public static Op LAND = Op.predefined(io.cohort.Op.LAND, "MPI.LAND");
    public static Op BAND = Op.predefined(io.cohort.Op.BAND, "MPI.BAND");
    public static Op LOR = Op.predefined(io.cohort.Op.LOR, "MPI.LOR");
    public static Op BOR = Op.predefined(io.cohort.Op.BOR, "MPI.BOR");
    public static Op LXOR = Op.predefined(io.cohort.Op.LXOR, "MPI.LXOR");
    public static Op BXOR = Op.predefined(io.cohort.Op.BXOR, "MPI.BXOR");
    /** The largest value with its index (the smaller index on ties), over the pair types. */
    public static Op MAXLOC = Op.predefined(io.cohort.Op.MAXLOC, "MPI.MAXLOC");
    /** The smallest value with its index (the smaller index on ties), over the pair types. */
    public static Op MINLOC = Op.predefined(io.cohort.Op.MINLOC, "MPI.MINLOC");

    // ---- wildcards and other constants (MPJ Express's values) -----------------------------------
    public static int ANY_SOURCE = -2;
    public static int ANY_TAG = -2;
    public static int PROC_NULL = -3;
    /** A status with no message in it. */
    public static Status EMPTY_STATUS = new Status(-2, -2, -1);
    /** Cohort's sends never need the attached buffer, so no overhead is charged to it. */
    public static int BSEND_OVERHEAD = 0;
    public static int SEND_OVERHEAD = 0;
    public static int RECV_OVERHEAD = 0;

    public static final int IDENT = 0;
    public static final int CONGRUENT = 3;
    public static final int SIMILAR = 1;
    public static final int UNEQUAL = 2;
    public static int GRAPH = 1;
    public static int CART = 2;

    // ---- error handlers --------------------------------------------------------------------------
    /** The default: an error prints one line and ends the process. */
    public static Errhandler ERRORS_ARE_FATAL = new Errhandler(true);
    /** An error throws an {@link MPIException} to the caller. */
    public static Errhandler ERRORS_RETURN = new Errhandler(false);

    /** Attribute keys for {@link Comm#Attr_get}. */
    public static int TAG_UB = 0;
    public static int HOST = 1;
    public static int IO = 2;

    // ---- predefined objects --------------------------------------------------------------------
    /** Every process of the job. */
    public static Intracomm COMM_WORLD = new Intracomm(Comm.WORLD);
    /** The calling process alone. */
    public static Comm COMM_SELF = new Intracomm(Comm.SELF);
    public static Group GROUP_EMPTY = new Group(new io.cohort.Group(new int[0], io.cohort.Group.UNDEFINED));
    /** A request with nothing behind it. */
    public static Request REQUEST_NULL = new Request(null);
    /** What a process left out of a Split or Create gets, as in MPJ Express. */
    public static Comm COMM_NULL = null;
    public static Group GROUP_NULL = null;

    public MPI() {
    }

    // ---- life cycle ----------------------------------------------------------------------------

    /**
     * Joins the job; returns the arguments left for the program, which are all of {@code argv}
     * (Cohort's launcher passes no options of its own in them).
     *
     * @throws MPIException if MPI was already initialized or finalized in this process
     */
    public static String[] Init(String[] argv) throws MPIException {
        init(THREAD_SINGLE);
        return argv == null ? new String[0] : argv.clone();
    }

    /**
     * Joins the job with thread support {@code required}; Cohort's communicators may be used from
     * any thread, so the level provided is the one required. Returns the program's arguments.
     */
    public static String[] initThread(int required, int provided, String[] argv) {
        init(Math.max(THREAD_SINGLE, Math.min(THREAD_MULTIPLE, required)));
        return argv == null ? new String[0] : argv.clone();
    }

    private static void init(int level) {
        Peer p;
        try {
            p = Peer.attach();
        } catch (RuntimeException e) {
            throw new MPIException("MPI.Init: " + e.getMessage(), e);
        }
        synchronized (p) {
            if (p.initialized) {
                throw Errors.error("MPI.Init: MPI is already initialized");
            }
            if (p.finalized) {
                throw Errors.error("MPI.Init: MPI was finalized; it cannot be initialized again");
            }
            p.self = Errors.call("MPI.Init", null, () -> p.world.split(p.world.rank(), 0));
            p.threadLevel = level;
            p.mainThread = Thread.currentThread();
            p.initialized = true;
            // The public group fields of the two static communicators (one process's view).
            COMM_WORLD.group = new Group(p.world.group());
            COMM_SELF.group = new Group(p.self.group());
        }
    }

    /** Whether the calling thread is the one that called {@link #Init}. */
    public static boolean isMainThread() {
        Peer p = Peer.current();
        return p != null && p.mainThread == Thread.currentThread();
    }

    /** The thread level {@link #initThread} provided ({@link #THREAD_SINGLE} after {@link #Init}). */
    public static int queryThread() {
        Peer p = Peer.current();
        return p == null ? THREAD_SINGLE : p.threadLevel;
    }

    /**
     * Leaves the job: closes the world communicator (pending sends complete and every other process
     * finishes sending to this one).
     */
    public static void Finalize() throws MPIException {
        Peer p = check("MPI.Finalize");
        p.finalized = true;
        Errors.run("MPI.Finalize", null, p.world::close);
    }

    /**
     * Whether {@link #Init} was called and {@link #Finalize} not yet: MPJ Express's Finalize clears
     * the flag (unlike MPI_Initialized), and programs guard their Finalize with this.
     */
    public static boolean Initialized() throws MPIException {
        Peer p = Peer.current();
        return p != null && p.initialized && !p.finalized;
    }

    /** The calling peer, or an error unless MPI is initialized and not finalized. */
    static Peer check(String operation) {
        Peer p = Peer.current();
        if (p == null || !p.initialized) {
            throw Errors.error(operation + ": MPI is not initialized; call MPI.Init(args) first");
        }
        if (p.finalized) {
            throw Errors.error(operation + ": MPI is finalized");
        }
        return p;
    }

    // ---- environment ---------------------------------------------------------------------------

    /** This host's name. */
    public static String Get_processor_name() throws MPIException {
        check("MPI.Get_processor_name");
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            String h = System.getenv("HOSTNAME");
            return h != null && !h.isBlank() ? h : "localhost";
        }
    }

    /** Sets the error handler of every call of this process. */
    public static void Errorhandler_set(Errhandler errhandler) throws MPIException {
        Peer p = check("MPI.Errorhandler_set");
        if (errhandler == null) {
            throw Errors.error("MPI.Errorhandler_set needs MPI.ERRORS_ARE_FATAL or MPI.ERRORS_RETURN, not null");
        }
        p.errhandler = errhandler;
    }

    public static Errhandler Errorhandler_get() throws MPIException {
        return check("MPI.Errorhandler_get").errhandler;
    }

    /** Seconds since an arbitrary time in the past, from {@link System#nanoTime()}. */
    public static double Wtime() throws MPIException {
        return System.nanoTime() / 1e9;
    }

    /** The resolution of {@link #Wtime()}: one nanosecond. */
    public static double Wtick() throws MPIException {
        return 1e-9;
    }

    /** Keeps a buffer for buffered sends; Cohort's sends never need it (they are always buffered). */
    public static void Buffer_attach(ByteBuffer buffer) throws MPIException {
        Peer p = check("MPI.Buffer_attach");
        if (p.attached != null) {
            throw Errors.error("MPI.Buffer_attach: a buffer is already attached; Buffer_detach it first");
        }
        p.attached = buffer;
    }

    /** Releases the buffer {@link #Buffer_attach} kept. */
    public static void Buffer_detach() throws MPIException {
        check("MPI.Buffer_detach").attached = null;
    }

    /** Cohort's largest tag. */
    static int tagUpperBound() {
        return Communicator.MAX_TAG;
    }
}
