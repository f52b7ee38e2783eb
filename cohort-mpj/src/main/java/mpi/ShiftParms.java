package mpi;

/** What {@link Cartcomm#Shift} returns: the ranks to receive from and to send to ({@link MPI#PROC_NULL} past an edge). */
public class ShiftParms {
    public int rank_source;
    public int rank_dest;

    ShiftParms(int source, int dest) {
        this.rank_source = source;
        this.rank_dest = dest;
    }
}
