package io.cohort;

import io.cohort.transport.Transport;
import io.cohort.transport.udp.UdpTransport;
import io.cohort.wireup.LocalJob;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Messages with checksums cross a udp pair complete and in order under 5% loss with duplication
 * and reordering (on both peers' receive side, so acks are lost too).
 *
 * <p>Two soaks of 10^5 messages ({@code mvn verify -Psoak}). The literal one: sizes uniform from 0 B
 * to 1 MiB, about 52 GB, 85 s on this project's 2-core machine when it is quiet and ten minutes when
 * it is not. And one whose sizes are biased, 90% up to 1 KiB, 9% up to 64 KiB, 1% up to 1 MiB (about
 * 900 MB, both edges included), so small frames dominate and acks and windows turn over far more
 * often. The README's {@code mvn verify} runs the biased one on 5,000 messages: the same protocol
 * paths (both size edges, every fault), a twentieth of the traffic.
 */
class UdpLongRunTest {
    static final int SOAK_COUNT = 100_000;
    static final int QUICK_COUNT = 5_000;
    static final int MAX = 1 << 20;
    static final String FAULTS = "loss=0.05,dup=0.02,reorder=0.02,seed=21";
    /** Messages in flight at once (each keeps its own buffer until its send completes). */
    static final int IN_FLIGHT = 32;

    static int biasedSize(int i, SplittableRandom r) {
        if (i < 2) {
            return i == 0 ? 0 : MAX;
        }
        int u = r.nextInt(100);
        return u < 90 ? r.nextInt(1025) : u < 99 ? 1024 + r.nextInt(64 << 10) : (64 << 10) + r.nextInt(MAX - (64 << 10) + 1);
    }

    static int uniformSize(int i, SplittableRandom r) {
        return i < 2 ? (i == 0 ? 0 : MAX) : r.nextInt(MAX + 1);
    }

    @FunctionalInterface
    interface Sizes {
        int size(int index, SplittableRandom r);
    }

    /** Message i: 8-byte index, content from a seed per index, 8-byte CRC-32 of everything before it. */
    static byte[] message(int i, Sizes sizes) {
        SplittableRandom r = new SplittableRandom(i * 0x9E3779B97F4A7C15L);
        int size = Math.max(16, sizes.size(i, r));
        byte[] b = new byte[size];
        r.nextBytes(b);
        ByteBuffer.wrap(b).putLong(0, i);
        CRC32 c = new CRC32();
        c.update(b, 0, size - 8);
        ByteBuffer.wrap(b).putLong(size - 8, c.getValue());
        return b;
    }

    @Test
    @Timeout(value = 60)
    void fiveThousandChecksummedMessagesUnderLossDuplicationAndReordering() {
        run(QUICK_COUNT, UdpLongRunTest::biasedSize, Duration.ofSeconds(50));
    }

    @Test
    @Tag("soak")
    @Timeout(value = 300)
    void aHundredThousandChecksummedMessagesUnderLossDuplicationAndReordering() {
        run(SOAK_COUNT, UdpLongRunTest::biasedSize, Duration.ofSeconds(280));
    }

    @Test
    @Tag("soak")
    @Timeout(value = 1200)
    void aHundredThousandUniformlySizedMessagesUpToOneMebibyte() {
        run(SOAK_COUNT, UdpLongRunTest::uniformSize, Duration.ofSeconds(1150));
    }

    private static void run(int count, Sizes sizes, Duration limit) {
        Transport[][] wired = new Transport[1][];
        long start = System.nanoTime();
        long[] bytes = new long[1];
        LocalJob.builder().size(2).transport("udp").fault(FAULTS).timeout(limit).onStart(t -> wired[0] = t)
                .run(world -> {
                    if (world.rank() == 0) {
                        Request[] pending = new Request[IN_FLIGHT];
                        for (int i = 0; i < count; i++) {
                            int slot = i % IN_FLIGHT;
                            if (pending[slot] != null) {
                                pending[slot].await();
                            }
                            pending[slot] = world.isend(1, 7, message(i, sizes));
                        }
                        Request.awaitAll(java.util.Arrays.stream(pending).filter(p -> p != null).toList());
                        world.recv(1, 8);
                    } else {
                        CRC32 c = new CRC32();
                        for (int i = 0; i < count; i++) {
                            byte[] got = world.recv(0, 7).bytes();
                            ByteBuffer b = ByteBuffer.wrap(got);
                            if (b.getLong(0) != i) {
                                throw new AssertionError("message " + i + " arrived as number " + b.getLong(0));
                            }
                            c.reset();
                            c.update(got, 0, got.length - 8);
                            if (c.getValue() != b.getLong(got.length - 8)) {
                                throw new AssertionError("message " + i + " (" + got.length + " bytes) is corrupted");
                            }
                            if (got.length != message(i, sizes).length) {
                                throw new AssertionError("message " + i + " has the wrong length " + got.length);
                            }
                            bytes[0] += got.length;
                        }
                        world.send(0, 8, new byte[0]);
                    }
                });
        double seconds = (System.nanoTime() - start) / 1e9;
        UdpTransport sender = (UdpTransport) wired[0][0];
        UdpTransport receiver = (UdpTransport) wired[0][1];
        System.out.printf("udp long run: %d messages, %.0f MB in %.1f s; sender %s; faults at receiver: %s%n", count,
                bytes[0] / 1e6, seconds, sender.counters(), receiver.faultCounters());
        assertEquals(count, receiver.counters().messagesDelivered(), "every message, once");
        assertTrue(sender.counters().retransmissions() > 0, "losses were recovered: " + sender.counters());
        assertTrue(receiver.faultCounters().duplicated() > 0 && receiver.faultCounters().reordered() > 0,
                receiver.faultCounters().toString());
        assertTrue(receiver.counters().duplicates() > 0, "duplicates were recognised: " + receiver.counters());
    }
}
