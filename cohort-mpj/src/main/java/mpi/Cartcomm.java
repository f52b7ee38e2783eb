package mpi;

import io.cohort.Communicator;
import io.cohort.mpi.support.CartGrid;

/**
 * A communicator with a Cartesian topology: process ranks laid out on a grid of {@code dims}, in
 * row-major order (the last dimension varies fastest), periodic where {@code periods} says.
 * Ranks are those of the communicator it was made from (Cohort does not reorder). The grid's
 * arithmetic is {@link CartGrid}'s, shared with the Open MPI API's {@code CartComm}.
 *
 * <p>Immutable apart from what {@link Comm} holds; any thread.
 */
public class Cartcomm extends Intracomm {
    private final CartGrid grid;

    private Cartcomm(Communicator c, CartGrid grid) {
        super(c);
        this.grid = grid;
    }

    static Cartcomm create(Intracomm parent, int[] dims, boolean[] periods) {
        Communicator c = parent.c("Create_cart");
        CartGrid grid = checked("Create_cart", () -> CartGrid.of(dims, periods, c.size()));
        return parent.call("Create_cart", () -> {
            Communicator s = c.split(c.rank() < grid.size() ? 0 : io.cohort.Group.UNDEFINED, c.rank());
            return s == null ? null : new Cartcomm(s, grid);
        });
    }

    /** The grid's answer, or its one-sentence mistake as this API's error. */
    private static <T> T checked(String op, java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (IllegalArgumentException e) {
            throw Errors.error(op + ": " + e.getMessage());
        }
    }

    /** A duplicate with the same topology. Collective. */
    @Override
    public Object clone() throws MPIException {
        Communicator c = c("clone");
        return call("clone", () -> new Cartcomm(c.dup(), grid));
    }

    /** The rank at {@code coords}; a periodic dimension wraps, a coordinate outside another is an error. */
    public int Rank(int[] coords) throws MPIException {
        c("Rank");
        return checked("Cartcomm.Rank", () -> grid.rank(coords));
    }

    /** The coordinates of {@code rank}. */
    public int[] Coords(int rank) throws MPIException {
        c("Coords");
        return checked("Cartcomm.Coords", () -> grid.coords(rank));
    }

    /**
     * The neighbours {@code disp} steps down and up dimension {@code direction}: the rank to
     * receive from and the rank to send to, {@link MPI#PROC_NULL} past the edge of a non-periodic
     * dimension.
     */
    public ShiftParms Shift(int direction, int disp) throws MPIException {
        Communicator c = c("Shift");
        int[] ranks = checked("Cartcomm.Shift", () -> grid.shift(c.rank(), direction, disp, MPI.PROC_NULL));
        return new ShiftParms(ranks[0], ranks[1]);
    }

    /**
     * The sub-grids keeping the dimensions where {@code remain_dims} is true: the processes that
     * agree on the other coordinates form one. Collective.
     */
    public Cartcomm Sub(boolean[] remain_dims) throws MPIException {
        Communicator c = c("Sub");
        int colour = checked("Cartcomm.Sub", () -> grid.subColour(c.rank(), remain_dims));
        return call("Sub", () -> new Cartcomm(c.split(colour, c.rank()), grid.sub(remain_dims)));
    }

    /** The rank this process would have on a grid of {@code dims}: its own, or {@link MPI#UNDEFINED} beyond the grid. */
    public int Map(int[] dims, boolean[] periods) throws MPIException {
        Communicator c = c("Map");
        CartGrid g = checked("Cartcomm.Map", () -> CartGrid.of(dims, periods, c.size()));
        return c.rank() < g.size() ? c.rank() : MPI.UNDEFINED;
    }

    /** The grid's dimensions, periods and this process's coordinates. */
    public CartParms Get() throws MPIException {
        Communicator c = c("Get");
        return new CartParms(grid.dims(), grid.periods(), Coords(c.rank()));
    }

    /** {@link MPI#CART}. */
    @Override
    public int Topo_test() throws MPIException {
        c("Topo_test");
        return MPI.CART;
    }

    /**
     * Fills the zero entries of {@code dims} so that the product of all entries is {@code nnodes},
     * the filled sizes as close to each other as possible, in non-increasing order. Entries already
     * set are kept; their product must divide {@code nnodes}.
     */
    public static void Dims_create(int nnodes, int[] dims) throws MPIException {
        checked("Dims_create", () -> {
            CartGrid.dimsCreate(nnodes, dims);
            return null;
        });
    }
}
