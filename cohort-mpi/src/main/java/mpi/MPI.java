package mpi;

import io.cohort.Communicator;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * The MPI environment, as the Open MPI Java bindings define it: {@link #Init}, {@link #Finalize},
 * the predefined communicators, datatypes, operations and constants, timers and direct buffers.
 *
 * <p>{@link #Init} attaches to the job Cohort's launcher set up ({@code io.cohort.Cohort.init()}):
 * under {@code cohort run -n N -cp cohort-mpi.jar:. Program} every peer is one MPI process of
 * {@link #COMM_WORLD}; run as plain {@code java} it is a world of one.
 */
public final class MPI {
    // ---- thread levels, wildcards and other constants (Open MPI's values) ----------------------
    public static final int THREAD_SINGLE = 0;
    public static final int THREAD_FUNNELED = 1;
    public static final int THREAD_SERIALIZED = 2;
    public static final int THREAD_MULTIPLE = 3;

    public static final int GRAPH = 2;
    public static final int DIST_GRAPH = 3;
    public static final int CART = 1;

    public static final int ANY_SOURCE = Communicator.ANY_SOURCE;
    public static final int ANY_TAG = Communicator.ANY_TAG;
    public static final int PROC_NULL = -2;
    public static final int ROOT = -4;
    public static final int UNDEFINED = io.cohort.Group.UNDEFINED;

    public static final int IDENT = 0;
    public static final int CONGRUENT = 1;
    public static final int SIMILAR = 2;
    public static final int UNEQUAL = 3;

    // Predefined attribute keys, for Comm.getAttr.
    public static final int TAG_UB = 0;
    public static final int HOST = 1;
    public static final int IO = 2;
    public static final int WTIME_IS_GLOBAL = 3;
    public static final int APPNUM = 4;
    public static final int LASTUSEDCODE = 5;
    public static final int UNIVERSE_SIZE = 6;

    /** The MPI standard version the bindings follow. */
    public static final int VERSION = 3;
    public static final int SUBVERSION = 1;

    public static final int ORDER_C = 0;
    public static final int ORDER_FORTRAN = 1;
    public static final int BSEND_OVERHEAD = 0;
    public static final int MAX_OBJECT_NAME = 64;
    public static final int MAX_PROCESSOR_NAME = 256;

    // ---- error classes (Open MPI's values) -----------------------------------------------------
    public static final int SUCCESS = 0;
    public static final int ERR_BUFFER = 1;
    public static final int ERR_COUNT = 2;
    public static final int ERR_TYPE = 3;
    public static final int ERR_TAG = 4;
    public static final int ERR_COMM = 5;
    public static final int ERR_RANK = 6;
    public static final int ERR_REQUEST = 7;
    public static final int ERR_ROOT = 8;
    public static final int ERR_GROUP = 9;
    public static final int ERR_OP = 10;
    public static final int ERR_TOPOLOGY = 11;
    public static final int ERR_DIMS = 12;
    public static final int ERR_ARG = 13;
    public static final int ERR_UNKNOWN = 14;
    public static final int ERR_TRUNCATE = 15;
    public static final int ERR_OTHER = 16;
    public static final int ERR_INTERN = 17;
    public static final int ERR_IN_STATUS = 18;
    public static final int ERR_PENDING = 19;
    public static final int ERR_ACCESS = 20;
    public static final int ERR_AMODE = 21;
    public static final int ERR_ASSERT = 22;
    public static final int ERR_BAD_FILE = 23;
    public static final int ERR_BASE = 24;
    public static final int ERR_CONVERSION = 25;
    public static final int ERR_DISP = 26;
    public static final int ERR_DUP_DATAREP = 27;
    public static final int ERR_FILE_EXISTS = 28;
    public static final int ERR_FILE_IN_USE = 29;
    public static final int ERR_FILE = 30;
    public static final int ERR_INFO_KEY = 31;
    public static final int ERR_INFO_NOKEY = 32;
    public static final int ERR_INFO_VALUE = 33;
    public static final int ERR_INFO = 34;
    public static final int ERR_IO = 35;
    public static final int ERR_KEYVAL = 36;
    public static final int ERR_LOCKTYPE = 37;
    public static final int ERR_NAME = 38;
    public static final int ERR_NO_MEM = 39;
    public static final int ERR_NOT_SAME = 40;
    public static final int ERR_NO_SPACE = 41;
    public static final int ERR_NO_SUCH_FILE = 42;
    public static final int ERR_PORT = 43;
    public static final int ERR_QUOTA = 44;
    public static final int ERR_READ_ONLY = 45;
    public static final int ERR_RMA_CONFLICT = 46;
    public static final int ERR_RMA_SYNC = 47;
    public static final int ERR_SERVICE = 48;
    public static final int ERR_SIZE = 49;
    public static final int ERR_SPAWN = 50;
    public static final int ERR_UNSUPPORTED_DATAREP = 51;
    public static final int ERR_UNSUPPORTED_OPERATION = 52;
    public static final int ERR_WIN = 53;
    public static final int ERR_LASTCODE = 92;
    public static final int ERR_SYSRESOURCE = -2;

    // ---- error handlers ------------------------------------------------------------------------
    /** The default: an error prints one line and ends the job. */
    public static final Errhandler ERRORS_ARE_FATAL = new Errhandler(true);
    /** An error throws an {@link MPIException} to the caller. */
    public static final Errhandler ERRORS_RETURN = new Errhandler(false);

    // ---- datatypes -----------------------------------------------------------------------------
    public static final Datatype DATATYPE_NULL = Datatype.nullType();
    public static final Datatype BYTE = Datatype.basic(Datatype.BYTE, "MPI.BYTE");
    public static final Datatype CHAR = Datatype.basic(Datatype.CHAR, "MPI.CHAR");
    public static final Datatype SHORT = Datatype.basic(Datatype.SHORT, "MPI.SHORT");
    public static final Datatype BOOLEAN = Datatype.basic(Datatype.BOOLEAN, "MPI.BOOLEAN");
    public static final Datatype INT = Datatype.basic(Datatype.INT, "MPI.INT");
    public static final Datatype LONG = Datatype.basic(Datatype.LONG, "MPI.LONG");
    public static final Datatype FLOAT = Datatype.basic(Datatype.FLOAT, "MPI.FLOAT");
    public static final Datatype DOUBLE = Datatype.basic(Datatype.DOUBLE, "MPI.DOUBLE");
    /** The bytes {@link Comm#pack} writes. */
    public static final Datatype PACKED = Datatype.basic(Datatype.BYTE, "MPI.PACKED");
    /** Two floats, real then imaginary, in a float buffer. */
    public static final Datatype FLOAT_COMPLEX = Datatype.basicPair(Datatype.FLOAT, 2, "MPI.FLOAT_COMPLEX");
    /** Two doubles, real then imaginary, in a double buffer. */
    public static final Datatype DOUBLE_COMPLEX = Datatype.basicPair(Datatype.DOUBLE, 2, "MPI.DOUBLE_COMPLEX");
    /** (int value, int index) in a byte buffer; use with {@link #int2}. */
    public static final Datatype INT2 = Datatype.valueIndex(Datatype.INT2, 4, 4, 8, "MPI.INT2");
    /** (short value, int index) in a byte buffer; use with {@link #shortInt}. */
    public static final Datatype SHORT_INT = Datatype.valueIndex(Datatype.SHORT_INT, 2, 4, 8, "MPI.SHORT_INT");
    /** (long value, int index) in a byte buffer; use with {@link #longInt}. */
    public static final Datatype LONG_INT = Datatype.valueIndex(Datatype.LONG_INT, 8, 8, 16, "MPI.LONG_INT");
    /** (float value, int index) in a byte buffer; use with {@link #floatInt}. */
    public static final Datatype FLOAT_INT = Datatype.valueIndex(Datatype.FLOAT_INT, 4, 4, 8, "MPI.FLOAT_INT");
    /** (double value, int index) in a byte buffer; use with {@link #doubleInt}. */
    public static final Datatype DOUBLE_INT = Datatype.valueIndex(Datatype.DOUBLE_INT, 8, 8, 16, "MPI.DOUBLE_INT");

    /** Accessors for {@link #INT2} items in a byte buffer. */
    public static final Int2 int2 = new Int2();
    public static final ShortInt shortInt = new ShortInt();
    public static final LongInt longInt = new LongInt();
    public static final FloatInt floatInt = new FloatInt();
    public static final DoubleInt doubleInt = new DoubleInt();

    // ---- operations ----------------------------------------------------------------------------
    public static final Op MAX = new Op(io.cohort.Op.MAX);
    public static final Op MIN = new Op(io.cohort.Op.MIN);
    public static final Op SUM = new Op(io.cohort.Op.SUM);
    public static final Op PROD = new Op(io.cohort.Op.PROD);
    public static final Op LAND = new Op(io.cohort.Op.LAND);
    public static final Op BAND = new Op(io.cohort.Op.BAND);
    public static final Op LOR = new Op(io.cohort.Op.LOR);
    public static final Op BOR = new Op(io.cohort.Op.BOR);
    public static final Op LXOR = new Op(io.cohort.Op.LXOR);
    public static final Op BXOR = new Op(io.cohort.Op.BXOR);
    /** The smallest value with its index (the smaller index on ties); over the pair types. */
    public static final Op MINLOC = new Op(io.cohort.Op.MINLOC);
    /** The largest value with its index (the smaller index on ties); over the pair types. */
    public static final Op MAXLOC = new Op(io.cohort.Op.MAXLOC);

    // ---- predefined objects --------------------------------------------------------------------
    /** Every process of the job. */
    public static final Intracomm COMM_WORLD = new Intracomm(Comm.WORLD);
    /** The calling process alone. */
    public static final Intracomm COMM_SELF = new Intracomm(Comm.SELF);
    public static final Group GROUP_EMPTY = Group.emptyGroup();
    /** An inactive request. */
    public static final Request REQUEST_NULL = new Request(null, null, true, null);

    private static volatile byte[] attached;

    private MPI() {
    }

    // ---- life cycle ----------------------------------------------------------------------------

    /**
     * Joins the job; returns {@code args} unchanged (Cohort's launcher passes no options of its own
     * in the program's arguments).
     *
     * @throws MPIException if MPI was already initialized in this process
     */
    public static String[] Init(String[] args) throws MPIException {
        init(THREAD_SINGLE);
        return args;
    }

    /**
     * Joins the job with the thread support {@code required}; Cohort's communicators may be used
     * from any thread, so the level provided is the one required.
     */
    public static int InitThread(String[] args, int required) throws MPIException {
        int level = Math.max(THREAD_SINGLE, Math.min(THREAD_MULTIPLE, required));
        init(level);
        return level;
    }

    private static void init(int level) throws MPIException {
        Peer p;
        try {
            p = Peer.attach();
        } catch (RuntimeException e) {
            throw new MPIException(ERR_OTHER, "MPI.Init: " + e.getMessage(), e);
        }
        synchronized (p) {
            if (p.initialized) {
                throw Errors.handle(p.worldErrhandler, new MPIException(ERR_OTHER, "MPI.Init: MPI is already"
                        + (p.finalized ? " finalized; it cannot be initialized again" : " initialized"), null));
            }
            try {
                p.self = p.world.split(p.world.rank(), 0);
            } catch (RuntimeException e) {
                throw new MPIException(ERR_OTHER, "MPI.Init: " + e.getMessage(), e);
            }
            p.threadLevel = level;
            p.mainThread = Thread.currentThread();
            p.initialized = true;
        }
    }

    /** The thread level {@link #InitThread} provided. */
    public static int queryThread() throws MPIException {
        check();
        return Peer.current().threadLevel;
    }

    /** Whether the calling thread is the one that called {@link #Init}. */
    public static boolean isThreadMain() throws MPIException {
        check();
        return Peer.current().mainThread == Thread.currentThread();
    }

    /**
     * Leaves the job: waits for the nonblocking collectives started, then closes the world
     * communicator (pending sends complete and every other process finishes sending to this one).
     */
    public static void Finalize() throws MPIException {
        check();
        Peer p = Peer.current();
        try {
            p.worldQueue.close();
            p.selfQueue.close();
            p.finalized = true;
            p.world.close();
        } catch (RuntimeException e) {
            throw Errors.handle(p.worldErrhandler, Errors.of(e, "MPI.Finalize"));
        }
    }

    public static boolean isInitialized() throws MPIException {
        Peer p = Peer.current();
        return p != null && p.initialized;
    }

    public static boolean isFinalized() throws MPIException {
        Peer p = Peer.current();
        return p != null && p.finalized;
    }

    /**
     * Throws unless MPI is initialized and not finalized, through the world's error handler (so by
     * default one line naming the call, and the job ends, as Open MPI aborts a call before MPI_Init).
     */
    static void check() throws MPIException {
        Peer p = Peer.current();
        if (p == null || !p.initialized) {
            throw Errors.handle(worldErrhandler(), new MPIException(ERR_OTHER, caller()
                    + ": MPI is not initialized; call MPI.Init(args) first", null));
        }
        if (p.finalized) {
            throw Errors.handle(worldErrhandler(), new MPIException(ERR_OTHER, caller()
                    + ": MPI is finalized; no MPI call may follow MPI.Finalize", null));
        }
    }

    /** The program's call that reached {@link #check}: the outermost frame of this package ("Comm.getRank"). */
    private static String caller() {
        java.security.CodeSource ours = MPI.class.getProtectionDomain().getCodeSource();
        return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).walk(frames -> {
            String last = "MPI";
            for (StackWalker.StackFrame f : (Iterable<StackWalker.StackFrame>) frames::iterator) {
                Class<?> c = f.getDeclaringClass();
                if (!c.getPackageName().equals("mpi")
                        || !java.util.Objects.equals(c.getProtectionDomain().getCodeSource(), ours)) {
                    break; // the program's own frame (its classes may be in package mpi too)
                }
                last = c.getSimpleName() + "." + f.getMethodName();
            }
            return last;
        });
    }

    /** The world's error handler, which also applies to errors that belong to no communicator. */
    static Errhandler worldErrhandler() {
        Peer p = Peer.current();
        return p == null ? ERRORS_ARE_FATAL : p.worldErrhandler;
    }

    // ---- environment ---------------------------------------------------------------------------

    /** Seconds since an arbitrary time in the past, from {@link System#nanoTime()}. */
    public static double wtime() throws MPIException {
        check();
        return System.nanoTime() / 1e9;
    }

    /** The resolution of {@link #wtime()}: one nanosecond. */
    public static double wtick() throws MPIException {
        check();
        return 1e-9;
    }

    /** This host's name. */
    public static String getProcessorName() throws MPIException {
        check();
        String h = System.getenv("HOSTNAME");
        if (h != null && !h.isBlank()) {
            return h;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "localhost";
        }
    }

    /** Accepted for buffered sends; Cohort's sends are always buffered, so the buffer is only kept. */
    public static void attachBuffer(byte[] buffer) throws MPIException {
        check();
        attached = buffer;
    }

    /** Returns the buffer {@link #attachBuffer} kept. */
    public static byte[] detachBuffer() throws MPIException {
        check();
        byte[] b = attached;
        attached = null;
        return b;
    }

    /** Profiling control: does nothing (use {@code cohort run --profile}). */
    public static void pControl(int level, Object obj) {
    }

    /** The name of an error class: "MPI.ERR_RANK". */
    static String errorClassName(int errorClass) {
        for (java.lang.reflect.Field f : MPI.class.getFields()) {
            if (f.getName().startsWith("ERR_") && f.getType() == int.class) {
                try {
                    if (f.getInt(null) == errorClass) {
                        return "MPI." + f.getName();
                    }
                } catch (IllegalAccessException e) {
                    break;
                }
            }
        }
        return "error class " + errorClass;
    }

    // ---- direct buffers --------------------------------------------------------------------------

    /** A direct byte buffer of {@code capacity} bytes in the platform's byte order. */
    public static ByteBuffer newByteBuffer(int capacity) {
        return ByteBuffer.allocateDirect(capacity).order(ByteOrder.nativeOrder());
    }

    public static CharBuffer newCharBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 2)).asCharBuffer();
    }

    public static ShortBuffer newShortBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 2)).asShortBuffer();
    }

    public static IntBuffer newIntBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 4)).asIntBuffer();
    }

    public static LongBuffer newLongBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 8)).asLongBuffer();
    }

    public static FloatBuffer newFloatBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 4)).asFloatBuffer();
    }

    public static DoubleBuffer newDoubleBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 8)).asDoubleBuffer();
    }

    // ---- slices: buffers that start further into a buffer or array ------------------------------
    // As in the bindings, slicing a buffer sets its position to the offset.

    public static ByteBuffer slice(ByteBuffer buf, int offset) {
        buf.position(offset);
        return buf.slice().order(buf.order());
    }

    public static CharBuffer slice(CharBuffer buf, int offset) {
        buf.position(offset);
        return buf.slice();
    }

    public static ShortBuffer slice(ShortBuffer buf, int offset) {
        buf.position(offset);
        return buf.slice();
    }

    public static IntBuffer slice(IntBuffer buf, int offset) {
        buf.position(offset);
        return buf.slice();
    }

    public static LongBuffer slice(LongBuffer buf, int offset) {
        buf.position(offset);
        return buf.slice();
    }

    public static FloatBuffer slice(FloatBuffer buf, int offset) {
        buf.position(offset);
        return buf.slice();
    }

    public static DoubleBuffer slice(DoubleBuffer buf, int offset) {
        buf.position(offset);
        return buf.slice();
    }

    public static ByteBuffer slice(byte[] buf, int offset) {
        return ByteBuffer.wrap(buf, offset, buf.length - offset).slice().order(ByteOrder.nativeOrder());
    }

    public static CharBuffer slice(char[] buf, int offset) {
        return CharBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static ShortBuffer slice(short[] buf, int offset) {
        return ShortBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static IntBuffer slice(int[] buf, int offset) {
        return IntBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static LongBuffer slice(long[] buf, int offset) {
        return LongBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static FloatBuffer slice(float[] buf, int offset) {
        return FloatBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static DoubleBuffer slice(double[] buf, int offset) {
        return DoubleBuffer.wrap(buf, offset, buf.length - offset).slice();
    }
}
