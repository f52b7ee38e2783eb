package mpi;

import io.cohort.Communicator;
import io.cohort.mpi.support.GraphTopology;

/**
 * A communicator with a graph topology: node i (the process of rank i) has the neighbours
 * {@code edges[index[i-1]]} to {@code edges[index[i] - 1]} ({@code index[-1]} being 0). Ranks are
 * those of the communicator it was made from. The graph is {@link GraphTopology}, shared with the
 * Open MPI API's {@code GraphComm}.
 *
 * <p>Immutable apart from what {@link Comm} holds; any thread.
 */
public class Graphcomm extends Intracomm {
    private final GraphTopology graph;

    private Graphcomm(Communicator c, GraphTopology graph) {
        super(c);
        this.graph = graph;
    }

    static Graphcomm create(Intracomm parent, int[] index, int[] edges) {
        Communicator c = parent.c("Create_graph");
        GraphTopology graph;
        try {
            graph = GraphTopology.of(index, edges, c.size());
        } catch (IllegalArgumentException e) {
            throw Errors.error("Create_graph: " + e.getMessage());
        }
        GraphTopology g = graph;
        return parent.call("Create_graph", () -> {
            Communicator s = c.split(c.rank() < g.nodes() ? 0 : io.cohort.Group.UNDEFINED, c.rank());
            return s == null ? null : new Graphcomm(s, g);
        });
    }

    /** A duplicate with the same topology. Collective. */
    @Override
    public Object clone() throws MPIException {
        Communicator c = c("clone");
        return call("clone", () -> new Graphcomm(c.dup(), graph));
    }

    /** The graph's index and edges. */
    public GraphParms Get() throws MPIException {
        c("Get");
        GraphParms p = new GraphParms();
        p.index = graph.index();
        p.edges = graph.edges();
        return p;
    }

    /** The neighbours of node {@code rank}. */
    public int[] Neighbours(int rank) throws MPIException {
        c("Neighbours");
        try {
            return graph.neighbours(rank);
        } catch (IllegalArgumentException e) {
            throw Errors.error("Graphcomm.Neighbours: " + e.getMessage());
        }
    }

    /** The rank this process would have in such a graph: its own, or {@link MPI#UNDEFINED} beyond its nodes. */
    public int Map(int[] index, int[] edges) throws MPIException {
        Communicator c = c("Map");
        try {
            return c.rank() < GraphTopology.of(index, edges, c.size()).nodes() ? c.rank() : MPI.UNDEFINED;
        } catch (IllegalArgumentException e) {
            throw Errors.error("Graphcomm.Map: " + e.getMessage());
        }
    }

    /** {@link MPI#GRAPH}. */
    @Override
    public int Topo_test() throws MPIException {
        c("Topo_test");
        return MPI.GRAPH;
    }
}
