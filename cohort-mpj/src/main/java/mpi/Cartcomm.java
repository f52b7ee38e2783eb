package mpi;

import io.cohort.Communicator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A communicator with a Cartesian topology: process ranks laid out on a grid of {@code dims}, in
 * row-major order (the last dimension varies fastest), periodic where {@code periods} says.
 * Ranks are those of the communicator it was made from (Cohort does not reorder).
 *
 * <p>Immutable apart from what {@link Comm} holds; any thread.
 */
public class Cartcomm extends Intracomm {
    private final int[] dims;
    private final boolean[] periods;

    private Cartcomm(Communicator c, int[] dims, boolean[] periods) {
        super(c);
        this.dims = dims;
        this.periods = periods;
    }

    static Cartcomm create(Intracomm parent, int[] dims, boolean[] periods) {
        Communicator c = parent.c("Create_cart");
        if (dims == null || periods == null || dims.length != periods.length) {
            throw Errors.error("Create_cart needs as many periods as dimensions");
        }
        long n = 1;
        for (int d : dims) {
            if (d <= 0) {
                throw Errors.error("Create_cart: dimension sizes must be positive, not " + Arrays.toString(dims));
            }
            n *= d;
        }
        if (n > c.size()) {
            throw Errors.error("Create_cart: a grid of " + Arrays.toString(dims) + " needs " + n
                    + " processes but the communicator has " + c.size());
        }
        try {
            Communicator s = c.split(c.rank() < n ? 0 : io.cohort.Group.UNDEFINED, c.rank());
            return s == null ? null : new Cartcomm(s, dims.clone(), periods.clone());
        } catch (RuntimeException e) {
            throw Errors.of(e, "Create_cart");
        }
    }

    /** A duplicate with the same topology. Collective. */
    @Override
    public Object clone() throws MPIException {
        Communicator c = c("clone");
        try {
            return new Cartcomm(c.dup(), dims, periods);
        } catch (RuntimeException e) {
            throw Errors.of(e, "clone");
        }
    }

    /** The rank at {@code coords}; a periodic dimension wraps, a coordinate outside another is an error. */
    public int Rank(int[] coords) throws MPIException {
        c("Rank");
        if (coords == null || coords.length != dims.length) {
            throw Errors.error("Cartcomm.Rank needs " + dims.length + " coordinates, not "
                    + (coords == null ? "null" : String.valueOf(coords.length)));
        }
        int rank = 0;
        for (int i = 0; i < dims.length; i++) {
            int x = coords[i];
            if (periods[i]) {
                x = Math.floorMod(x, dims[i]);
            } else if (x < 0 || x >= dims[i]) {
                throw Errors.error("Cartcomm.Rank: coordinate " + x + " is outside dimension " + i + " of size " + dims[i]
                        + ", which is not periodic");
            }
            rank = rank * dims[i] + x;
        }
        return rank;
    }

    /** The coordinates of {@code rank}. */
    public int[] Coords(int rank) throws MPIException {
        Communicator c = c("Coords");
        if (rank < 0 || rank >= c.size()) {
            throw Errors.error("Cartcomm.Coords: rank " + rank + " is not in this communicator of " + c.size());
        }
        int[] out = new int[dims.length];
        for (int i = dims.length - 1; i >= 0; i--) {
            out[i] = rank % dims[i];
            rank /= dims[i];
        }
        return out;
    }

    /**
     * The neighbours {@code disp} steps down and up dimension {@code direction}: the rank to
     * receive from and the rank to send to, {@link MPI#PROC_NULL} past the edge of a non-periodic
     * dimension.
     */
    public ShiftParms Shift(int direction, int disp) throws MPIException {
        Communicator c = c("Shift");
        if (direction < 0 || direction >= dims.length) {
            throw Errors.error("Cartcomm.Shift: direction " + direction + " is not one of the " + dims.length
                    + " dimensions");
        }
        int[] me = Coords(c.rank());
        return new ShiftParms(neighbour(me, direction, -disp), neighbour(me, direction, disp));
    }

    private int neighbour(int[] me, int direction, int step) {
        int[] at = me.clone();
        at[direction] += step;
        if (!periods[direction] && (at[direction] < 0 || at[direction] >= dims[direction])) {
            return MPI.PROC_NULL;
        }
        return Rank(at);
    }

    /**
     * The sub-grids keeping the dimensions where {@code remain_dims} is true: the processes that
     * agree on the other coordinates form one. Collective.
     */
    public Cartcomm Sub(boolean[] remain_dims) throws MPIException {
        Communicator c = c("Sub");
        if (remain_dims == null || remain_dims.length != dims.length) {
            throw Errors.error("Cartcomm.Sub needs " + dims.length + " flags, one per dimension");
        }
        int[] me = Coords(c.rank());
        int color = 0;
        List<Integer> keptDims = new ArrayList<>();
        List<Boolean> keptPeriods = new ArrayList<>();
        for (int i = 0; i < dims.length; i++) {
            if (remain_dims[i]) {
                keptDims.add(dims[i]);
                keptPeriods.add(periods[i]);
            } else {
                color = color * dims[i] + me[i];
            }
        }
        int[] d = keptDims.stream().mapToInt(Integer::intValue).toArray();
        boolean[] p = new boolean[d.length];
        for (int i = 0; i < p.length; i++) {
            p[i] = keptPeriods.get(i);
        }
        try {
            return new Cartcomm(c.split(color, c.rank()), d, p);
        } catch (RuntimeException e) {
            throw Errors.of(e, "Sub");
        }
    }

    /** The rank this process would have on a grid of {@code dims}: its own, or {@link MPI#UNDEFINED} beyond the grid. */
    public int Map(int[] dims, boolean[] periods) throws MPIException {
        Communicator c = c("Map");
        long n = 1;
        for (int d : dims) {
            n *= d;
        }
        return c.rank() < n ? c.rank() : MPI.UNDEFINED;
    }

    /** The grid's dimensions, periods and this process's coordinates. */
    public CartParms Get() throws MPIException {
        Communicator c = c("Get");
        return new CartParms(dims.clone(), periods.clone(), Coords(c.rank()));
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
        if (dims == null || nnodes <= 0) {
            throw Errors.error("Dims_create needs a positive number of nodes and an array of dimensions");
        }
        int fixed = 1;
        List<Integer> free = new ArrayList<>();
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] < 0) {
                throw Errors.error("Dims_create: dimension " + i + " is negative: " + dims[i]);
            }
            if (dims[i] == 0) {
                free.add(i);
            } else {
                fixed *= dims[i];
            }
        }
        if (nnodes % fixed != 0) {
            throw Errors.error("Dims_create: " + nnodes + " nodes do not divide into the given dimensions "
                    + Arrays.toString(dims));
        }
        int rest = nnodes / fixed;
        if (free.isEmpty()) {
            if (rest != 1) {
                throw Errors.error("Dims_create: the dimensions " + Arrays.toString(dims) + " make " + fixed
                        + " nodes, not " + nnodes);
            }
            return;
        }
        int[] sizes = new int[free.size()];
        Arrays.fill(sizes, 1);
        List<Integer> primes = new ArrayList<>();
        for (int p = 2; (long) p * p <= rest; p++) {
            while (rest % p == 0) {
                primes.add(p);
                rest /= p;
            }
        }
        if (rest > 1) {
            primes.add(rest);
        }
        // Largest factors first, each onto the currently smallest dimension.
        for (int i = primes.size() - 1; i >= 0; i--) {
            int smallest = 0;
            for (int j = 1; j < sizes.length; j++) {
                if (sizes[j] < sizes[smallest]) {
                    smallest = j;
                }
            }
            sizes[smallest] *= primes.get(i);
        }
        Arrays.sort(sizes);
        for (int j = 0; j < free.size(); j++) {
            dims[free.get(j)] = sizes[sizes.length - 1 - j];
        }
    }
}
