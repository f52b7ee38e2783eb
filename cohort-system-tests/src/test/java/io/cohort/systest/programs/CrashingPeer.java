package io.cohort.systest.programs;

import io.cohort.Cohort;
import io.cohort.Communicator;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code CrashingPeer <rank> throw|throw-closing|oom}: once the job is wired up, that rank lets an
 * exception escape from main ("throw"; "throw-closing" from a try-with-resources block that closes
 * its communicator first) or fills its heap until an OutOfMemoryError ("oom"; run it with a small
 * -Xmx); every other peer blocks receiving from it and so fails as collateral damage.
 */
public final class CrashingPeer {
    private CrashingPeer() {
    }

    public static void main(String[] args) {
        int victim = Integer.parseInt(args[0]);
        if (args[1].equals("throw-closing")) {
            // The victim closes its communicator on the way out, so the others see it closed, not failed.
            try (Communicator world = Cohort.init()) {
                world.barrier();
                if (world.rank() == victim) {
                    throw new IllegalStateException("rank " + victim + " fails on purpose");
                }
                world.recv(victim, 0);
            }
            return;
        }
        Communicator world = Cohort.init();
        world.barrier();
        if (world.rank() == victim) {
            if (args[1].equals("oom")) {
                List<long[]> hoard = new ArrayList<>();
                for (;;) {
                    hoard.add(new long[128 * 1024]); // 1 MiB at a time until the heap is full
                }
            }
            throw new IllegalStateException("rank " + victim + " fails on purpose");
        }
        world.recv(victim, 0);
        System.out.println("rank " + world.rank() + " unexpectedly received a message");
    }
}
