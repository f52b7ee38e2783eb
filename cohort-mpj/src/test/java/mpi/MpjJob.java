package mpi;

import io.cohort.LocalCohort;

import java.time.Duration;

/**
 * Runs an mpiJava program as N in-JVM peers over Cohort's {@link LocalCohort}: each peer thread is
 * bound to its own MPI state, calls {@link MPI#Init}, runs the body and finalizes. An error that
 * would end the process under ERRORS_ARE_FATAL throws {@link Fatal} instead, so a test sees it.
 */
final class MpjJob {
    /** The process counts the suites run at. */
    static final int[] SIZES = {1, 2, 3, 4, 8};

    @FunctionalInterface
    interface Body {
        void run(int rank, int size) throws Exception;
    }

    /** What ERRORS_ARE_FATAL became in tests. */
    static final class Fatal extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final MPIException error;

        Fatal(MPIException error) {
            super("fatal MPI error: " + error.getMessage(), error);
            this.error = error;
        }
    }

    static {
        Errors.fatalAction = e -> {
            throw new Fatal(e);
        };
    }

    private MpjJob() {
    }

    static void run(int n, Body body) {
        LocalCohort.builder().size(n).timeout(Duration.ofSeconds(50)).run(world -> {
            Peer.bind(new Peer(world));
            try {
                MPI.Init(new String[0]);
                body.run(MPI.COMM_WORLD.Rank(), MPI.COMM_WORLD.Size());
                if (MPI.Initialized()) {
                    MPI.Finalize();
                }
            } finally {
                Peer.unbind();
            }
        });
    }
}
