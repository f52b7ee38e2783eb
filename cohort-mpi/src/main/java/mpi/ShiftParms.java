package mpi;

/** What {@link CartComm#shift} returns: the rank to receive from and the rank to send to ({@link MPI#PROC_NULL} past an edge). */
public final class ShiftParms {
    private final int source;
    private final int dest;

    ShiftParms(int source, int dest) {
        this.source = source;
        this.dest = dest;
    }

    public int getRankSource() {
        return source;
    }

    public int getRankDest() {
        return dest;
    }
}
