package mpi;

/**
 * A user-defined reduction: {@link #Call} combines {@code count} items of {@code invec} (from
 * element {@code inoffset}) into {@code inoutvec} (from element {@code inoutoffset}):
 * {@code inoutvec[i] = invec[i] op inoutvec[i]}. Both are arrays of the datatype's base type
 * ({@code Object[]} for {@link MPI#OBJECT}). Items of a derived type with gaps arrive packed back
 * to back, {@code datatype.Size()} elements each.
 */
public abstract class User_function {
    public User_function() {
    }

    public abstract void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count,
                              Datatype datatype) throws MPIException;
}
