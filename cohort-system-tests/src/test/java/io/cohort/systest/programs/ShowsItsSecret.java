package io.cohort.systest.programs;

import io.cohort.Cohort;
import io.cohort.Communicator;

import java.io.IOException;

/**
 * {@code ShowsItsSecret}: rank 0 prints the job's secret as its io-manager gave it
 * ({@code secret HEX}), then every rank waits in a barrier until rank 0's standard input ends, so a
 * test can look for the secret everywhere else (command lines, the launcher's output) while the
 * whole job is alive.
 */
public final class ShowsItsSecret {
    private ShowsItsSecret() {
    }

    public static void main(String[] args) throws IOException {
        try (Communicator world = Cohort.init()) {
            if (world.rank() == 0) {
                System.out.println("secret " + System.getenv("COHORT_JOB_KEY"));
                System.out.flush();
                while (System.in.read() >= 0) {
                    // Only the end matters.
                }
            }
            world.barrier();
        }
    }
}
