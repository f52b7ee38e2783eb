package io.cohort.systest.programs;

import io.cohort.Cohort;
import io.cohort.Communicator;

/** Every rank but {@code args[0]} calls barrier; that one returns from main at once (a program bug). */
public final class SkipsBarrier {
    private SkipsBarrier() {
    }

    public static void main(String[] args) {
        int skipper = Integer.parseInt(args[0]);
        try (Communicator world = Cohort.init()) {
            if (world.rank() != skipper) {
                world.barrier();
            }
        }
    }
}
