package io.cohort.mpi.support;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A Cartesian process topology: ranks laid out on a grid of {@code dims}, row-major (the last
 * dimension varies fastest), periodic where {@code periods} says. Ranks are those of the
 * communicator the grid was made from: Cohort does not reorder. Both MPI APIs' Cartesian
 * communicators keep one of these; a mistake is an {@link IllegalArgumentException} in one sentence,
 * which each API turns into its own error.
 *
 * <p>Immutable; any thread.
 */
public final class CartGrid {
    private final int[] dims;
    private final boolean[] periods;
    private final int size;

    private CartGrid(int[] dims, boolean[] periods, int size) {
        this.dims = dims;
        this.periods = periods;
        this.size = size;
    }

    /** The grid of {@code dims} with {@code periods}, checked against a communicator of {@code processes}. */
    public static CartGrid of(int[] dims, boolean[] periods, int processes) {
        if (dims == null || periods == null || dims.length != periods.length) {
            throw new IllegalArgumentException("a grid needs as many periods as dimensions, not "
                    + (periods == null ? "null" : String.valueOf(periods.length)) + " for "
                    + (dims == null ? "null" : String.valueOf(dims.length)));
        }
        long n = 1;
        for (int d : dims) {
            if (d <= 0) {
                throw new IllegalArgumentException("dimension sizes must be positive, not " + Arrays.toString(dims));
            }
            n *= d;
            if (n > processes) {
                break;
            }
        }
        if (n > processes) {
            throw new IllegalArgumentException("a grid of " + Arrays.toString(dims) + " needs " + product(dims)
                    + " processes but the communicator has " + processes);
        }
        return new CartGrid(dims.clone(), periods.clone(), (int) n);
    }

    private static String product(int[] dims) {
        java.math.BigInteger p = java.math.BigInteger.ONE;
        for (int d : dims) {
            p = p.multiply(java.math.BigInteger.valueOf(d));
        }
        return p.toString();
    }

    /** Processes on the grid; the communicator's ranks from this one up are left out of it. */
    public int size() {
        return size;
    }

    public int dimensions() {
        return dims.length;
    }

    public int[] dims() {
        return dims.clone();
    }

    public boolean[] periods() {
        return periods.clone();
    }

    public int dim(int i) {
        return dims[i];
    }

    public boolean period(int i) {
        return periods[i];
    }

    /** The rank at {@code coords}; a periodic dimension wraps, a coordinate outside another is a mistake. */
    public int rank(int[] coords) {
        if (coords == null || coords.length != dims.length) {
            throw new IllegalArgumentException("the grid has " + dims.length + " dimensions, so a rank needs "
                    + dims.length + " coordinates, not " + (coords == null ? "null" : String.valueOf(coords.length)));
        }
        int rank = 0;
        for (int i = 0; i < dims.length; i++) {
            int x = coords[i];
            if (periods[i]) {
                x = Math.floorMod(x, dims[i]);
            } else if (x < 0 || x >= dims[i]) {
                throw new IllegalArgumentException("coordinate " + x + " is outside dimension " + i + " of size "
                        + dims[i] + ", which is not periodic");
            }
            rank = rank * dims[i] + x;
        }
        return rank;
    }

    /** The coordinates of {@code rank}, which must be on the grid. */
    public int[] coords(int rank) {
        if (rank < 0 || rank >= size) {
            throw new IllegalArgumentException("rank " + rank + " is not on the grid of " + Arrays.toString(dims)
                    + " (ranks 0 to " + (size - 1) + ")");
        }
        int[] out = new int[dims.length];
        for (int i = dims.length - 1; i >= 0; i--) {
            out[i] = rank % dims[i];
            rank /= dims[i];
        }
        return out;
    }

    /**
     * {@code {source, dest}}: the ranks {@code disp} steps down and up dimension {@code direction}
     * from {@code rank}, {@code procNull} past the edge of a dimension that is not periodic.
     */
    public int[] shift(int rank, int direction, int disp, int procNull) {
        if (direction < 0 || direction >= dims.length) {
            throw new IllegalArgumentException("direction " + direction + " is not one of the grid's "
                    + dims.length + " dimensions");
        }
        int[] me = coords(rank);
        return new int[] {neighbour(me, direction, -(long) disp, procNull), neighbour(me, direction, disp, procNull)};
    }

    private int neighbour(int[] me, int direction, long step, int procNull) {
        long at = me[direction] + step;
        if (!periods[direction] && (at < 0 || at >= dims[direction])) {
            return procNull;
        }
        int[] c = me.clone();
        c[direction] = (int) Math.floorMod(at, (long) dims[direction]);
        return rank(c);
    }

    /**
     * The sub-grid of {@code rank}'s processes that agree with it on every dimension {@code remain}
     * drops: its colour for a split (the same for all of them, different for every other sub-grid),
     * and the grid it forms.
     */
    public int subColour(int rank, boolean[] remain) {
        checkRemain(remain);
        int[] me = coords(rank);
        int colour = 0;
        for (int i = 0; i < dims.length; i++) {
            if (!remain[i]) {
                colour = colour * dims[i] + me[i];
            }
        }
        return colour;
    }

    /** The grid of the dimensions {@code remain} keeps (see {@link #subColour}). */
    public CartGrid sub(boolean[] remain) {
        checkRemain(remain);
        int kept = 0;
        for (boolean r : remain) {
            kept += r ? 1 : 0;
        }
        int[] d = new int[kept];
        boolean[] p = new boolean[kept];
        int n = 1;
        for (int i = 0, j = 0; i < dims.length; i++) {
            if (remain[i]) {
                d[j] = dims[i];
                p[j++] = periods[i];
                n *= dims[i];
            }
        }
        return new CartGrid(d, p, n);
    }

    private void checkRemain(boolean[] remain) {
        if (remain == null || remain.length != dims.length) {
            throw new IllegalArgumentException("the grid has " + dims.length + " dimensions, so it needs "
                    + dims.length + " flags of which to keep, not " + (remain == null ? "null" : String.valueOf(remain.length)));
        }
    }

    /**
     * Fills the zero entries of {@code dims} so that the product of all entries is {@code nodes},
     * the filled sizes as close to each other as possible, in non-increasing order. Entries already
     * set are kept; their product must divide {@code nodes}.
     */
    public static void dimsCreate(int nodes, int[] dims) {
        if (dims == null || nodes <= 0) {
            throw new IllegalArgumentException("choosing dimensions needs a positive number of nodes and an array"
                    + " of dimensions, not " + nodes + " and " + (dims == null ? "null" : Arrays.toString(dims)));
        }
        long fixed = 1;
        List<Integer> free = new ArrayList<>();
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] < 0) {
                throw new IllegalArgumentException("dimension " + i + " is negative: " + dims[i]);
            }
            if (dims[i] == 0) {
                free.add(i);
            } else {
                fixed *= dims[i];
            }
        }
        if (fixed > nodes || nodes % fixed != 0) {
            throw new IllegalArgumentException(nodes + " nodes do not divide into the given dimensions "
                    + Arrays.toString(dims));
        }
        int rest = (int) (nodes / fixed);
        if (free.isEmpty()) {
            if (rest != 1) {
                throw new IllegalArgumentException("the dimensions " + Arrays.toString(dims) + " make " + fixed
                        + " nodes, not " + nodes);
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
