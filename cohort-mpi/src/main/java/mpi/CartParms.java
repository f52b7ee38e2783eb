package mpi;

/** A Cartesian communicator's shape, as {@link CartComm#getTopo()} returns it: dimensions, periods, and the caller's coordinates. */
public final class CartParms {
    private final int[] dims;
    private final boolean[] periods;
    private final int[] coords;

    CartParms(int[] dims, boolean[] periods, int[] coords) {
        this.dims = dims;
        this.periods = periods;
        this.coords = coords;
    }

    /** The number of dimensions. */
    public int getDimCount() {
        return dims.length;
    }

    /** Processes along dimension {@code i}. */
    public int getDim(int i) {
        return dims[i];
    }

    /** Whether dimension {@code i} wraps around. */
    public boolean getPeriod(int i) {
        return periods[i];
    }

    /** The calling process's coordinate in dimension {@code i}. */
    public int getCoord(int i) {
        return coords[i];
    }
}
