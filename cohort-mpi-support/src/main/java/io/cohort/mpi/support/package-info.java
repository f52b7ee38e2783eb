/**
 * Machinery shared by Cohort's two MPI APIs, the Open MPI Java bindings ({@code cohort-mpi}) and
 * mpiJava 1.2 as MPJ Express has it ({@code cohort-mpj}); both are package {@code mpi}, so they
 * live in two jars, and this package is bundled into each. It holds what does not depend on
 * either API's classes: datatype layouts ({@link io.cohort.mpi.support.Layout}), the buffer
 * adapters that turn a program's buffers into what Cohort sends and combines and copy results back
 * ({@link io.cohort.mpi.support.buffers}), topologies, inter-communicators, and waiting for one of
 * several requests ({@link io.cohort.mpi.support.Completions}).
 *
 * <p>Depends on cohort-core only. Not an API: its classes may change with either jar.
 */
package io.cohort.mpi.support;
