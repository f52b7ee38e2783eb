/**
 * The mpiJava 1.2 API as MPJ Express has it (package mpi) over Cohort. The shared
 * io.cohort.mpi.support packages are compiled into this module (from cohort-mpi-support's sources),
 * not exported. It holds the same packages as io.cohort.mpi: a program uses one of the two.
 */
module io.cohort.mpj {
    requires io.cohort.core;

    exports mpi;
}
