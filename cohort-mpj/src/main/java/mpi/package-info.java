/**
 * The mpiJava 1.2 API as MPJ Express 0.44 has it ({@code MPI}, {@code Comm}, {@code Intracomm},
 * {@code Intercomm}, {@code Cartcomm}, {@code Graphcomm}, {@code Group}, {@code Datatype},
 * {@code Request}, {@code Prequest}, {@code Status}, {@code Op}, {@code User_function},
 * {@code MPIException}), implemented over Cohort's communicators ({@code io.cohort}). A program
 * compiled against MPJ Express's {@code mpi.jar} links against this package unchanged and runs with
 * {@code cohort run -n N -cp $COHORT_HOME/lib/cohort-mpj.jar:. Program}; see docs/mpj.md.
 *
 * <p>Buffers are Java arrays: a primitive array of the datatype's base type, or an
 * {@code Object[]} for {@link mpi.MPI#OBJECT}; offsets and displacements count elements of that
 * array. Depends on cohort-core and io.cohort.mpi.support (bundled in the jar).
 */
package mpi;
