package io.cohort.broadcast.eqa;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.cohort.broadcast.eqa.EqaCounters.Counter.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Datagrams that are not this group's frames, sent to live peers between their broadcasts: each is
 * counted under the right counter and dropped, nothing crashes, and every delivered message is intact.
 */
@Timeout(30)
class EqaForeignFramesTest {
    private static final long KEY = 0xF0E1D2C3L;

    private record Crafted(byte[] bytes, EqaCounters.Counter expected) {
    }

    private static ByteBuffer frame(int length) {
        return ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** A well-formed DATA frame from {@code sender} that the tests then break in one place. */
    private static ByteBuffer data(int sender, int size) {
        ByteBuffer b = frame(DataFrameDescriptor.PAYLOAD_OFFSET + 10);
        EqaHeaderDescriptor.write(b, EqaHeaderDescriptor.TYPE_DATA, 0, KEY, sender, size);
        DataFrameDescriptor.write(b, 0, 0, 10, 0, 10, -1);
        return b;
    }

    private static List<Crafted> crafted(int size) {
        List<Crafted> c = new ArrayList<>();
        Random random = new Random(17);
        for (int i = 0; i < 20; i++) {
            byte[] junk = new byte[1 + random.nextInt(200)];
            random.nextBytes(junk);
            junk[0] = 0x7F; // never the magic's first byte
            c.add(new Crafted(junk, DROPPED_FOREIGN));
        }
        c.add(new Crafted(new byte[] {0x45, 0x51}, DROPPED_FOREIGN));
        c.add(new Crafted(java.util.Arrays.copyOf(data(0, size).array(), 10), DROPPED_TRUNCATED));
        ByteBuffer b = data(0, size);
        b.put(EqaHeaderDescriptor.VERSION_OFFSET, (byte) 9);
        c.add(new Crafted(b.array(), DROPPED_VERSION));
        b = data(0, size);
        b.putLong(EqaHeaderDescriptor.KEY_OFFSET, KEY + 1);
        c.add(new Crafted(b.array(), DROPPED_OTHER_GROUP));
        c.add(new Crafted(data(size + 3, size).array(), DROPPED_MALFORMED)); // a rank beyond the group
        c.add(new Crafted(data(0, size + 1).array(), DROPPED_MALFORMED)); // a group of another size
        c.add(new Crafted(data(0, size).array(), DROPPED_FOREIGN)); // right key, but not rank 0's address
        b = data(0, size);
        b.put(EqaHeaderDescriptor.TYPE_OFFSET, (byte) 99);
        c.add(new Crafted(b.array(), DROPPED_FOREIGN));
        return c;
    }

    /** Malformed bodies must come from the named rank's own address to reach the body checks. */
    private static List<Crafted> malformedBodies(int size) {
        List<Crafted> c = new ArrayList<>();
        ByteBuffer b = data(0, size);
        b.putInt(DataFrameDescriptor.FRAGMENT_LENGTH_OFFSET, 5000);
        c.add(new Crafted(b.array(), DROPPED_TRUNCATED)); // claims more payload than it carries
        b = data(0, size);
        b.putInt(DataFrameDescriptor.FRAGMENT_OFFSET_OFFSET, 8);
        c.add(new Crafted(b.array(), DROPPED_MALFORMED)); // offset + length beyond the message
        b = data(0, size);
        b.putInt(DataFrameDescriptor.MESSAGE_LENGTH_OFFSET, -4);
        c.add(new Crafted(b.array(), DROPPED_MALFORMED));
        b = data(0, size);
        b.putInt(DataFrameDescriptor.DESIGNATED_OFFSET, size);
        c.add(new Crafted(b.array(), DROPPED_MALFORMED));
        b = data(0, size);
        b.putLong(DataFrameDescriptor.SEQUENCE_OFFSET, -1);
        c.add(new Crafted(b.array(), DROPPED_MALFORMED));
        b = frame(AckFrameDescriptor.LENGTH);
        EqaHeaderDescriptor.write(b, EqaHeaderDescriptor.TYPE_ACK, 0, KEY, 0, size);
        AckFrameDescriptor.write(b, -7);
        c.add(new Crafted(b.array(), DROPPED_MALFORMED));
        b = frame(PullFrameDescriptor.LENGTH - 1);
        EqaHeaderDescriptor.write(b, EqaHeaderDescriptor.TYPE_PULL, 0, KEY, 0, size);
        c.add(new Crafted(b.array(), DROPPED_TRUNCATED));
        b = data(0, size);
        b.put(EqaHeaderDescriptor.TYPE_OFFSET, (byte) 42);
        c.add(new Crafted(b.array(), DROPPED_MALFORMED));
        return c;
    }

    @Test
    void foreignTruncatedAndMalformedFramesAreCountedAndDropped() throws Exception {
        int n = 3;
        try (LocalEqaGroup g = LocalEqaGroup.open(n, new EqaContext(), null, KEY);
             DatagramChannel stranger = DatagramChannel.open()) {
            stranger.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            List<Crafted> fromStranger = crafted(n);
            List<Crafted> fromRank0 = malformedBodies(n);
            long[] expected = new long[EqaCounters.Counter.values().length];
            for (int round = 0; round < 3; round++) {
                for (int r = 0; r < n; r++) {
                    g.peer(r).broadcast(EqaBroadcastTest.content(r, round, 3000 * round + 7));
                }
                for (int target = 1; target < n; target++) {
                    SocketAddress to = g.peer(target).port().localAddress();
                    for (Crafted c : fromStranger) {
                        stranger.send(ByteBuffer.wrap(c.bytes()), to);
                        expected[c.expected().ordinal()]++;
                    }
                    for (Crafted c : fromRank0) {
                        // Straight out of rank 0's own socket: the address check passes, the body must not.
                        assertTrue(g.peer(0).port().send(ByteBuffer.wrap(c.bytes()), to));
                        expected[c.expected().ordinal()]++;
                    }
                }
                int want = (round + 1) * (n - 1);
                g.pumpUntil(() -> {
                    for (EqaPeer p : g.peers()) {
                        if (p.counters().get(MESSAGES_DELIVERED) < want) {
                            return false;
                        }
                    }
                    return true;
                }, 10_000);
            }
            long total = java.util.Arrays.stream(expected).sum();
            g.pumpUntil(() -> {
                long dropped = 0;
                for (EqaPeer p : g.peers()) {
                    dropped += p.counters().dropped();
                }
                return dropped >= total;
            }, 10_000);
            g.pumpUntilQuiet(10_000);
            for (EqaCounters.Counter c : new EqaCounters.Counter[] {DROPPED_FOREIGN, DROPPED_TRUNCATED,
                    DROPPED_VERSION, DROPPED_OTHER_GROUP, DROPPED_MALFORMED}) {
                long seen = 0;
                for (EqaPeer p : g.peers()) {
                    seen += p.counters().get(c);
                }
                assertEquals(expected[c.ordinal()], seen, c + ": " + g.describe());
            }
            for (int r = 0; r < n; r++) {
                int[] next = new int[n];
                EqaPeer.Delivery d;
                while ((d = g.peer(r).poll()) != null) {
                    int round = next[d.source()]++;
                    assertArrayEquals(EqaBroadcastTest.content(d.source(), round, 3000 * round + 7), d.data());
                }
                for (int s = 0; s < n; s++) {
                    assertEquals(s == r ? 0 : 3, next[s], "rank " + r + " from " + s);
                }
            }
        }
    }
}
