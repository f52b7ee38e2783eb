package io.cohort.collective;

import io.cohort.BroadcastDomain;
import io.cohort.LocalCohort;
import io.cohort.Op;
import io.cohort.Request;
import io.cohort.collective.Fixtures.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The collectives over the broadcast domain (bcast, allgather, barrier, allreduce), each forced on
 * its own, against the sequential reference for N = 2 to 9, with long messages (several chunks)
 * and under injected datagram loss; and how the modes choose and fall back.
 */
@Timeout(120)
class DomainCollectivesTest {
    private static final Algorithm[] DOMAIN = {Algorithm.BARRIER_DOMAIN, Algorithm.BCAST_DOMAIN,
        Algorithm.ALLGATHER_DOMAIN, Algorithm.ALLREDUCE_DOMAIN};

    private static void forceDomain(Collectives c) {
        for (Algorithm a : DOMAIN) {
            c.force(a);
        }
    }

    @ParameterizedTest(name = "N = {0}")
    @ValueSource(ints = {2, 3, 4, 5, 6, 7, 8, 9})
    void domainAlgorithmsMatchTheSequentialReference(int n) {
        AtomicInteger arrivals = new AtomicInteger();
        LocalCohort.builder().size(n).timeout(Duration.ofSeconds(100)).run(world -> {
            try (Collectives c = Fixtures.collectives(world, CollectiveMode.BCAST, s -> { })) {
                forceDomain(c);
                CollectiveChecks k = new CollectiveChecks(c);
                k.barrier(arrivals, 1);
                for (Kind kind : Kind.values()) {
                    for (int len : new int[] {0, 1, 7}) {
                        k.bcast(kind, len);
                        k.allgather(kind, len);
                    }
                    for (Op op : CollectiveChecks.opsFor(kind)) {
                        k.reductions(kind, 3, op);
                    }
                }
                k.matrices(3);
                c.force(Algorithm.ALLREDUCE_REDUCE_MULTICAST);
                for (Kind kind : Kind.values()) {
                    for (Op op : CollectiveChecks.opsFor(kind)) {
                        k.reductions(kind, 3, op);
                    }
                    k.reductions(kind, 0);
                }
                k.matrices(3);
                k.barrier(arrivals, 2);
            }
        });
    }

    @Test
    void longMessagesGoAsSeveralMulticasts() {
        int n = 3;
        int len = 100_000; // 400 KB: 13 chunks
        LocalCohort.builder().size(n).timeout(Duration.ofSeconds(100)).run(world -> {
            try (Collectives c = Fixtures.collectives(world, CollectiveMode.BCAST, s -> { })) {
                forceDomain(c);
                CollectiveChecks k = new CollectiveChecks(c);
                k.bcast(Kind.INT, len);
                k.allgather(Kind.BYTE, 3 * DomainCollectives.CHUNK_BYTES + 17);
                k.allgather(Kind.LONG, len / n);
                k.reductions(Kind.INT, 20_000, Op.SUM);
                c.force(Algorithm.ALLREDUCE_REDUCE_MULTICAST);
                k.reductions(Kind.INT, 20_000, Op.SUM);
                k.matrices(2_000);
            }
        });
    }

    @ParameterizedTest(name = "N = {0}")
    @ValueSource(ints = {4, 7})
    void domainAlgorithmsSurviveDatagramLoss(int n) {
        AtomicInteger arrivals = new AtomicInteger();
        java.util.concurrent.atomic.AtomicLong nacks = new java.util.concurrent.atomic.AtomicLong();
        LocalCohort.builder().size(n).fault("loss=0.05,dup=0.01,reorder=0.02,seed=" + (n * 7))
                .timeout(Duration.ofSeconds(100)).run(world -> {
                    try (Collectives c = Fixtures.collectives(world, CollectiveMode.BCAST, s -> { })) {
                        forceDomain(c);
                        CollectiveChecks k = new CollectiveChecks(c);
                        for (int round = 1; round <= 20; round++) {
                            k.barrier(arrivals, round);
                            k.bcast(Kind.DOUBLE, 7 * round);
                            k.allgather(Kind.OBJECT, 3);
                            k.reductions(Kind.LONG, round, Op.SUM);
                        }
                        c.force(Algorithm.ALLREDUCE_REDUCE_MULTICAST);
                        for (int round = 1; round <= 10; round++) {
                            k.reductions(Kind.DOUBLE, round, Op.SUM);
                        }
                        k.bcast(Kind.HEAP_BUFFER, 50_000);
                        k.allgather(Kind.INT, 5_000);
                        Request r = c.iallreduce(new int[] {world.rank()}, new int[1], Op.SUM);
                        r.await();
                        nacks.addAndGet(world.broadcastDomain().counters().nacksSent());
                    }
                });
        assertTrue(nacks.get() > 0, "5% loss must have been repaired by NACKs");
    }

    /** Counts how often the collectives asked for the domain. */
    private static final class CountingChannel implements CollectiveChannel {
        final CollectiveChannel inner;
        final AtomicInteger domainCalls;
        final boolean hasDomain;

        CountingChannel(CollectiveChannel inner, AtomicInteger domainCalls, boolean hasDomain) {
            this.inner = inner;
            this.domainCalls = domainCalls;
            this.hasDomain = hasDomain;
        }

        public int rank() {
            return inner.rank();
        }

        public int size() {
            return inner.size();
        }

        public Request isend(int dest, int tag, ByteBuffer payload) {
            return inner.isend(dest, tag, payload);
        }

        public Request irecv(int source, int tag) {
            return inner.irecv(source, tag);
        }

        public Request irecv(int source, int tag, ByteBuffer buffer, int offset, int capacity) {
            return inner.irecv(source, tag, buffer, offset, capacity);
        }

        public boolean sharedMemoryOnly() {
            return inner.sharedMemoryOnly();
        }

        public boolean anyPeerOverNetwork() {
            return inner.anyPeerOverNetwork();
        }

        public boolean peersOutnumberCores() {
            return inner.peersOutnumberCores();
        }

        public BroadcastDomain domain() {
            domainCalls.incrementAndGet();
            if (!hasDomain) {
                throw new UnsupportedOperationException("this test channel has no broadcast domain");
            }
            return inner.domain();
        }
    }

    private static void someOfEach(Collectives c) {
        CollectiveChecks k = new CollectiveChecks(c);
        k.bcast(Kind.INT, 10);
        k.allgather(Kind.INT, 10);
        k.reductions(Kind.INT, 10, Op.SUM);
        k.reductions(Kind.DOUBLE, 50_000, Op.MAX);
        c.barrier();
        c.ibarrier().await();
    }

    @Test
    void p2pModeNeverOpensTheDomain() {
        AtomicInteger calls = new AtomicInteger();
        LocalCohort.builder().size(4).run(world -> {
            CollectiveChannel ch = new CountingChannel(Fixtures.channel(world, Fixtures.CONTEXT), calls, true);
            try (Collectives c = new Collectives(ch, CollectiveMode.P2P, s -> { })) {
                someOfEach(c);
            }
        });
        assertEquals(0, calls.get());
    }

    @Test
    void autoModeUsesTheDomainForShortBcastsAndSaysSo() {
        ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
        LocalCohort.builder().size(4).cores(4).run(world -> { // a core per peer: nobody crowded
            try (Collectives c = Fixtures.collectives(world, CollectiveMode.AUTO, world.rank() == 0 ? log::add : s -> { })) {
                someOfEach(c);
            }
        });
        List<String> lines = List.copyOf(log);
        assertTrue(lines.contains("cohort: bcast of 40 B at 4 peers uses domain-multicast"), lines.toString());
        assertTrue(lines.contains("cohort: allgather of 160 B at 4 peers uses recursive-doubling"), lines.toString());
        assertTrue(lines.contains("cohort: allreduce of 400000 B at 4 peers uses reduce-scatter+allgather"), lines.toString());
        assertTrue(lines.contains("cohort: barrier of 0 B at 4 peers uses dissemination"), lines.toString());
        assertEquals(1, lines.stream().filter(l -> l.contains("domain-multicast")).count(), "told once per choice");
    }

    @Test
    void autoModeMulticastsABcastThatFitsOneOfTheDomainsDatagramsAndTreesALongerOne() {
        ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
        int[] perDatagram = new int[1];
        LocalCohort.builder().size(4).cores(4).run(world -> {
            try (Collectives c = Fixtures.collectives(world, CollectiveMode.AUTO, world.rank() == 0 ? log::add : s -> { })) {
                byte[] first = new byte[4096];
                if (world.rank() == 0) {
                    java.util.Arrays.fill(first, (byte) 7);
                }
                c.bcast(0, first); // opens the domain: loopback's MTU gives datagrams of 8972 bytes
                assertEquals(7, first[4095]);
                perDatagram[0] = world.broadcastDomain().messageBytesPerDatagram();
                int longest = perDatagram[0] - CollectivePolicy.BCAST_FRAMING_BYTES;
                for (int length : new int[] {longest, longest + 1}) {
                    byte[] b = new byte[length];
                    if (world.rank() == 0) {
                        java.util.Arrays.fill(b, (byte) length);
                    }
                    c.bcast(0, b);
                    assertEquals((byte) length, b[length - 1]);
                }
            }
        });
        int longest = perDatagram[0] - CollectivePolicy.BCAST_FRAMING_BYTES;
        List<String> lines = List.copyOf(log);
        assertTrue(perDatagram[0] > 8000, "loopback datagrams fill a jumbo frame: " + perDatagram[0]);
        assertTrue(lines.contains("cohort: bcast of 4096 B at 4 peers uses domain-multicast"), lines.toString());
        assertTrue(lines.contains("cohort: bcast of " + (longest + 1) + " B at 4 peers uses binomial-tree"), lines.toString());
    }

    @Test
    void autoModeLeavesTheDomainAloneWhenPeersOutnumberCores() {
        AtomicInteger calls = new AtomicInteger();
        ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
        LocalCohort.builder().size(4).cores(2).run(world -> {
            CollectiveChannel ch = new CountingChannel(Fixtures.channel(world, Fixtures.CONTEXT), calls, true);
            try (Collectives c = new Collectives(ch, CollectiveMode.AUTO, world.rank() == 0 ? log::add : s -> { })) {
                byte[] b = new byte[40];
                if (world.rank() == 0) {
                    java.util.Arrays.fill(b, (byte) 3);
                }
                c.bcast(0, b);
                assertEquals(3, b[39]);
                someOfEach(c);
            }
        });
        assertEquals(0, calls.get(), "the domain was used");
        List<String> lines = List.copyOf(log);
        assertTrue(lines.contains("cohort: bcast of 40 B at 4 peers uses binomial-tree"), lines.toString());
    }

    @Test
    void autoModeLeavesTheDomainAloneWhenEveryPeerIsOverSharedMemory() {
        AtomicInteger calls = new AtomicInteger();
        ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
        LocalCohort.builder().size(4).transport("shm").run(world -> {
            CollectiveChannel ch = new CountingChannel(Fixtures.channel(world, Fixtures.CONTEXT), calls, true);
            assertTrue(ch.sharedMemoryOnly(), "every other peer of an shm world is reached over shared memory");
            try (Collectives c = new Collectives(ch, CollectiveMode.AUTO, world.rank() == 0 ? log::add : s -> { })) {
                someOfEach(c);
            }
        });
        assertEquals(0, calls.get(), "no peer opened the domain");
        assertTrue(List.copyOf(log).contains("cohort: bcast of 40 B at 4 peers uses binomial-tree"), log.toString());
    }

    @Test
    void autoModeFallsBackToP2pWithoutADomain() {
        AtomicInteger calls = new AtomicInteger();
        ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
        LocalCohort.builder().size(5).cores(5).run(world -> {
            CollectiveChannel ch = new CountingChannel(Fixtures.channel(world, Fixtures.CONTEXT), calls, false);
            try (Collectives c = new Collectives(ch, CollectiveMode.AUTO, world.rank() == 0 ? log::add : s -> { })) {
                someOfEach(c);
            }
        });
        assertEquals(5, calls.get(), "each peer tries once, then remembers");
        List<String> lines = List.copyOf(log);
        assertTrue(lines.get(0).startsWith("cohort: no broadcast domain (this test channel has no broadcast domain)"),
                lines.toString());
        assertTrue(lines.contains("cohort: bcast of 40 B at 5 peers uses binomial-tree"), lines.toString());
    }
}
