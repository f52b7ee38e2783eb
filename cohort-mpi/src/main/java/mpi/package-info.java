/**
 * The Open MPI Java bindings API (Open MPI 4.x/5.x, package {@code mpi}) implemented over Cohort's
 * own API ({@code io.cohort}): a program written against the bindings compiles against
 * cohort-mpi.jar unmodified and runs with {@code cohort run -n N -cp cohort-mpi.jar:. Program}.
 *
 * <p>{@link mpi.MPI#Init} attaches to the world communicator Cohort sets up for the peer
 * ({@code io.cohort.Cohort.init()}); every communicator, group, request and status here is a thin
 * handle over Cohort's. Buffers are Java arrays or NIO buffers (direct or not) in every call,
 * the nonblocking ones included. See docs/mpi.md for what is supported and where it deviates.
 *
 * <p>Depends on the JDK and {@code io.cohort} (cohort-core) only.
 */
package mpi;
