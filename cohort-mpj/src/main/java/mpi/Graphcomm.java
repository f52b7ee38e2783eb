package mpi;

import io.cohort.Communicator;

/**
 * A communicator with a graph topology: node i (the process of rank i) has the neighbours
 * {@code edges[index[i-1]]} to {@code edges[index[i] - 1]} ({@code index[-1]} being 0). Ranks are
 * those of the communicator it was made from.
 *
 * <p>Immutable apart from what {@link Comm} holds; any thread.
 */
public class Graphcomm extends Intracomm {
    private final int[] index;
    private final int[] edges;

    private Graphcomm(Communicator c, int[] index, int[] edges) {
        super(c);
        this.index = index;
        this.edges = edges;
    }

    static Graphcomm create(Intracomm parent, int[] index, int[] edges) {
        Communicator c = parent.c("Create_graph");
        if (index == null || edges == null) {
            throw Errors.error("Create_graph needs an index and an edges array, not null");
        }
        int nodes = index.length;
        if (nodes > c.size()) {
            throw Errors.error("Create_graph: a graph of " + nodes + " nodes needs " + nodes
                    + " processes but the communicator has " + c.size());
        }
        int previous = 0;
        for (int i = 0; i < nodes; i++) {
            if (index[i] < previous || index[i] > edges.length) {
                throw Errors.error("Create_graph: index[" + i + "] = " + index[i] + " must not decrease and must be at most"
                        + " the " + edges.length + " edges");
            }
            previous = index[i];
        }
        for (int e : edges) {
            if (e < 0 || e >= nodes) {
                throw Errors.error("Create_graph: edge to node " + e + " is not one of the " + nodes + " nodes");
            }
        }
        try {
            Communicator s = c.split(c.rank() < nodes ? 0 : io.cohort.Group.UNDEFINED, c.rank());
            return s == null ? null : new Graphcomm(s, index.clone(), edges.clone());
        } catch (RuntimeException e) {
            throw Errors.of(e, "Create_graph");
        }
    }

    /** A duplicate with the same topology. Collective. */
    @Override
    public Object clone() throws MPIException {
        Communicator c = c("clone");
        try {
            return new Graphcomm(c.dup(), index, edges);
        } catch (RuntimeException e) {
            throw Errors.of(e, "clone");
        }
    }

    /** The graph's index and edges. */
    public GraphParms Get() throws MPIException {
        c("Get");
        GraphParms p = new GraphParms();
        p.index = index.clone();
        p.edges = edges.clone();
        return p;
    }

    /** The neighbours of node {@code rank}. */
    public int[] Neighbours(int rank) throws MPIException {
        c("Neighbours");
        if (rank < 0 || rank >= index.length) {
            throw Errors.error("Graphcomm.Neighbours: rank " + rank + " is not one of the " + index.length + " nodes");
        }
        int from = rank == 0 ? 0 : index[rank - 1];
        return java.util.Arrays.copyOfRange(edges, from, index[rank]);
    }

    /** The rank this process would have in such a graph: its own, or {@link MPI#UNDEFINED} beyond its nodes. */
    public int Map(int[] index, int[] edges) throws MPIException {
        Communicator c = c("Map");
        return c.rank() < index.length ? c.rank() : MPI.UNDEFINED;
    }

    /** {@link MPI#GRAPH}. */
    @Override
    public int Topo_test() throws MPIException {
        c("Topo_test");
        return MPI.GRAPH;
    }
}
