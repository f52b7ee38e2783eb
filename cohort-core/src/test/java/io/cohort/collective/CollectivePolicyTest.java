package io.cohort.collective;

import io.cohort.Op;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.cohort.collective.Algorithm.Operation.ALLGATHER;
import static io.cohort.collective.Algorithm.Operation.ALLREDUCE;
import static io.cohort.collective.Algorithm.Operation.BARRIER;
import static io.cohort.collective.Algorithm.Operation.BCAST;
import static io.cohort.collective.Algorithm.Operation.REDUCE;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The choice table of docs/collectives.md, pinned. */
@Timeout(10)
class CollectivePolicyTest {
    @Test
    void autoUsesTheDomainForBcastsInOneDatagramAtThreeOrMorePeers() {
        CollectivePolicy p = new CollectivePolicy(CollectiveMode.AUTO);
        int framing = CollectivePolicy.BCAST_FRAMING_BYTES;
        assertEquals(Algorithm.BCAST_BINOMIAL, p.choose(BCAST, 2, 100, null));
        assertEquals(Algorithm.BCAST_DOMAIN, p.choose(BCAST, 3, 1400 - framing, null, false, 1400));
        assertEquals(Algorithm.BCAST_BINOMIAL, p.choose(BCAST, 8, 1400 - framing + 1, null, false, 1400));
        assertEquals(Algorithm.BCAST_DOMAIN, p.choose(BCAST, 8, 4096, null, false, 8900), "a jumbo frame holds 4 KiB");
        assertEquals(Algorithm.BCAST_BINOMIAL, p.choose(BCAST, 8, 4096, null, false, 1400));
        assertEquals(Algorithm.BCAST_BINOMIAL, p.choose(BCAST, 2, 8, null, false, 8900), "at N = 2 one unicast does");
        assertEquals(Algorithm.BARRIER_DISSEMINATION, p.choose(BARRIER, 8, 0, null));
        assertEquals(Algorithm.ALLGATHER_RECURSIVE_DOUBLING, p.choose(ALLGATHER, 8, 1000, null));
        assertEquals(Algorithm.ALLGATHER_RING, p.choose(ALLGATHER, 8, CollectivePolicy.ALLGATHER_RING_MIN_BYTES, null));
        assertEquals(Algorithm.ALLREDUCE_RECURSIVE_DOUBLING, p.choose(ALLREDUCE, 8, 2048, Op.SUM));
        assertEquals(Algorithm.ALLREDUCE_RABENSEIFNER, p.choose(ALLREDUCE, 8, 16 << 10, Op.SUM));
        assertEquals(Algorithm.ALLREDUCE_RECURSIVE_DOUBLING, p.choose(ALLREDUCE, 8, 1 << 20,
                Op.create("whole", false, (a, b, n) -> { })), "an op that must not be split is never split");
        assertEquals(Algorithm.REDUCE_BINOMIAL, p.choose(REDUCE, 8, 1 << 20, Op.SUM));
    }

    @Test
    void beforeTheDomainIsOpenABcastThatMightFitADatagramAsksForItSoItsDatagramSizeBecomesKnown() {
        CollectivePolicy p = new CollectivePolicy(CollectiveMode.AUTO);
        assertEquals(Algorithm.BCAST_DOMAIN, p.choose(BCAST, 3, 60_000, null));
        assertEquals(Algorithm.BCAST_BINOMIAL, p.choose(BCAST, 3, 60_000, null, false, 1400));
        assertEquals(Algorithm.BCAST_BINOMIAL, p.choose(BCAST, 3, 1 << 20, null), "longer than any datagram");
        assertEquals(Algorithm.BCAST_SHARED_MEMORY, p.choose(BCAST, 3, 8, null, true, CollectivePolicy.DATAGRAM_UNKNOWN),
                "never over shared memory only");
    }

    @Test
    void autoKeepsToSharedMemoryWhenEveryPeerIsOverItButBcastModeAndForcingDoNot() {
        CollectivePolicy p = new CollectivePolicy(CollectiveMode.AUTO);
        assertEquals(Algorithm.BCAST_SHARED_MEMORY, p.choose(BCAST, 4, 8, null, true, 1400));
        assertEquals(Algorithm.BCAST_DOMAIN, p.choose(BCAST, 4, 8, null, false, 1400));
        assertEquals(Algorithm.BCAST_DOMAIN, new CollectivePolicy(CollectiveMode.BCAST).choose(BCAST, 4, 8, null, true, 1400));
        p.force(Algorithm.BCAST_DOMAIN);
        assertEquals(Algorithm.BCAST_DOMAIN, p.choose(BCAST, 4, 8, null, true, 1400));
    }

    @Test
    void namedAlgorithmsParseInAnyCaseAndTheReduceMulticastFallsBackToTheTree() {
        assertEquals(java.util.List.of(Algorithm.ALLREDUCE_REDUCE_MULTICAST, Algorithm.BCAST_BINOMIAL),
                CollectivePolicy.parseForced(" allreduce-reduce-multicast , BCAST_BINOMIAL"));
        assertEquals(java.util.List.of(), CollectivePolicy.parseForced(" "));
        CollectivePolicy p = new CollectivePolicy(CollectiveMode.AUTO);
        p.force(Algorithm.ALLREDUCE_REDUCE_MULTICAST);
        assertEquals(Algorithm.ALLREDUCE_REDUCE_BCAST, p.choose(ALLREDUCE, 1, 8, Op.SUM), "one peer has no one to multicast to");
        assertEquals(Algorithm.ALLREDUCE_REDUCE_BCAST,
                p.withoutDomain(Algorithm.ALLREDUCE_REDUCE_MULTICAST, 4, 8, Op.SUM, CollectivePolicy.Peers.UNKNOWN), "no domain: the same shape by the tree");
    }

    @Test
    void wherePeersOutnumberCoresCollectivesSendFewerMessages() {
        long d = CollectivePolicy.DATAGRAM_UNKNOWN;
        long min = CollectivePolicy.ALLREDUCE_REDUCE_BCAST_MIN_BYTES;
        CollectivePolicy.Peers shmCrowded = new CollectivePolicy.Peers(true, false, true);
        CollectivePolicy.Peers netCrowded = new CollectivePolicy.Peers(false, true, true);
        CollectivePolicy.Peers netRoomy = new CollectivePolicy.Peers(false, true, false);
        CollectivePolicy pp = new CollectivePolicy(CollectiveMode.P2P);
        assertEquals(Algorithm.ALLREDUCE_RECURSIVE_DOUBLING, pp.choose(ALLREDUCE, 4, min - 1, Op.SUM, shmCrowded, d),
                "short vectors over shared memory keep the fewest rounds");
        assertEquals(Algorithm.ALLREDUCE_REDUCE_BCAST, pp.choose(ALLREDUCE, 4, min, Op.SUM, shmCrowded, d));
        assertEquals(Algorithm.ALLREDUCE_REDUCE_BCAST, pp.choose(ALLREDUCE, 4, 1 << 20, Op.SUM, shmCrowded, d));
        for (CollectiveMode mode : new CollectiveMode[] {CollectiveMode.AUTO, CollectiveMode.P2P}) {
            CollectivePolicy p = new CollectivePolicy(mode);
            long linear = CollectivePolicy.ALLREDUCE_LINEAR_MAX_BYTES;
            assertEquals(Algorithm.ALLREDUCE_LINEAR, p.choose(ALLREDUCE, 8, 8, Op.SUM, netCrowded, d));
            assertEquals(Algorithm.ALLREDUCE_LINEAR, p.choose(ALLREDUCE, 3, linear, Op.SUM, netCrowded, d));
            assertEquals(Algorithm.ALLREDUCE_REDUCE_BCAST, p.choose(ALLREDUCE, 8, linear + 1, Op.SUM, netCrowded, d));
            assertEquals(Algorithm.ALLREDUCE_REDUCE_BCAST, p.choose(ALLREDUCE, 8, 1 << 20,
                    Op.create("whole", false, (a, b, n) -> { }), netCrowded, d), "any op can be reduced and sent");
            assertEquals(Algorithm.ALLREDUCE_RECURSIVE_DOUBLING, p.choose(ALLREDUCE, 2, 1 << 12, Op.SUM, netCrowded, d),
                    "at N = 2 both send two messages; one round is better");
            assertEquals(Algorithm.ALLREDUCE_RECURSIVE_DOUBLING, p.choose(ALLREDUCE, 8, 8, Op.SUM, netRoomy, d));
            assertEquals(Algorithm.ALLREDUCE_RABENSEIFNER, p.choose(ALLREDUCE, 8, 1 << 20, Op.SUM, netRoomy, d));
        }
        CollectivePolicy a = new CollectivePolicy(CollectiveMode.AUTO);
        long most = CollectivePolicy.ALLGATHER_GATHER_LINEAR_MAX_BYTES;
        assertEquals(Algorithm.ALLGATHER_GATHER_LINEAR, a.choose(ALLGATHER, 8, 64, null, netCrowded, d));
        assertEquals(Algorithm.ALLGATHER_GATHER_LINEAR, a.choose(ALLGATHER, 8, most, null, netCrowded, d));
        assertEquals(Algorithm.ALLGATHER_RING, a.choose(ALLGATHER, 8, most + 1, null, netCrowded, d));
        assertEquals(Algorithm.ALLGATHER_RECURSIVE_DOUBLING, a.choose(ALLGATHER, 2, 64, null, netCrowded, d), "N = 2: one exchange");
        assertEquals(Algorithm.ALLGATHER_RECURSIVE_DOUBLING, pp.choose(ALLGATHER, 8, 64, null, shmCrowded, d),
                "over shared memory the in-place recursive doubling is faster");
        assertEquals(Algorithm.ALLGATHER_RECURSIVE_DOUBLING, a.choose(ALLGATHER, 8, 64, null, netRoomy, d));
        assertEquals(Algorithm.BCAST_DOMAIN, a.choose(BCAST, 8, 256, null, netRoomy, 1472), "one datagram: multicast");
        assertEquals(Algorithm.BCAST_DOMAIN, a.choose(BCAST, 3, 8, null, netRoomy, d), "before the domain opens");
        assertEquals(Algorithm.BCAST_BINOMIAL, a.choose(BCAST, 8, 256, null, netCrowded, 1472),
                "crowded peers: the tree even for one datagram");
        assertEquals(Algorithm.BCAST_BINOMIAL, a.choose(BCAST, 3, 8, null, netCrowded, d),
                "crowded peers never open the domain for a bcast");
        assertEquals(Algorithm.BCAST_DOMAIN, new CollectivePolicy(CollectiveMode.BCAST).choose(BCAST, 8, 256, null,
                netCrowded, 1472), "--collectives bcast still multicasts");
        assertEquals(Algorithm.BCAST_BINOMIAL, a.choose(BCAST, 8, 4096, null, netCrowded, 1472),
                "beyond one datagram the tree, crowded or not");
        assertEquals(Algorithm.BCAST_BINOMIAL, a.choose(BCAST, 8, 64 << 10, null, netCrowded, 1472));
        assertEquals(Algorithm.BCAST_BINOMIAL, pp.choose(BCAST, 8, 4096, null, shmCrowded, 1472));
        assertEquals(Algorithm.BCAST_BINOMIAL, a.choose(BCAST, 8, 4096, null, netRoomy, 1472));
        assertEquals(Algorithm.BCAST_BINOMIAL, new CollectivePolicy(CollectiveMode.P2P).choose(BCAST, 8, 8, null, netCrowded, d));
        assertEquals(Algorithm.BARRIER_LINEAR, a.choose(BARRIER, 8, 0, null, netCrowded, d));
        assertEquals(Algorithm.BARRIER_LINEAR, a.choose(BARRIER, 3, 0, null, netCrowded, 1472));
        assertEquals(Algorithm.BARRIER_DISSEMINATION, a.choose(BARRIER, 2, 0, null, netCrowded, d), "one round at N = 2 either way");
        assertEquals(Algorithm.BARRIER_DISSEMINATION, pp.choose(BARRIER, 8, 0, null, shmCrowded, d));
        assertEquals(Algorithm.BARRIER_DISSEMINATION, a.choose(BARRIER, 8, 0, null, netRoomy, d));
        assertEquals(Algorithm.BARRIER_LINEAR, new CollectivePolicy(CollectiveMode.P2P).choose(BARRIER, 8, 0, null, netCrowded, d));
        CollectivePolicy b = new CollectivePolicy(CollectiveMode.BCAST);
        assertEquals(Algorithm.BARRIER_DOMAIN, b.choose(BARRIER, 8, 0, null, netCrowded, d));
        assertEquals(Algorithm.ALLREDUCE_DOMAIN, b.choose(ALLREDUCE, 8, 8, Op.SUM, netCrowded, d));
        assertEquals(Algorithm.ALLREDUCE_LINEAR, b.withoutDomain(Algorithm.ALLREDUCE_DOMAIN, 8, 8, Op.SUM, netCrowded));
    }

    /**
     * Where every peer is over shared memory, AUTO runs barrier, bcast, allgather, reduce and
     * allreduce through the communicator's segment, crowded or not; P2P never does; one peer, ops
     * that must not be split and a communicator without the segment go by point-to-point.
     */
    @Test
    void autoRunsFiveCollectivesThroughSharedMemoryWhereAllPeersShareIt() {
        long d = CollectivePolicy.DATAGRAM_UNKNOWN;
        CollectivePolicy a = new CollectivePolicy(CollectiveMode.AUTO);
        for (CollectivePolicy.Peers shm : new CollectivePolicy.Peers[] {new CollectivePolicy.Peers(true, false, true),
            new CollectivePolicy.Peers(true, false, false)}) {
            assertEquals(Algorithm.BARRIER_SHARED_MEMORY, a.choose(BARRIER, 8, 0, null, shm, d));
            assertEquals(Algorithm.BCAST_SHARED_MEMORY, a.choose(BCAST, 2, 1 << 20, null, shm, d));
            assertEquals(Algorithm.ALLGATHER_SHARED_MEMORY, a.choose(ALLGATHER, 9, 64, null, shm, d));
            assertEquals(Algorithm.ALLREDUCE_SHARED_MEMORY, a.choose(ALLREDUCE, 4, 8, Op.SUM, shm, d));
            assertEquals(Algorithm.ALLREDUCE_SHARED_MEMORY, a.choose(ALLREDUCE, 4, 1 << 20, Op.MAXLOC, shm, d));
            assertEquals(Algorithm.REDUCE_SHARED_MEMORY, a.choose(Algorithm.Operation.REDUCE, 3, 8, Op.SUM, shm, d));
        }
        CollectivePolicy.Peers shm = new CollectivePolicy.Peers(true, false, false);
        assertEquals(Algorithm.ALLREDUCE_RECURSIVE_DOUBLING, a.choose(ALLREDUCE, 4, 1 << 20, Op.create("whole", true,
                (x, y, n) -> { }), shm, d), "a value that must not be split cannot be chunked");
        assertEquals(Algorithm.BARRIER_DISSEMINATION, a.choose(BARRIER, 1, 0, null, shm, d), "one peer shares nothing");
        assertEquals(Algorithm.ALLTOALL_PAIRWISE, a.choose(Algorithm.Operation.ALLTOALL, 4, 64, null, shm, d));
        assertEquals(Algorithm.BCAST_BINOMIAL, new CollectivePolicy(CollectiveMode.P2P).choose(BCAST, 4, 8, null, shm, d));
        assertEquals(Algorithm.ALLREDUCE_RECURSIVE_DOUBLING,
                a.withoutSharedMemory(Algorithm.ALLREDUCE_SHARED_MEMORY, 4, 8, Op.SUM, shm), "no segment: p2p");
        CollectivePolicy forced = new CollectivePolicy(CollectiveMode.P2P);
        forced.force(Algorithm.ALLGATHER_SHARED_MEMORY);
        assertEquals(Algorithm.ALLGATHER_SHARED_MEMORY, forced.choose(ALLGATHER, 4, 8, null, CollectivePolicy.Peers.UNKNOWN, d),
                "forced: tried, and the communicator falls back if it has no segment");
    }

    @Test
    void bcastModeUsesTheDomainWhereItCanAndP2pNever() {
        CollectivePolicy b = new CollectivePolicy(CollectiveMode.BCAST);
        assertEquals(Algorithm.ALLREDUCE_DOMAIN, b.choose(ALLREDUCE, 2, 1 << 20, Op.SUM));
        assertEquals(Algorithm.BARRIER_DOMAIN, b.choose(BARRIER, 2, 0, null));
        assertEquals(Algorithm.BCAST_BINOMIAL, b.choose(BCAST, 1, 0, null), "one peer has nobody to multicast to");
        CollectivePolicy p = new CollectivePolicy(CollectiveMode.P2P);
        assertEquals(Algorithm.BCAST_BINOMIAL, p.choose(BCAST, 9, 10, null));
        assertEquals(Algorithm.ALLGATHER_RECURSIVE_DOUBLING, p.choose(ALLGATHER, 9, 10, null));
        assertEquals(Algorithm.ALLGATHER_RING, p.withoutDomain(Algorithm.ALLGATHER_DOMAIN, 9, 1 << 20, null, CollectivePolicy.Peers.UNKNOWN));
    }

    @Test
    void aForcedAlgorithmWinsUntilCleared() {
        CollectivePolicy p = new CollectivePolicy(CollectiveMode.AUTO);
        p.force(Algorithm.ALLGATHER_RING);
        assertEquals(Algorithm.ALLGATHER_RING, p.choose(ALLGATHER, 4, 8, null));
        p.clearForced();
        assertEquals(Algorithm.ALLGATHER_RECURSIVE_DOUBLING, p.choose(ALLGATHER, 4, 8, null));
        p.force(Algorithm.ALLGATHER_DOMAIN);
        assertEquals(Algorithm.ALLGATHER_DOMAIN, p.choose(ALLGATHER, 4, 8, null));
    }
}
