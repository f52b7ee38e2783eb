/**
 * Machinery shared by Cohort's two MPI APIs, the Open MPI Java bindings ({@code cohort-mpi}) and
 * mpiJava 1.2 as MPJ Express has it ({@code cohort-mpj}); both are package {@code mpi}, so they
 * live in two jars, and this package is bundled into each. It holds what does not depend on
 * either API's classes: datatype layouts ({@link io.cohort.mpi.support.Layout}), element access to
 * arrays and NIO buffers ({@link io.cohort.mpi.support.ElementView}), packing items into the
 * carriers Cohort's collectives take and into wire bytes ({@link io.cohort.mpi.support.Carriers}),
 * and waiting for one of several requests ({@link io.cohort.mpi.support.Completions}).
 *
 * <p>Depends on cohort-core only. Not an API: its classes may change with either jar.
 */
package io.cohort.mpi.support;
