package io.cohort.bench;

import io.cohort.Cohort;
import io.cohort.Communicator;

/**
 * The start-up benchmark's job (issue 7, {@code scripts/bench-cluster-box.sh}): every peer joins the
 * job and passes one barrier; rank 0 then prints the wall-clock time it passed it,
 * {@code first_barrier_epoch_ms=...}, which the script subtracts from the time it ran {@code cohort run}.
 * All peers run on one machine (namespaces share its clock), so the difference is launch to first
 * barrier passed.
 */
public final class FirstBarrierJob {
    private FirstBarrierJob() {
    }

    public static void main(String[] args) {
        try (Communicator world = Cohort.init()) {
            world.barrier();
            if (world.rank() == 0) {
                System.out.println("first_barrier_epoch_ms=" + System.currentTimeMillis());
            }
        }
    }
}
