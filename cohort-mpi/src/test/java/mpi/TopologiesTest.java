package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Cartesian and graph communicators (createCart, createGraph, CartComm.createDims) as MPI documents them. */
@Timeout(60)
class TopologiesTest {

    @Test
    void createDimsBalancesTheFreeDimensionsAndKeepsTheGivenOnes() {
        MpiJob.run(1, (rank, size) -> {
            int[] d = new int[2];
            CartComm.createDims(6, d);
            assertArrayEquals(new int[] {3, 2}, d);
            d = new int[3];
            CartComm.createDims(8, d);
            assertArrayEquals(new int[] {2, 2, 2}, d);
            d = new int[] {0, 3, 0};
            CartComm.createDims(12, d);
            assertArrayEquals(new int[] {2, 3, 2}, d);
            d = new int[] {0, 0};
            CartComm.createDims(7, d);
            assertArrayEquals(new int[] {7, 1}, d);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            MPIException e = assertThrows(MPIException.class, () -> CartComm.createDims(10, new int[] {3, 0}));
            assertEquals(MPI.ERR_DIMS, e.getErrorClass());
            assertTrue(e.getMessage().contains("10 nodes do not divide into the given dimensions [3, 0]"), e.getMessage());
        });
    }

    /** A 2-D grid, periodic in its first dimension: ranks, coordinates, shifts, sub-grids and traffic along them. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void aCartesianGridAnswersLikeMpiAndCarriesMessages(int np) {
        MpiJob.run(np, (rank, size) -> {
            int[] dims = new int[2];
            CartComm.createDims(size, dims);
            CartComm cart = MPI.COMM_WORLD.createCart(dims, new boolean[] {true, false}, true);
            assertEquals(MPI.CART, cart.getTopology());
            assertEquals(MPI.UNDEFINED, MPI.COMM_WORLD.getTopology());
            assertEquals(rank, cart.getRank(), "Cohort keeps ranks");
            CartParms topo = cart.getTopo();
            assertEquals(2, topo.getDimCount());
            assertEquals(dims[0], topo.getDim(0));
            assertTrue(topo.getPeriod(0));
            assertFalse(topo.getPeriod(1));
            int[] me = cart.getCoords(rank);
            assertArrayEquals(new int[] {rank / dims[1], rank % dims[1]}, me);
            assertEquals(me[0], topo.getCoord(0));
            assertEquals(me[1], topo.getCoord(1));
            assertEquals(rank, cart.getRank(me));
            assertEquals(cart.getRank(new int[] {me[0] + dims[0], me[1]}), rank, "a periodic dimension wraps");

            // Shift along the periodic dimension: a ring; along the other: PROC_NULL at the edges.
            ShiftParms down = cart.shift(0, 1);
            assertEquals(cart.getRank(new int[] {me[0] - 1, me[1]}), down.getRankSource());
            assertEquals(cart.getRank(new int[] {me[0] + 1, me[1]}), down.getRankDest());
            ShiftParms across = cart.shift(1, 1);
            assertEquals(me[1] == 0 ? MPI.PROC_NULL : rank - 1, across.getRankSource());
            assertEquals(me[1] == dims[1] - 1 ? MPI.PROC_NULL : rank + 1, across.getRankDest());
            int[] got = {-1};
            cart.sendRecv(new int[] {rank}, 1, MPI.INT, down.getRankDest(), 5, got, 1, MPI.INT, down.getRankSource(), 5);
            assertEquals(down.getRankSource(), got[0], "each process hears from the one below it");
            int[] edge = {-7};
            cart.sendRecv(new int[] {rank}, 1, MPI.INT, across.getRankDest(), 6, edge, 1, MPI.INT, across.getRankSource(), 6);
            assertEquals(across.getRankSource() == MPI.PROC_NULL ? -7 : rank - 1, edge[0], "PROC_NULL sends and receives nothing");

            // Rows: the processes with my first coordinate, ranked along the second.
            CartComm row = cart.sub(new boolean[] {false, true});
            assertEquals(dims[1], row.getSize());
            assertEquals(me[1], row.getRank());
            assertEquals(1, row.getTopo().getDimCount());
            int[] sum = new int[1];
            row.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
            int first = me[0] * dims[1];
            assertEquals(dims[1] * first + dims[1] * (dims[1] - 1) / 2, sum[0]);

            CartComm copy = cart.dup();
            assertEquals(MPI.CART, copy.getTopology());
            assertArrayEquals(me, copy.getCoords(rank));
            CartComm cloned = cart.clone();
            assertEquals(dims[0], cloned.getTopo().getDim(0));
            CartComm later = cart.iDup();
            later.getRequest().waitFor();
            assertEquals(MPI.CART, later.getTopology());
            later.free();
            assertEquals(rank, cart.map(dims, new boolean[] {true, false}));
            copy.free();
            cloned.free();
            row.free();
            cart.free();
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 8})
    void processesBeyondTheGridGetANullCommunicator(int np) {
        MpiJob.run(np, (rank, size) -> {
            CartComm line = MPI.COMM_WORLD.createCart(new int[] {size - 1}, new boolean[] {false}, false);
            assertEquals(rank == size - 1, line.isNull());
            if (!line.isNull()) {
                assertEquals(size - 1, line.getSize());
                assertEquals(rank == 0 ? MPI.PROC_NULL : rank - 1, line.shift(0, 1).getRankSource());
                line.free();
            }
            CartComm one = MPI.COMM_WORLD.createCart(new int[] {1}, new boolean[] {false}, false);
            assertEquals(rank != 0, one.isNull(), "a grid of one process: rank 0 alone");
            if (!one.isNull()) {
                assertEquals(MPI.PROC_NULL, one.shift(0, 1).getRankDest());
                one.free();
            }
        });
    }

    /** A ring as a graph: each node's neighbours are the nodes before and after it. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void aGraphListsNeighboursAndCarriesMessages(int np) {
        MpiJob.run(np, (rank, size) -> {
            int[] index = new int[size];
            int[] edges = new int[2 * size];
            for (int i = 0; i < size; i++) {
                edges[2 * i] = (i + size - 1) % size;
                edges[2 * i + 1] = (i + 1) % size;
                index[i] = 2 * (i + 1);
            }
            GraphComm g = MPI.COMM_WORLD.createGraph(index, edges, false);
            assertEquals(MPI.GRAPH, g.getTopology());
            GraphParms p = g.getDims();
            assertEquals(size, p.getIndexCount());
            assertEquals(2 * size, p.getEdgeCount());
            assertEquals(index[size - 1], p.getIndex(size - 1));
            assertEquals(edges[1], p.getEdge(1));
            int[] n = g.getNeighbors(rank);
            assertArrayEquals(new int[] {(rank + size - 1) % size, (rank + 1) % size}, n);
            int[] fromLeft = new int[1];
            g.sendRecv(new int[] {rank}, 1, MPI.INT, n[1], 3, fromLeft, 1, MPI.INT, n[0], 3);
            assertEquals(n[0], fromLeft[0]);
            assertEquals(rank, g.map(index, edges));
            GraphComm d = g.dup();
            assertArrayEquals(n, d.getNeighbors(rank));
            d.free();
            g.free();
        });
    }

    @Test
    void mistakesAreOneSentenceWithTheirErrorClass() {
        MpiJob.run(4, (rank, size) -> {
            Intracomm w = MPI.COMM_WORLD;
            w.setErrhandler(MPI.ERRORS_RETURN);
            MPIException e = assertThrows(MPIException.class, () -> w.createCart(new int[] {3, 3}, new boolean[2], false));
            assertEquals(MPI.ERR_DIMS, e.getErrorClass());
            assertTrue(e.getMessage().contains("createCart: a grid of [3, 3] needs 9 processes but the communicator has 4"),
                    e.getMessage());
            e = assertThrows(MPIException.class, () -> w.createCart(new int[] {2, 2}, new boolean[1], false));
            assertEquals(MPI.ERR_DIMS, e.getErrorClass());
            CartComm cart = w.createCart(new int[] {2, 2}, new boolean[] {false, false}, false);
            cart.setErrhandler(MPI.ERRORS_RETURN);
            e = assertThrows(MPIException.class, () -> cart.getRank(new int[] {2, 0}));
            assertEquals(MPI.ERR_ARG, e.getErrorClass());
            assertTrue(e.getMessage().contains("coordinate 2 is outside dimension 0 of size 2, which is not periodic"),
                    e.getMessage());
            e = assertThrows(MPIException.class, () -> cart.shift(2, 1));
            assertTrue(e.getMessage().contains("direction 2 is not one of the grid's 2 dimensions"), e.getMessage());
            e = assertThrows(MPIException.class, () -> cart.getCoords(4));
            assertEquals(MPI.ERR_RANK, e.getErrorClass());
            e = assertThrows(MPIException.class, () -> w.createGraph(new int[] {1, 0}, new int[] {1}, false));
            assertEquals(MPI.ERR_TOPOLOGY, e.getErrorClass());
            assertTrue(e.getMessage().contains("index[1] = 0 must not decrease"), e.getMessage());
            e = assertThrows(MPIException.class, () -> w.createGraph(new int[] {1}, new int[] {3}, false));
            assertTrue(e.getMessage().contains("an edge to node 3 is not one of the 1 nodes"), e.getMessage());
            cart.free();
        });
    }
}
