package io.cohort.systest.programs;

import io.cohort.Cohort;
import io.cohort.Communicator;
import io.cohort.Op;

/**
 * {@code ShmDirectoryProbe hold|exit}: joins the job, rank 0 prints "shm-dir DIR" (the job's
 * shared-memory directory from its environment), every rank takes part in an allreduce (so the
 * world's collective segment is made) and prints "rank R ready pid P sum S"; then, with "hold",
 * sleeps until killed, with "exit", ends.
 */
public final class ShmDirectoryProbe {
    private ShmDirectoryProbe() {
    }

    public static void main(String[] args) throws InterruptedException {
        Communicator world = Cohort.init();
        if (world.rank() == 0) {
            System.out.println("shm-dir " + System.getenv("COHORT_SHM_JOB_DIR"));
        }
        int[] sum = new int[1];
        world.allreduce(new int[] {world.rank() + 1}, sum, Op.SUM);
        System.out.println("rank " + world.rank() + " ready pid " + ProcessHandle.current().pid() + " sum " + sum[0]);
        System.out.flush();
        if (args.length > 0 && args[0].equals("hold")) {
            Thread.sleep(Long.MAX_VALUE);
        }
    }
}
