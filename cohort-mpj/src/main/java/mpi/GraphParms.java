package mpi;

/** A graph communicator's shape, as {@link Graphcomm#Get()} returns it (MPI_Graph_get's index and edges). */
public class GraphParms {
    /** {@code index[i]}: the neighbours of nodes 0 to i together. */
    public int[] index;
    /** The neighbours of node 0, then of node 1, ... */
    public int[] edges;

    public GraphParms() {
    }
}
