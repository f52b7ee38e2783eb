package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Cartesian and graph topologies, Dims_create. */
@Timeout(60)
class TopologiesTest {

    @Test
    void dimsCreateBalancesTheFreeDimensions() {
        MpjJob.run(1, (rank, size) -> {
            int[] d = new int[2];
            Cartcomm.Dims_create(6, d);
            assertArrayEquals(new int[] {3, 2}, d);
            d = new int[3];
            Cartcomm.Dims_create(8, d);
            assertArrayEquals(new int[] {2, 2, 2}, d);
            d = new int[] {0, 3, 0};
            Cartcomm.Dims_create(12, d);
            assertArrayEquals(new int[] {2, 3, 2}, d);
            d = new int[] {0, 0};
            Cartcomm.Dims_create(7, d);
            assertArrayEquals(new int[] {7, 1}, d);
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void cartesianGridCoordinatesShiftsAndSubgrids(int np) {
        MpjJob.run(np, (rank, size) -> {
            int[] dims = new int[2];
            Cartcomm.Dims_create(size, dims);
            Cartcomm cart = MPI.COMM_WORLD.Create_cart(dims, new boolean[] {true, false}, false);
            assertEquals(MPI.CART, cart.Topo_test());
            CartParms p = cart.Get();
            assertArrayEquals(dims, p.dims);
            int[] me = cart.Coords(cart.Rank());
            assertArrayEquals(me, p.coords);
            assertEquals(me[0] * dims[1] + me[1], cart.Rank());
            assertEquals(cart.Rank(), cart.Rank(me));
            ShiftParms down = cart.Shift(0, 1);
            assertEquals(cart.Rank(new int[] {me[0] - 1, me[1]}), down.rank_source);
            assertEquals(cart.Rank(new int[] {me[0] + 1, me[1]}), down.rank_dest);
            ShiftParms right = cart.Shift(1, 1);
            assertEquals(me[1] == 0 ? MPI.PROC_NULL : cart.Rank() - 1, right.rank_source);
            assertEquals(me[1] == dims[1] - 1 ? MPI.PROC_NULL : cart.Rank() + 1, right.rank_dest);
            // A ring along the periodic dimension.
            int[] got = new int[1];
            cart.Sendrecv(new int[] {cart.Rank()}, 0, 1, MPI.INT, down.rank_dest, 0, got, 0, 1, MPI.INT,
                    down.rank_source, 0);
            assertEquals(down.rank_source, got[0]);
            Cartcomm rows = cart.Sub(new boolean[] {false, true});
            assertEquals(dims[1], rows.Size());
            assertEquals(me[1], rows.Rank());
            assertArrayEquals(new int[] {dims[1]}, rows.Get().dims);
            assertEquals(cart.Rank(), cart.Map(dims, new boolean[2]));
            Cartcomm copy = (Cartcomm) cart.clone();
            assertArrayEquals(dims, copy.Get().dims);
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 4, 8})
    void aGridSmallerThanTheWorldLeavesTheRestOut(int np) {
        MpjJob.run(np, (rank, size) -> {
            Cartcomm line = MPI.COMM_WORLD.Create_cart(new int[] {size - 1}, new boolean[] {false}, true);
            if (rank == size - 1) {
                assertNull(line);
            } else {
                assertEquals(size - 1, line.Size());
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void graphNeighboursAndAStarExchange(int np) {
        MpjJob.run(np, (rank, size) -> {
            // A star: node 0 is linked to every other node, each other node to 0 only.
            int[] index = new int[size];
            int[] edges = new int[2 * (size - 1)];
            int e = 0;
            for (int i = 1; i < size; i++) {
                edges[e++] = i;
            }
            index[0] = e;
            for (int i = 1; i < size; i++) {
                edges[e++] = 0;
                index[i] = e;
            }
            Graphcomm g = MPI.COMM_WORLD.Create_graph(index, edges, false);
            assertEquals(MPI.GRAPH, g.Topo_test());
            GraphParms p = g.Get();
            assertArrayEquals(index, p.index);
            assertArrayEquals(edges, p.edges);
            int[] mine = g.Neighbours(g.Rank());
            assertEquals(rank == 0 ? size - 1 : 1, mine.length);
            Request[] sends = new Request[mine.length];
            for (int i = 0; i < mine.length; i++) {
                sends[i] = g.Isend(new int[] {rank}, 0, 1, MPI.INT, mine[i], 1);
            }
            int total = 0;
            for (int i = 0; i < mine.length; i++) {
                int[] got = new int[1];
                g.Recv(got, 0, 1, MPI.INT, mine[i], 1);
                total += got[0];
            }
            Request.Waitall(sends);
            assertEquals(rank == 0 ? size * (size - 1) / 2 : 0, total);
            assertEquals(rank, g.Map(index, edges));
        });
    }
}
