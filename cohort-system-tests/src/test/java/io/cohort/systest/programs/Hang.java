package io.cohort.systest.programs;

import io.cohort.Cohort;
import io.cohort.Communicator;

import java.util.concurrent.CountDownLatch;

/**
 * {@code Hang}: a deliberately hung job for {@code cohort stacks}. After a barrier every rank prints
 * "rank R ready"; then rank 0 waits forever in {@link #stuck()}, and every other rank waits in
 * {@code world.recv(0, 99)} for a message rank 0 never sends.
 */
public final class Hang {
    private Hang() {
    }

    public static void main(String[] args) throws InterruptedException {
        Communicator world = Cohort.init();
        int rank = world.rank();
        world.barrier();
        System.out.println("rank " + rank + " ready");
        System.out.flush();
        if (rank == 0) {
            stuck();
        } else {
            world.recv(0, 99);
        }
    }

    /** Where rank 0 hangs: a latch nobody counts down. */
    static void stuck() throws InterruptedException {
        new CountDownLatch(1).await();
    }
}
