package io.cohort;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The job's broadcast domain as a program gets it, {@link Communicator#broadcastDomain()}: opened
 * collectively over the communicator (whatever transport carries the exchange), the same domain on
 * every later call, polled in the background, and closed by the communicator.
 */
@Timeout(60)
class BroadcastDomainCommunicatorTest {
    static byte[] message(int source, int round, int length) {
        byte[] m = new byte[length];
        for (int i = 0; i < length; i++) {
            m[i] = (byte) (source * 31 + round * 7 + i);
        }
        return m;
    }

    /** Every peer multicasts to all others, then requests from each, for {@code rounds} rounds. */
    static void allToAll(BroadcastDomain d, int rounds, int length) {
        int n = d.size();
        int[][] targets = new int[n][];
        for (int s = 0; s < n; s++) {
            int[] t = new int[n - 1];
            for (int p = 0, k = 0; p < n; p++) {
                if (p != s) {
                    t[k++] = p;
                }
            }
            targets[s] = t;
        }
        for (int r = 0; r < rounds; r++) {
            d.multicast(message(d.rank(), r, length), targets[d.rank()]);
            for (int s = 0; s < n; s++) {
                if (s != d.rank()) {
                    byte[] got = d.request(s, targets[s]);
                    assertArrayEquals(message(s, r, length), got, "round " + r + " from rank " + s);
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"local", "tcp", "shm"})
    void everyPeerGetsEveryMessageOverTheJobsDomain(String transport) {
        AtomicInteger done = new AtomicInteger();
        LocalCohort.builder().size(4).transport(transport).timeout(Duration.ofSeconds(50)).run(world -> {
            BroadcastDomain d = world.broadcastDomain();
            assertSame(d, world.broadcastDomain(), "one domain per job");
            assertEquals(world.rank(), d.rank());
            assertEquals(4, d.size());
            allToAll(d, 200, 3000); // 3 frames per message
            world.barrier(); // point-to-point still works beside it
            done.incrementAndGet();
        });
        assertEquals(4, done.get());
    }

    @Test
    void theJobsFaultPlanGoesUnderTheDomain() {
        long[] nacks = new long[3];
        LocalCohort.builder().size(3).fault("loss=0.1,dup=0.02,reorder=0.05,seed=11").timeout(Duration.ofSeconds(50))
                .run(world -> {
                    BroadcastDomain d = world.broadcastDomain();
                    allToAll(d, 150, 1000); // checks every message's content
                    nacks[world.rank()] = d.counters().nacksSent();
                });
        assertTrue(Arrays.stream(nacks).sum() > 0, "10% loss must have cost NACKs: " + Arrays.toString(nacks));
    }
}
