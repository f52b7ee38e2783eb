package mpi;

/**
 * What a receive, probe or completed request learned: the message's source and tag, and its
 * length, from which {@link #getCount} gives the number of items of a datatype.
 */
public final class Status {
    private final int source;
    private final int tag;
    private final int error;
    /** The message's length on the wire, in bytes. */
    private final long bytes;
    private final int index;
    /** Cohort's status this one was made from, if any: lets a communicator hand out one object for a repeated status. */
    final io.cohort.Status origin;

    /** Whether the receive was cancelled ({@link Request#cancel()} before a message matched it). */
    private final boolean cancelled;

    Status(int source, int tag, long bytes, int index) {
        this(source, tag, bytes, index, false);
    }

    private Status(int source, int tag, long bytes, int index, boolean cancelled) {
        this.source = source;
        this.tag = tag;
        this.error = MPI.SUCCESS;
        this.bytes = bytes;
        this.index = index;
        this.origin = null;
        this.cancelled = cancelled;
    }

    /** The status of a cancelled receive: no message, source {@link MPI#ANY_SOURCE}, tag {@link MPI#ANY_TAG}. */
    static Status cancelled(int index) {
        return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, 0, index, true);
    }

    /** Cohort's {@code s}, whose sender is rank {@code source} to the program (an inter-communicator translates it). */
    Status(io.cohort.Status s, int source, int index) {
        this.source = source;
        this.tag = s.tag();
        this.error = MPI.SUCCESS;
        this.bytes = s.length();
        this.index = index;
        this.origin = s;
        this.cancelled = false;
    }

    /**
     * The empty status (MPI 3.1, 3.7.3) of an inactive or null request: source {@link MPI#ANY_SOURCE},
     * tag {@link MPI#ANY_TAG}, no data.
     */
    static Status empty(int index) {
        return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, 0, index);
    }

    /** The status of an operation with {@link MPI#PROC_NULL} (MPI 3.1, 3.11): that source, {@link MPI#ANY_TAG}, no data. */
    static Status procNull(int index) {
        return new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0, index);
    }

    Status withIndex(int i) {
        return new Status(source, tag, bytes, i, cancelled);
    }

    /**
     * The number of whole items of {@code datatype} the message carried, or {@link MPI#UNDEFINED}
     * if its length is not a whole number of items.
     */
    public int getCount(Datatype datatype) throws MPIException {
        MPI.check();
        checkType(datatype, "getCount");
        long item = (long) datatype.size * datatype.baseSize;
        if (item == 0) {
            return bytes == 0 ? 0 : MPI.UNDEFINED;
        }
        return bytes % item == 0 ? (int) (bytes / item) : MPI.UNDEFINED;
    }

    /**
     * The number of basic elements of {@code datatype} the message carried (a struct of two doubles
     * and an int carries three per item; a pair type such as {@link MPI#DOUBLE_INT} two), or
     * {@link MPI#UNDEFINED} where the message ends inside one.
     */
    public int getElements(Datatype datatype) throws MPIException {
        MPI.check();
        checkType(datatype, "getElements");
        long n = datatype.elementsIn(bytes);
        return n > Integer.MAX_VALUE ? MPI.UNDEFINED : (int) n;
    }

    private static void checkType(Datatype datatype, String what) throws MPIException {
        if (datatype == null || datatype.baseType == Datatype.NULL) {
            throw Errors.handle(MPI.worldErrhandler(), Errors.error(MPI.ERR_TYPE, "Status." + what + ": the datatype is "
                    + (datatype == null ? "null" : "MPI.DATATYPE_NULL")));
        }
    }

    /** Whether {@link Request#cancel()} withdrew the receive before a message matched it. */
    public boolean isCancelled() throws MPIException {
        MPI.check();
        return cancelled;
    }

    /** The rank of the sender in the communicator of the receive. */
    public int getSource() {
        return source;
    }

    public int getTag() {
        return tag;
    }

    /** {@link MPI#SUCCESS}: a failed operation throws (or ends the job) instead. */
    public int getError() {
        return error;
    }

    /** The index of the request this status is for, in the array given to waitAny, waitSome, ... */
    public int getIndex() {
        return index;
    }

    @Override
    public String toString() {
        return "Status[source=" + source + ", tag=" + tag + ", bytes=" + bytes + "]";
    }
}
