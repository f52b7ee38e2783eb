package mpi;

import io.cohort.Communicator;
import io.cohort.mpi.support.GraphTopology;

/**
 * A communicator with a graph topology ({@link Intracomm#createGraph}): node i, the process of rank
 * i, has the neighbours {@code edges[index[i-1]]} to {@code edges[index[i] - 1]}. Ranks are those
 * of the communicator it was made from ({@code reorder} changes nothing); a process beyond the
 * nodes gets a null communicator. The graph is {@link GraphTopology}, shared with the mpiJava
 * API's {@code Graphcomm}. Distributed graphs ({@code createDistGraph}) are not provided.
 *
 * <p>Immutable apart from what {@link Comm} holds; any thread.
 */
public final class GraphComm extends Intracomm {
    private final GraphTopology graph;

    GraphComm(Communicator handle, Errhandler errhandler, GraphTopology graph) {
        super(handle, errhandler);
        this.graph = graph;
    }

    /** Keeps the graph in a duplicate ({@link #dup()}, {@link #iDup()}, {@link #clone()}). */
    @Override
    Comm duplicate(Communicator c) {
        return new GraphComm(c, errhandler(), graph);
    }

    @Override
    public GraphComm dup() throws MPIException {
        return (GraphComm) super.dup();
    }

    @Override
    public GraphComm iDup() throws MPIException {
        return (GraphComm) super.iDup();
    }

    @Override
    public GraphComm clone() {
        return (GraphComm) super.clone();
    }

    /** {@link MPI#GRAPH}. */
    @Override
    public int getTopology() throws MPIException {
        c();
        return MPI.GRAPH;
    }

    /** The graph's index and edges. */
    public GraphParms getDims() throws MPIException {
        c();
        return new GraphParms(graph.index(), graph.edges());
    }

    /** The neighbours of node {@code rank}, in the order the edges list them. */
    public int[] getNeighbors(int rank) throws MPIException {
        c();
        try {
            return graph.neighbours(rank);
        } catch (IllegalArgumentException e) {
            throw error(MPI.ERR_RANK, "getNeighbors: " + e.getMessage());
        }
    }

    /** The rank this process would have in a graph of {@code index}'s nodes: its own, or {@link MPI#UNDEFINED} beyond them. */
    public int map(int[] index, int[] edges) throws MPIException {
        Communicator c = c();
        try {
            return c.rank() < GraphTopology.of(index, edges, c.size()).nodes() ? c.rank() : MPI.UNDEFINED;
        } catch (IllegalArgumentException e) {
            throw error(MPI.ERR_TOPOLOGY, "map: " + e.getMessage());
        }
    }
}
