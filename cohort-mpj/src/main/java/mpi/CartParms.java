package mpi;

/** A Cartesian communicator's shape, as {@link Cartcomm#Get()} returns it. */
public class CartParms {
    /** Processes along each dimension. */
    public int[] dims;
    /** Whether each dimension wraps around. */
    public boolean[] periods;
    /** The calling process's coordinates. */
    public int[] coords;

    CartParms(int[] dims, boolean[] periods, int[] coords) {
        this.dims = dims;
        this.periods = periods;
        this.coords = coords;
    }
}
