/**
 * The Open MPI Java bindings' API (package mpi) over Cohort. The shared io.cohort.mpi.support
 * packages are compiled into this module (from cohort-mpi-support's sources), not exported.
 */
module io.cohort.mpi {
    requires io.cohort.core;

    exports mpi;
}
