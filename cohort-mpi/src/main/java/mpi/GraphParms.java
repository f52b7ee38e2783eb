package mpi;

/** A graph communicator's index and edges, as {@link GraphComm#getDims()} returns them. */
public final class GraphParms {
    private final int[] index;
    private final int[] edges;

    GraphParms(int[] index, int[] edges) {
        this.index = index;
        this.edges = edges;
    }

    /** The number of nodes. */
    public int getIndexCount() {
        return index.length;
    }

    /** The number of edges of nodes 0 to {@code n}, together. */
    public int getIndex(int n) {
        return index[n];
    }

    public int getEdgeCount() {
        return edges.length;
    }

    public int getEdge(int n) {
        return edges[n];
    }
}
