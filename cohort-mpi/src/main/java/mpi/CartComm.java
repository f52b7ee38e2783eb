package mpi;

import io.cohort.Communicator;
import io.cohort.mpi.support.CartGrid;

/**
 * A communicator with a Cartesian topology ({@link Intracomm#createCart}): ranks laid out on a grid,
 * row-major (the last dimension varies fastest), periodic where asked. Ranks are those of the
 * communicator it was made from: Cohort does not reorder, so {@code reorder} is accepted and
 * changes nothing. A process beyond the grid gets a null communicator ({@link #isNull()}). The
 * grid's arithmetic is {@link CartGrid}'s, shared with the mpiJava API's {@code Cartcomm}.
 *
 * <p>Immutable apart from what {@link Comm} holds; any thread.
 */
public final class CartComm extends Intracomm {
    private final CartGrid grid;

    CartComm(Communicator handle, Errhandler errhandler, CartGrid grid) {
        super(handle, errhandler);
        this.grid = grid;
    }

    /** The grid's answer, or its one-sentence mistake as an MPI error of {@code errorClass}. */
    private <T> T checked(int errorClass, String op, java.util.function.Supplier<T> call) throws MPIException {
        try {
            return call.get();
        } catch (IllegalArgumentException e) {
            throw error(errorClass, op + ": " + e.getMessage());
        }
    }

    /** Keeps the grid in a duplicate ({@link #dup()}, {@link #iDup()}, {@link #clone()}). */
    @Override
    Comm duplicate(Communicator c) {
        return new CartComm(c, errhandler(), grid);
    }

    @Override
    public CartComm dup() throws MPIException {
        return (CartComm) super.dup();
    }

    @Override
    public CartComm iDup() throws MPIException {
        return (CartComm) super.iDup();
    }

    @Override
    public CartComm clone() {
        return (CartComm) super.clone();
    }

    /** {@link MPI#CART}. */
    @Override
    public int getTopology() throws MPIException {
        c();
        return MPI.CART;
    }

    /** The grid's dimensions and periods, and this process's coordinates. */
    public CartParms getTopo() throws MPIException {
        Communicator c = c();
        return new CartParms(grid.dims(), grid.periods(), grid.coords(c.rank()));
    }

    /** The rank at {@code coords}; a periodic dimension wraps, a coordinate outside another is {@link MPI#ERR_ARG}. */
    public int getRank(int[] coords) throws MPIException {
        c();
        return checked(MPI.ERR_ARG, "getRank", () -> grid.rank(coords));
    }

    /** The coordinates of {@code rank}. */
    public int[] getCoords(int rank) throws MPIException {
        c();
        return checked(MPI.ERR_RANK, "getCoords", () -> grid.coords(rank));
    }

    /**
     * The neighbours {@code disp} steps down and up dimension {@code direction}: the rank to receive
     * from and the rank to send to, {@link MPI#PROC_NULL} past the edge of a dimension that is not
     * periodic.
     */
    public ShiftParms shift(int direction, int disp) throws MPIException {
        Communicator c = c();
        int[] ranks = checked(MPI.ERR_DIMS, "shift", () -> grid.shift(c.rank(), direction, disp, MPI.PROC_NULL));
        return new ShiftParms(ranks[0], ranks[1]);
    }

    /**
     * The sub-grid keeping the dimensions where {@code remainDims} is true: the processes that agree
     * on the other coordinates form one. Collective.
     */
    public CartComm sub(boolean[] remainDims) throws MPIException {
        Communicator c = c();
        int colour = checked(MPI.ERR_DIMS, "sub", () -> grid.subColour(c.rank(), remainDims));
        queue().drain();
        try {
            return new CartComm(c.split(colour, c.rank()), errhandler(), grid.sub(remainDims));
        } catch (RuntimeException e) {
            throw fail(e, "sub");
        }
    }

    /** The rank this process would have on a grid of {@code dims}: its own, or {@link MPI#UNDEFINED} beyond the grid. */
    public int map(int[] dims, boolean[] periods) throws MPIException {
        Communicator c = c();
        CartGrid g = checked(MPI.ERR_DIMS, "map", () -> CartGrid.of(dims, periods, c.size()));
        return c.rank() < g.size() ? c.rank() : MPI.UNDEFINED;
    }

    /**
     * Fills the zero entries of {@code dims} so that the product of all entries is {@code nnodes},
     * the filled sizes as close to each other as possible, in non-increasing order; entries already
     * set are kept, and their product must divide {@code nnodes} ({@link MPI#ERR_DIMS} otherwise).
     */
    public static void createDims(int nnodes, int[] dims) throws MPIException {
        MPI.check();
        try {
            CartGrid.dimsCreate(nnodes, dims);
        } catch (IllegalArgumentException e) {
            throw Errors.handle(MPI.worldErrhandler(), Errors.error(MPI.ERR_DIMS, "createDims: " + e.getMessage()));
        }
    }
}
