package io.cohort.mpi.support;

import java.util.Arrays;

/**
 * A graph process topology as MPI describes it: node i (the process of rank i) has the neighbours
 * {@code edges[index[i-1]]} to {@code edges[index[i] - 1]}, {@code index[-1]} being 0. Ranks are
 * those of the communicator it was made from. Both MPI APIs' graph communicators keep one of these;
 * a mistake is an {@link IllegalArgumentException} in one sentence.
 *
 * <p>Immutable; any thread.
 */
public final class GraphTopology {
    private final int[] index;
    private final int[] edges;

    private GraphTopology(int[] index, int[] edges) {
        this.index = index;
        this.edges = edges;
    }

    /** The graph, checked against a communicator of {@code processes}. */
    public static GraphTopology of(int[] index, int[] edges, int processes) {
        if (index == null || edges == null) {
            throw new IllegalArgumentException("a graph needs an index and an edges array, not null");
        }
        int nodes = index.length;
        if (nodes > processes) {
            throw new IllegalArgumentException("a graph of " + nodes + " nodes needs " + nodes
                    + " processes but the communicator has " + processes);
        }
        int previous = 0;
        for (int i = 0; i < nodes; i++) {
            if (index[i] < previous || index[i] > edges.length) {
                throw new IllegalArgumentException("index[" + i + "] = " + index[i] + " must not decrease and must be"
                        + " at most the " + edges.length + " edges");
            }
            previous = index[i];
        }
        for (int e : edges) {
            if (e < 0 || e >= nodes) {
                throw new IllegalArgumentException("an edge to node " + e + " is not one of the " + nodes + " nodes");
            }
        }
        return new GraphTopology(index.clone(), edges.clone());
    }

    /** Processes in the graph; the communicator's ranks from this one up are left out of it. */
    public int nodes() {
        return index.length;
    }

    public int[] index() {
        return index.clone();
    }

    public int[] edges() {
        return edges.clone();
    }

    /** The neighbours of node {@code rank}, in the order the edges list them. */
    public int[] neighbours(int rank) {
        if (rank < 0 || rank >= index.length) {
            throw new IllegalArgumentException("rank " + rank + " is not one of the graph's " + index.length + " nodes");
        }
        int from = rank == 0 ? 0 : index[rank - 1];
        return Arrays.copyOfRange(edges, from, index[rank]);
    }
}
