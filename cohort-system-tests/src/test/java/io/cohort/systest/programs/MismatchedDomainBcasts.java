package io.cohort.systest.programs;

import io.cohort.Cohort;
import io.cohort.Communicator;

/**
 * {@code MismatchedDomainBcasts}: ranks that disagree about a bcast's root on the broadcast domain
 * of a communicator that numbers them differently from the world. Ranks 1 to 3 split off with their
 * order reversed (world rank 3 is the communicator's rank 0, world rank 1 its rank 2) and run one
 * bcast there, which opens the communicator's domain; each then prints "rank R calls bcast". Then
 * world rank 3 calls a bcast from the communicator's rank 2 (world 1) and the others from its rank 0
 * (world 3): with {@code --collectives bcast} ranks 1 and 3 each request the other's multicast and
 * the job waits for ever. World rank 0 waits in a barrier on the world.
 */
public final class MismatchedDomainBcasts {
    private MismatchedDomainBcasts() {
    }

    public static void main(String[] args) {
        Communicator world = Cohort.init();
        int rank = world.rank();
        Communicator part = world.split(rank == 0 ? 0 : 1, -rank);
        if (rank > 0) {
            part.bcast(0, new int[4]);
            System.out.println("rank " + rank + " calls bcast");
            System.out.flush();
            part.bcast(rank == 3 ? 2 : 0, new int[4]);
        }
        world.barrier();
    }
}
