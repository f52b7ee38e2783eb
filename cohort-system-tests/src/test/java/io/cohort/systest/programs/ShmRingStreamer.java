package io.cohort.systest.programs;

import io.cohort.Cohort;
import io.cohort.Communicator;
import io.cohort.Request;

/**
 * {@code ShmRingStreamer <marker>}: every peer endlessly passes 256 KiB messages round a ring
 * (to rank+1, from rank-1), so the shared-memory segments are in constant use. Prints the job id
 * and the job's shared-memory directory (rank 0) and "rank R streaming" once the first round went through. The marker only tags the
 * command line so a test can find the processes.
 */
public final class ShmRingStreamer {
    private ShmRingStreamer() {
    }

    public static void main(String[] args) {
        Communicator world = Cohort.init();
        int n = world.size();
        int next = (world.rank() + 1) % n;
        int prev = (world.rank() + n - 1) % n;
        byte[] data = new byte[256 << 10];
        if (world.rank() == 0) {
            System.out.println("job " + System.getenv("COHORT_JOB_ID"));
            System.out.println("shm-dir " + System.getenv("COHORT_SHM_JOB_DIR"));
        }
        for (long round = 0;; round++) {
            Request r = world.isend(next, 1, data);
            world.recv(prev, 1);
            r.await();
            if (round == 0) {
                System.out.println("rank " + world.rank() + " streaming");
                System.out.flush();
            }
        }
    }
}
