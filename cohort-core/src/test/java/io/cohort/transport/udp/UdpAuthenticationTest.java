package io.cohort.transport.udp;

import io.cohort.Communicator;
import io.cohort.auth.FrameAuthenticator;
import io.cohort.auth.JobSecret;
import io.cohort.transport.fault.DatagramPort;
import io.cohort.transport.fault.ForwardingDatagramPort;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An attacker on the job's network who sees every datagram and can forge the source address of its
 * own (two real loopback sockets: a stranger's, and one whose datagrams a peer's port reports as
 * coming from rank 1, which is what IP spoofing on a LAN does). It knows everything on the wire,
 * the job tag included, but not the job's secret. Its forged, replayed, redirected and altered frames
 * must be dropped and counted, never delivered, and the job's own messages must arrive intact.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class UdpAuthenticationTest {
    private static final int TAG = 5;
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(20);

    /**
     * A peer's port as the attacker bends it: datagrams from {@link #spoofer} arrive as if from
     * {@link #spoofedAs}; the first DATA datagram from {@link #watched} is copied to {@link #captured}
     * (a packet capture) and, with {@link #swallow}, never reaches the peer (an on-path attacker);
     * with {@link #holdAll}, neither does any later DATA datagram from it (its retransmissions)
     * until the flag is cleared.
     */
    static final class Wire extends ForwardingDatagramPort {
        volatile SocketAddress spoofer;
        volatile SocketAddress spoofedAs;
        volatile SocketAddress watched;
        volatile boolean swallow;
        volatile boolean holdAll;
        volatile byte[] captured;

        Wire(DatagramPort inner) {
            super(inner);
        }

        @Override
        public SocketAddress receive(ByteBuffer into) {
            int start = into.position();
            SocketAddress source = inner.receive(into);
            if (source == null) {
                return null;
            }
            if (source.equals(spoofer) && spoofedAs != null) {
                return spoofedAs;
            }
            if (source.equals(watched) && into.get(start + UdpFrameDescriptor.TYPE_OFFSET) == UdpFrameDescriptor.TYPE_DATA) {
                boolean first = captured == null;
                if (first) {
                    byte[] d = new byte[into.position() - start];
                    into.get(start, d);
                    captured = d;
                }
                if ((first && swallow) || holdAll) {
                    into.position(start);
                    return null;
                }
            }
            return source;
        }
    }

    private final Wire[] wires = new Wire[3];
    private DatagramChannel spoofer;
    private DatagramChannel stranger;
    private HandWiredJob job;

    private void start(int n) throws IOException {
        spoofer = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        stranger = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        job = new HandWiredJob(n, JobSecret.generate(), UdpSettings.defaults(),
                rank -> (UnaryOperator<DatagramPort>) p -> wires[rank] = new Wire(p));
        for (Wire w : java.util.Arrays.copyOf(wires, n)) {
            w.spoofer = spoofer.getLocalAddress();
            w.spoofedAs = job.address(1);
            w.watched = job.address(1);
        }
    }

    @AfterEach
    void close() throws IOException {
        if (spoofer != null) {
            spoofer.close();
            stranger.close();
        }
    }

    private UdpCounters counters(int rank) {
        return job.transports[rank].counters();
    }

    /** Sends {@code datagram} to {@code rank} from the spoofing socket (as rank 1) and from the stranger's. */
    private void sendBoth(byte[] datagram, int rank) throws IOException {
        spoofer.send(ByteBuffer.wrap(datagram), job.address(rank));
        stranger.send(ByteBuffer.wrap(datagram), job.address(rank));
    }

    /** Drives {@code world}'s progress (a probe polls the transports) until the condition holds. */
    private static void progressUntil(Communicator world, BooleanSupplier done, String what) {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out waiting for " + what);
            }
            world.iprobe(Communicator.ANY_SOURCE, Integer.MAX_VALUE);
            Thread.onSpinWait();
        }
    }

    private static void await(CountDownLatch latch) throws InterruptedException {
        assertTrue(latch.await(DEADLINE_NANOS, TimeUnit.NANOSECONDS), "timed out waiting for the other peer");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static int frameLength(byte[] datagram) {
        return datagram.length - FrameAuthenticator.TAG_BYTES;
    }

    @Test
    void aForgedFrameIsDroppedAndCountedWhateverItsSourceAndTheMessageArrivesIntact() throws Exception {
        start(2);
        wires[0].swallow = true; // the attacker takes rank 1's frame off the wire and sends its own instead
        job.run(world -> {
            if (world.rank() == 1) {
                world.send(0, TAG, bytes("GENUINE"));
                return;
            }
            progressUntil(world, () -> wires[0].captured != null, "rank 1's frame");
            byte[] genuine = wires[0].captured;
            int frame = frameLength(genuine);
            byte[] altered = genuine.clone();
            System.arraycopy(bytes("FORGED!"), 0, altered, frame - 7, 7); // same header, same length, its payload
            byte[] randomTag = new byte[FrameAuthenticator.TAG_BYTES];
            new java.util.Random(1).nextBytes(randomTag);
            sendBoth(altered, 0); // keeps the genuine tag
            sendBoth(SignedFrames.withTag(java.util.Arrays.copyOf(altered, frame), randomTag), 0);
            progressUntil(world, () -> counters(0).forged() >= 4, "four forgeries counted");
            assertArrayEquals(bytes("GENUINE"), world.recv(1, TAG).bytes(), "rank 1's retransmission, intact");
            assertEquals(4, counters(0).forged(), counters(0).toString());
            assertEquals(0, counters(0).unknownSender(), "the tag is checked before the address: " + counters(0));
            assertEquals(1, counters(0).messagesDelivered(), counters(0).toString());
        }, 30);
    }

    @Test
    void aFrameOfOnePairReplayedToAnotherPeerFailsItsTag() throws Exception {
        start(3);
        CountDownLatch replayed = new CountDownLatch(1);
        job.run(world -> {
            switch (world.rank()) {
                case 1 -> {
                    world.send(2, TAG, bytes("FOR-RANK-2"));
                    await(replayed);
                    world.send(0, TAG, bytes("FOR-RANK-0"));
                }
                case 2 -> assertArrayEquals(bytes("FOR-RANK-2"), world.recv(1, TAG).bytes());
                default -> {
                    long deadline = System.nanoTime() + DEADLINE_NANOS;
                    while (wires[2].captured == null) { // rank 2's progress captures it, on rank 2's thread
                        assertTrue(System.nanoTime() - deadline < 0, "rank 1's frame to rank 2 was never seen");
                        Thread.onSpinWait();
                    }
                    // Sequence 0 from rank 1, as rank 0 expects next: only the pair's key tells it is not its own.
                    sendBoth(wires[2].captured, 0);
                    progressUntil(world, () -> counters(0).forged() >= 2, "both replays counted");
                    replayed.countDown();
                    assertArrayEquals(bytes("FOR-RANK-0"), world.recv(1, TAG).bytes());
                    assertEquals(2, counters(0).forged(), counters(0).toString());
                    assertEquals(1, counters(0).messagesDelivered(), counters(0).toString());
                }
            }
        }, 30);
    }

    @Test
    void aCapturedFrameReplayedToItsOwnReceiverIsNotDeliveredTwice() throws Exception {
        start(2);
        CountDownLatch replayed = new CountDownLatch(1);
        int replays = 10;
        job.run(world -> {
            if (world.rank() == 1) {
                world.send(0, TAG, bytes("FIRST"));
                await(replayed);
                world.send(0, TAG, bytes("SECOND"));
                return;
            }
            assertArrayEquals(bytes("FIRST"), world.recv(1, TAG).bytes());
            byte[] genuine = wires[0].captured;
            for (int i = 0; i < replays; i++) {
                spoofer.send(ByteBuffer.wrap(genuine), job.address(0)); // genuine tag, genuine address
            }
            stranger.send(ByteBuffer.wrap(genuine), job.address(0)); // genuine tag, another address
            UdpCounters c = counters(0);
            progressUntil(world, () -> c.duplicates() + c.outOfWindow() >= replays && c.unknownSender() >= 1,
                    "the replays counted");
            replayed.countDown();
            assertArrayEquals(bytes("SECOND"), world.recv(1, TAG).bytes(), "the next message, not the first again");
            assertFalse(world.iprobe(1, TAG).isPresent(), "nothing more");
            assertEquals(2, c.messagesDelivered(), c.toString());
            assertEquals(0, c.forged(), c.toString());
        }, 30);
    }

    @Test
    void oneFlippedBitAnywhereInACapturedFrameMakesItFail() throws Exception {
        start(2);
        wires[0].swallow = true;
        // Rank 1's retransmissions are held too while the flipped frames go in: on a loaded machine
        // its retransmission time-out can pass during the loop, and a genuine frame would be delivered.
        wires[0].holdAll = true;
        job.run(world -> {
            if (world.rank() == 1) {
                world.send(0, TAG, bytes("PAYLOAD-OF-RANK-1"));
                return;
            }
            progressUntil(world, () -> wires[0].captured != null, "rank 1's frame");
            byte[] genuine = wires[0].captured;
            UdpCounters c = counters(0);
            int bits = 8 * genuine.length;
            int sent = 0;
            for (int bit = 0; bit < bits; bit++) {
                byte[] flipped = genuine.clone();
                flipped[bit / 8] ^= (byte) (1 << (bit % 8));
                spoofer.send(ByteBuffer.wrap(flipped), job.address(0)); // from rank 1's address
                sent++;
                if (sent % 32 == 0 || bit == bits - 1) { // a few at a time: the socket buffer must not drop any
                    long expected = sent;
                    progressUntil(world, () -> c.dropped() >= expected, "the flipped frames counted");
                }
            }
            assertEquals(0, c.messagesDelivered(), "none delivered: " + c);
            assertEquals(bits, c.dropped(), c.toString());
            // Only the fields that find the key can fail before the tag; every other bit is the tag's to catch.
            int structural = 8 * (4 + 1 + 1 + 2 + 8 + 4 + 2 + 2 + 4); // magic, version, type, flags, job, rank, window, extra, length
            assertTrue(c.forged() >= bits - structural, c.toString());
            wires[0].holdAll = false;
            assertArrayEquals(bytes("PAYLOAD-OF-RANK-1"), world.recv(1, TAG).bytes(), "the retransmission, intact");
        }, 30);
    }
}
