package io.cohort.systest.programs;

import io.cohort.Cohort;
import io.cohort.Communicator;

/**
 * {@code MismatchedCollectives}: a deadlock MPI programs make when ranks take different branches.
 * After a barrier every rank prints "rank R calls C"; then the last rank calls a bcast from root 0
 * where every other rank calls a barrier, and the job waits for ever.
 */
public final class MismatchedCollectives {
    private MismatchedCollectives() {
    }

    public static void main(String[] args) {
        Communicator world = Cohort.init();
        int rank = world.rank();
        boolean last = rank == world.size() - 1;
        world.barrier();
        System.out.println("rank " + rank + " calls " + (last ? "bcast" : "barrier"));
        System.out.flush();
        if (last) {
            world.bcast(0, new int[4]);
        } else {
            world.barrier();
        }
    }
}
