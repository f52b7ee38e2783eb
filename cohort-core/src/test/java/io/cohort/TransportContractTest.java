package io.cohort;

import io.cohort.LocalCohort.PeerBody;
import io.cohort.wireup.LocalJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The behaviour every transport must give a program, run through {@link LocalJob} (what
 * {@link LocalCohort} runs) so that the whole stack (communicator, engine, matching, transport) is
 * exercised. Subclasses pick the
 * transport. Peers synchronise with barriers, latches and requests, never with sleeps.
 */
abstract class TransportContractTest {
    /** The {@link LocalCohort#transport(String)} name under test. */
    abstract String transport();

    LocalJob cohort(int n) {
        return LocalJob.builder().size(n).transport(transport()).timeout(Duration.ofSeconds(50));
    }

    void run(int n, PeerBody body) {
        cohort(n).run(body);
    }

    static byte[] pattern(long seed, int length) {
        byte[] b = new byte[length];
        new Random(seed).nextBytes(b);
        return b;
    }

    static long crc(byte[] b) {
        CRC32 c = new CRC32();
        c.update(b);
        return c.getValue();
    }

    static long crc(ByteBuffer b) {
        CRC32 c = new CRC32();
        c.update(b.duplicate());
        return c.getValue();
    }

    // ---- payload kinds ---------------------------------------------------------------------------

    @Test
    @Timeout(30)
    void byteArrayRoundTrip() {
        run(2, world -> {
            byte[] data = pattern(1, 1000);
            if (world.rank() == 0) {
                world.send(1, 3, data);
            } else {
                Message m = world.recv(0, 3);
                assertEquals(new Status(0, 3, 1000), m.status());
                assertArrayEquals(data, m.bytes());
                world.send(0, 4, data); // and back, into a bigger user buffer
            }
            if (world.rank() == 0) {
                byte[] into = new byte[2000];
                Status s = world.recv(1, 4, into);
                assertEquals(new Status(1, 4, 1000), s);
                assertArrayEquals(data, Arrays.copyOf(into, 1000));
            }
        });
    }

    @Test
    @Timeout(30)
    void byteArrayWithOffsetAndLength() {
        run(2, world -> {
            byte[] data = pattern(2, 100);
            if (world.rank() == 0) {
                world.send(1, 1, data, 10, 30);
                world.isend(1, 2, data, 99, 1).await();
                world.send(1, 3, data, 50, 0);
            } else {
                assertArrayEquals(Arrays.copyOfRange(data, 10, 40), world.recv(0, 1).bytes());
                assertArrayEquals(new byte[] {data[99]}, world.recv(0, 2).bytes());
                assertEquals(0, world.recv(0, 3).length());
            }
        });
    }

    @Test
    @Timeout(30)
    void heapByteBufferRespectsPositionAndLimit() {
        byteBufferRoundTrip(false);
    }

    @Test
    @Timeout(30)
    void directByteBufferRespectsPositionAndLimit() {
        byteBufferRoundTrip(true);
    }

    private void byteBufferRoundTrip(boolean direct) {
        run(2, world -> {
            byte[] data = pattern(3, 200);
            if (world.rank() == 0) {
                ByteBuffer b = direct ? ByteBuffer.allocateDirect(200) : ByteBuffer.allocate(200);
                b.put(data).position(5).limit(50);
                world.send(1, 1, b);
                assertEquals(5, b.position(), "send must not move the position");
                assertEquals(50, b.limit(), "send must not move the limit");
                world.isend(1, 2, b).await();
                assertEquals(5, b.position());
            } else {
                ByteBuffer in = direct ? ByteBuffer.allocateDirect(100) : ByteBuffer.allocate(100);
                in.position(7);
                Status s = world.recv(0, 1, in);
                assertEquals(new Status(0, 1, 45), s);
                assertEquals(52, in.position(), "receive must advance the position past the bytes");
                byte[] got = new byte[45];
                in.position(7);
                in.get(got);
                assertArrayEquals(Arrays.copyOfRange(data, 5, 50), got);

                ByteBuffer in2 = direct ? ByteBuffer.allocateDirect(45) : ByteBuffer.allocate(45);
                Request r = world.irecv(0, 2, in2);
                assertEquals(new Status(0, 2, 45), r.await());
                assertEquals(45, in2.position());
                in2.flip();
                byte[] got2 = new byte[45];
                in2.get(got2);
                assertArrayEquals(Arrays.copyOfRange(data, 5, 50), got2);
                assertThrows(IllegalStateException.class, r::message, "a receive into a user buffer carries no message");
            }
        });
    }

    @Test
    @Timeout(30)
    void heapByteBufferWindowsLeavePositionAndLimitAlone() {
        byteBufferWindows(false);
    }

    @Test
    @Timeout(30)
    void directByteBufferWindowsLeavePositionAndLimitAlone() {
        byteBufferWindows(true);
    }

    /**
     * The offset-and-length forms: small messages (posted before and after arrival) and one large
     * enough to be streamed in pieces, into windows away from the buffer's start, with the position
     * set beyond them to show it is not read, and neither position nor limit moved; truncation and
     * bad windows (the limit bounds a window, as for the JDK's absolute bulk methods).
     */
    private void byteBufferWindows(boolean direct) {
        int large = 300_000;
        run(2, world -> {
            byte[] data = pattern(21, large + 100);
            if (world.rank() == 0) {
                ByteBuffer b = direct ? ByteBuffer.allocateDirect(data.length) : ByteBuffer.allocate(data.length);
                b.put(data).limit(data.length - 1).position(data.length - 2);
                world.send(1, 1, b, 10, 40);
                world.isend(1, 2, b, 60, 5).await();
                world.barrier(); // rank 1 posted its receive of tag 3
                world.send(1, 3, b, 0, large);
                world.send(1, 4, b, 100, 20);
                world.send(1, 5, b, 7, 0);
                assertEquals(data.length - 2, b.position(), "send must not move the position");
                assertEquals(data.length - 1, b.limit(), "send must not move the limit");
                world.barrier();
            } else {
                ByteBuffer in = direct ? ByteBuffer.allocateDirect(large + 400) : ByteBuffer.allocate(large + 400);
                in.limit(large + 399).position(large + 390);
                assertEquals(new Status(0, 1, 40), world.recv(0, 1, in, 100, 40));
                Request small = world.irecv(0, 2, in, 200, 64);
                Request big = world.irecv(0, 3, in, 300, large);
                world.barrier();
                assertEquals(new Status(0, 2, 5), small.await());
                assertEquals(new Status(0, 3, large), big.await());
                byte[] got = new byte[large];
                in.get(100, got, 0, 40);
                assertArrayEquals(Arrays.copyOfRange(data, 10, 50), Arrays.copyOf(got, 40));
                in.get(200, got, 0, 5);
                assertArrayEquals(Arrays.copyOfRange(data, 60, 65), Arrays.copyOf(got, 5));
                in.get(300, got, 0, large);
                assertArrayEquals(Arrays.copyOf(data, large), got);
                assertEquals(large + 390, in.position(), "receive must not move the position");
                assertEquals(large + 399, in.limit(), "receive must not move the limit");
                MessageTruncatedException e = assertThrows(MessageTruncatedException.class,
                        () -> world.recv(0, 4, in, 0, 19));
                assertEquals(new Status(0, 4, 20), e.status());
                assertEquals(0, world.recv(0, 5, in, in.limit(), 0).length());
                byte[] array = new byte[30];
                world.barrier();
                assertThrows(IndexOutOfBoundsException.class, () -> world.recv(0, 6, in, in.limit() - 3, 4),
                        "a window past the limit (though within the capacity)");
                assertThrows(IndexOutOfBoundsException.class, () -> world.send(0, 6, in, -1, 4));
                assertThrows(IndexOutOfBoundsException.class, () -> world.isend(0, 6, in, 0, -1));
                assertThrows(IndexOutOfBoundsException.class, () -> world.irecv(0, 6, in, 1, in.limit()));
                assertThrows(IndexOutOfBoundsException.class, () -> world.recv(0, 6, array, 20, 11));
                IllegalArgumentException ro = assertThrows(IllegalArgumentException.class,
                        () -> world.recv(0, 6, in.asReadOnlyBuffer(), 0, 4));
                assertTrue(ro.getMessage().contains("read-only"), ro.getMessage());
                assertThrows(IllegalArgumentException.class, () -> world.irecv(0, 6, in.asReadOnlyBuffer()));
            }
        });
    }

    @Test
    @Timeout(30)
    void typedArraysRoundTrip() {
        int[] ints = {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 0x01020304};
        long[] longs = {0, -1, Long.MIN_VALUE, Long.MAX_VALUE, 0x0102030405060708L};
        double[] doubles = {0.0, -0.0, Double.NaN, Double.MIN_VALUE, Double.MAX_VALUE, Double.NEGATIVE_INFINITY, Math.PI};
        float[] floats = {0f, -0f, Float.NaN, Float.MIN_VALUE, Float.MAX_VALUE, Float.POSITIVE_INFINITY, 1.5f};
        short[] shorts = {0, -1, Short.MIN_VALUE, Short.MAX_VALUE, 0x0102};
        char[] chars = {'a', 'Z', '\u0000', '\uffff', '\u20ac'};
        run(2, world -> {
            if (world.rank() == 0) {
                world.send(1, 1, ints);
                world.send(1, 2, longs);
                world.send(1, 3, doubles);
                world.send(1, 4, floats);
                world.send(1, 5, shorts);
                world.send(1, 6, chars);
                Request.awaitAll(world.isend(1, 7, ints), world.isend(1, 8, longs), world.isend(1, 9, doubles));
                world.send(1, 10, new int[] {0x01020304});
            } else {
                assertArrayEquals(ints, world.recv(0, 1).asInts());
                assertArrayEquals(longs, world.recv(0, 2).asLongs());
                assertArrayEquals(doubles, world.recv(0, 3).asDoubles());
                assertArrayEquals(floats, world.recv(0, 4).asFloats());
                assertArrayEquals(shorts, world.recv(0, 5).asShorts());
                assertArrayEquals(chars, world.recv(0, 6).asChars());
                int[] ib = new int[ints.length + 3];
                assertEquals(ints.length, world.recv(0, 7, ib).count(Integer.BYTES));
                assertArrayEquals(ints, Arrays.copyOf(ib, ints.length));
                long[] lb = new long[longs.length];
                assertEquals(longs.length * 8, world.recv(0, 8, lb).length());
                assertArrayEquals(longs, lb);
                double[] db = new double[doubles.length];
                world.recv(0, 9, db);
                assertArrayEquals(doubles, db);
                assertArrayEquals(new byte[] {4, 3, 2, 1}, world.recv(0, 10).bytes(), "typed sends are little-endian");
            }
        });
    }

    record Point(int x, String label, List<Integer> more) implements Serializable {
    }

    @Test
    @Timeout(30)
    void serializableObjectsAndNull() {
        run(2, world -> {
            Point p = new Point(7, "seven", List.of(1, 2, 3));
            Map<String, Object> map = new HashMap<>(Map.of("a", 1, "b", "two"));
            if (world.rank() == 0) {
                world.sendObject(1, 1, p);
                world.sendObject(1, 2, map);
                world.sendObject(1, 3, null);
                world.sendObject(1, 4, "text");
            } else {
                assertEquals(p, world.recvObject(0, 1));
                assertEquals(map, world.recvObject(0, 2));
                assertNull(world.recvObject(0, 3));
                assertEquals("text", world.recv(0, 4).asObject());
            }
        });
    }

    @Test
    @Timeout(30)
    void zeroLengthMessages() {
        run(2, world -> {
            if (world.rank() == 0) {
                world.send(1, 1, new byte[0]);
                world.send(1, 2, ByteBuffer.allocateDirect(0));
                world.send(1, 3, new int[0]);
                world.isend(1, 4, new byte[0]).await();
                world.barrier();
                world.send(1, 5, new byte[0]);
            } else {
                Message m = world.recv(0, 1);
                assertEquals(0, m.length());
                assertEquals(0, m.bytes().length);
                ByteBuffer empty = ByteBuffer.allocate(0);
                assertEquals(new Status(0, 2, 0), world.recv(0, 2, empty));
                assertEquals(0, world.recv(0, 3).asInts().length);
                assertEquals(0, world.recv(0, 4, new byte[0]).length());
                Request posted = world.irecv(0, 5);
                world.barrier();
                assertEquals(new Status(0, 5, 0), posted.await());
                assertEquals(0, posted.message().length());
            }
        });
    }

    // ---- ordering and matching -------------------------------------------------------------------

    @Test
    @Timeout(60)
    void fifoPerPairUnderManyMessagesSameTag() {
        int count = 10_000;
        run(2, world -> {
            if (world.rank() == 0) {
                for (int i = 0; i < count; i++) {
                    world.send(1, 9, new int[] {i});
                }
            } else {
                for (int i = 0; i < count; i++) {
                    int got = world.recv(0, 9).asInts()[0];
                    if (got != i) {
                        fail("message " + i + " arrived as number " + got);
                    }
                }
            }
        });
    }

    @Test
    @Timeout(60)
    void fifoPerPairUnderManyMessagesMixedTags() {
        int count = 10_000;
        int tags = 7;
        run(2, world -> {
            if (world.rank() == 0) {
                for (int i = 0; i < count; i++) {
                    world.send(1, i % tags, new int[] {i});
                }
                for (int i = 0; i < 700; i++) {
                    world.send(1, 100 + i % tags, new int[] {i});
                }
            } else {
                // ANY_TAG: arrival order is send order.
                for (int i = 0; i < count; i++) {
                    Message m = world.recv(0, Communicator.ANY_TAG);
                    assertEquals(i, m.asInts()[0]);
                    assertEquals(i % tags, m.tag());
                }
                // By tag, last tag first: each tag's messages in send order.
                for (int t = tags - 1; t >= 0; t--) {
                    for (int i = t; i < 700; i += tags) {
                        assertEquals(i, world.recv(0, 100 + t).asInts()[0], "tag " + (100 + t));
                    }
                }
            }
        });
    }

    @Test
    @Timeout(30)
    void wildcardSourceAndTag() {
        run(3, world -> {
            if (world.rank() == 0) {
                world.barrier(); // both messages sent before we look
                Status a = world.recv(Communicator.ANY_SOURCE, 20 + 1, new byte[16]);
                assertEquals(1, a.source());
                assertEquals(21, a.tag());
                Message b = world.recv(2, Communicator.ANY_TAG);
                assertEquals(22, b.tag());
                assertEquals(2, b.source());
                assertEquals(2, b.bytes()[0]);
                // Remaining: one from 1 (tag 31) and one from 2 (tag 32), any order between sources.
                List<Integer> seen = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    Message m = world.recv(Communicator.ANY_SOURCE, Communicator.ANY_TAG);
                    assertEquals(30 + m.source(), m.tag());
                    seen.add(m.source());
                }
                seen.sort(null);
                assertEquals(List.of(1, 2), seen);
            } else {
                world.send(0, 20 + world.rank(), new byte[] {(byte) world.rank()});
                world.send(0, 30 + world.rank(), new byte[] {(byte) world.rank()});
                world.barrier();
            }
        });
    }

    @Test
    @Timeout(30)
    void unexpectedMessagesAreKeptUntilReceived() {
        run(2, world -> {
            if (world.rank() == 0) {
                for (int t = 1; t <= 5; t++) {
                    world.send(1, t, new int[] {t * 100});
                }
                world.barrier();
            } else {
                world.barrier(); // all five are sent (and, for tcp, maybe in flight) before any receive
                for (int t = 5; t >= 1; t--) {
                    Message m = world.recv(0, t);
                    assertEquals(t, m.tag());
                    assertEquals(t * 100, m.asInts()[0]);
                }
                assertTrue(world.iprobe(Communicator.ANY_SOURCE, Communicator.ANY_TAG).isEmpty());
            }
        });
    }

    @Test
    @Timeout(30)
    void receivesPostedBeforeAndAfterTheSend() {
        run(2, world -> {
            byte[] small = pattern(4, 300);
            byte[] large = pattern(5, 1 << 20);
            if (world.rank() == 1) {
                Request a = world.irecv(0, 1);
                ByteBuffer direct = ByteBuffer.allocateDirect(large.length);
                Request b = world.irecv(0, 2, direct);
                Request c = world.irecv(0, 3, ByteBuffer.allocate(large.length));
                assertFalse(a.isDone());
                world.barrier(); // receives are posted; now rank 0 sends
                Request.awaitAll(a, b, c);
                assertArrayEquals(small, a.message().bytes());
                direct.flip();
                assertEquals(crc(large), crc(direct));
                world.barrier(); // rank 0 sends again; we receive afterwards
                world.barrier();
                assertArrayEquals(small, world.recv(0, 4).bytes());
                assertArrayEquals(large, world.recv(0, 5).bytes());
            } else {
                world.barrier();
                world.send(1, 1, small);
                world.send(1, 2, large);
                world.send(1, 3, large);
                world.barrier();
                world.send(1, 4, small);
                world.send(1, 5, large);
                world.barrier();
            }
        });
    }

    @Test
    @Timeout(30)
    void nonblockingRequestsAwaitAllAnyTestIsDone() {
        run(2, world -> {
            if (world.rank() == 1) {
                Request r1 = world.irecv(0, 1);
                Request r2 = world.irecv(0, 2);
                Request r3 = world.irecv(0, 3);
                assertFalse(r1.test());
                assertFalse(r2.isDone());
                assertThrows(IllegalStateException.class, r1::message, "pending receive has no message yet");
                world.send(0, 99, new byte[0]); // go ahead: send tag 2 only
                assertEquals(1, Request.awaitAny(r1, r2, r3));
                assertTrue(r2.isDone());
                assertTrue(r2.test());
                assertArrayEquals(new byte[] {2}, r2.message().bytes());
                assertFalse(r1.isDone());
                assertFalse(r3.test());
                world.send(0, 99, new byte[0]); // go ahead: send tags 3 and 1
                int first = Request.awaitAny(List.of(r1, r3)); // either may be first
                assertTrue(first == 0 || first == 1, "awaitAny returned " + first);
                Request.awaitAll(r1, r3);
                assertArrayEquals(new byte[] {1}, r1.message().bytes());
                assertArrayEquals(new byte[] {3}, r3.message().bytes());
                assertEquals(0, Request.awaitAny(r1, r2, r3), "awaitAny returns the first done request");
                assertThrows(IllegalArgumentException.class, () -> Request.awaitAny(List.of()));
            } else {
                world.recv(1, 99);
                Request s = world.isend(1, 2, new byte[] {2});
                s.await();
                assertTrue(s.isDone());
                assertThrows(IllegalStateException.class, s::message, "a send carries no message");
                world.recv(1, 99);
                List<Request> sends = List.of(world.isend(1, 3, new byte[] {3}), world.isend(1, 1, new byte[] {1}));
                Request.awaitAll(sends);
                assertTrue(Request.testAll(sends));
            }
        });
    }

    @Test
    @Timeout(30)
    void awaitWithTimeoutThrowsAndLeavesTheReceivePending() {
        run(2, world -> {
            if (world.rank() == 1) {
                Request r = world.irecv(0, 42);
                long t0 = System.nanoTime();
                assertThrows(TimeoutException.class, () -> r.await(Duration.ofMillis(200)));
                long waited = System.nanoTime() - t0;
                assertTrue(waited >= Duration.ofMillis(150).toNanos(), "gave up after only " + waited + " ns");
                assertFalse(r.isDone());
                world.barrier(); // now rank 0 sends
                Status s = r.await(Duration.ofSeconds(20));
                assertEquals(new Status(0, 42, 3), s);
                assertArrayEquals(new byte[] {4, 2, 0}, r.message().bytes());
            } else {
                world.barrier();
                world.send(1, 42, new byte[] {4, 2, 0});
            }
        });
    }

    @Test
    @Timeout(30)
    void iprobeAndProbe() {
        run(2, world -> {
            if (world.rank() == 1) {
                assertEquals(Optional.empty(), world.iprobe(0, 5));
                assertEquals(Optional.empty(), world.iprobe(Communicator.ANY_SOURCE, Communicator.ANY_TAG));
                world.barrier();
                Optional<Status> s;
                do {
                    s = world.iprobe(0, 5); // drives progress each call
                } while (s.isEmpty());
                assertEquals(new Status(0, 5, 123), s.get());
                assertEquals(s, world.iprobe(Communicator.ANY_SOURCE, Communicator.ANY_TAG), "probing does not consume");
                byte[] exact = new byte[s.get().length()];
                assertEquals(s.get(), world.recv(0, 5, exact));
                assertArrayEquals(pattern(6, 123), exact);

                Status p = world.probe(Communicator.ANY_SOURCE, 6); // blocks until the second one arrives
                assertEquals(new Status(0, 6, 77_777), p);
                assertEquals(p, world.probe(0, Communicator.ANY_TAG));
                assertArrayEquals(pattern(7, 77_777), world.recv(0, 6).bytes());
                assertTrue(world.iprobe(0, Communicator.ANY_TAG).isEmpty());
            } else {
                world.barrier();
                world.send(1, 5, pattern(6, 123));
                world.send(1, 6, pattern(7, 77_777));
            }
        });
    }

    // ---- volume ----------------------------------------------------------------------------------

    @Test
    @Timeout(60)
    void largeMessagesWithChecksums() {
        int mib = 1 << 20;
        run(2, world -> {
            if (world.rank() == 0) {
                byte[] eight = pattern(8, 8 * mib);
                world.send(1, 1, eight);
                byte[] sixtyFour = pattern(64, 64 * mib);
                world.send(1, 2, sixtyFour);
                sixtyFour = null;
                ByteBuffer direct = ByteBuffer.allocateDirect(16 * mib);
                direct.put(pattern(16, 16 * mib)).flip();
                world.send(1, 3, direct);
                world.send(1, 4, new long[] {crc(eight), crc(pattern(64, 64 * mib)), crc(direct)});
                // Both directions at once: neither peer may stall the other.
                Request s = world.isend(1, 5, eight);
                assertEquals(crc(eight), crc(world.recv(1, 6).bytes()));
                s.await();
            } else {
                byte[] eight = world.recv(0, 1).bytes();
                byte[] sixtyFour = world.recv(0, 2).bytes();
                ByteBuffer direct = ByteBuffer.allocateDirect(16 * mib);
                assertEquals(16 * mib, world.recv(0, 3, direct).length());
                direct.flip();
                long[] sums = world.recv(0, 4).asLongs();
                assertEquals(8 * mib, eight.length);
                assertEquals(64 * mib, sixtyFour.length);
                assertEquals(sums[0], crc(eight), "8 MiB heap message corrupted");
                assertEquals(sums[1], crc(sixtyFour), "64 MiB heap message corrupted");
                assertEquals(sums[2], crc(direct), "16 MiB direct message corrupted");
                Request s = world.isend(0, 6, eight);
                assertEquals(crc(eight), crc(world.recv(0, 5).bytes()));
                s.await();
            }
        });
    }

    static byte[] allToAllPayload(int source, int dest, int index) {
        Random r = new Random(source * 1_000_003L + dest * 1_009L + index);
        int size = index == 0 ? 0 : r.nextInt(200 * 1024 + 1);
        byte[] b = new byte[size];
        r.nextBytes(b);
        return b;
    }

    @Test
    @Timeout(60)
    void allToAllRandomSizesFiveP() {
        int n = 5;
        int perPair = 16;
        run(n, world -> {
            int me = world.rank();
            List<Request> sends = new ArrayList<>();
            for (int i = 0; i < perPair; i++) {
                for (int k = 1; k < n; k++) {
                    int dest = (me + k) % n;
                    sends.add(world.isend(dest, i, allToAllPayload(me, dest, i)));
                }
            }
            int[] next = new int[n];
            for (int i = 0; i < perPair * (n - 1); i++) {
                Message m = world.recv(Communicator.ANY_SOURCE, Communicator.ANY_TAG);
                int src = m.source();
                assertEquals(next[src], m.tag(), "messages from rank " + src + " out of order");
                next[src]++;
                byte[] expected = allToAllPayload(src, me, m.tag());
                assertEquals(expected.length, m.length());
                assertEquals(crc(expected), crc(m.bytes()), "payload " + m.tag() + " from rank " + src + " corrupted");
            }
            Request.awaitAll(sends);
            for (int s = 0; s < n; s++) {
                assertEquals(s == me ? 0 : perPair, next[s]);
            }
        });
    }

    @Test
    @Timeout(60)
    void concurrentSendersInOnePeerKeepEachThreadsOrder() {
        int threads = 4;
        int perThread = 1500;
        run(2, world -> {
            if (world.rank() == 0) {
                ExecutorService pool = Executors.newFixedThreadPool(threads);
                try {
                    List<Future<?>> done = new ArrayList<>();
                    for (int t = 0; t < threads; t++) {
                        int thread = t;
                        done.add(pool.submit(() -> {
                            for (int i = 0; i < perThread; i++) {
                                // Every 100th message is large, so TCP frames queue behind each other.
                                int size = i % 100 == 0 ? 100_000 : 8;
                                ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
                                b.putInt(0, thread).putInt(4, i);
                                world.send(1, 0, b);
                            }
                            return null;
                        }));
                    }
                    for (Future<?> f : done) {
                        f.get();
                    }
                } finally {
                    pool.shutdown();
                }
            } else {
                int[] next = new int[threads];
                for (int k = 0; k < threads * perThread; k++) {
                    ByteBuffer b = world.recv(0, 0).buffer();
                    int thread = b.getInt(0);
                    int seq = b.getInt(4);
                    assertEquals(next[thread], seq, "thread " + thread + "'s messages out of order");
                    assertEquals(seq % 100 == 0 ? 100_000 : 8, b.capacity());
                    next[thread]++;
                }
                for (int t = 0; t < threads; t++) {
                    assertEquals(perThread, next[t]);
                }
                assertTrue(world.iprobe(0, Communicator.ANY_TAG).isEmpty(), "no extra messages");
            }
        });
    }

    // ---- collectives -----------------------------------------------------------------------------

    @ParameterizedTest(name = "N = {0}")
    @ValueSource(ints = {1, 2, 3, 5, 8})
    @Timeout(60)
    void bcastFromEveryRoot(int n) {
        run(n, world -> {
            for (int root = 0; root < n; root++) {
                byte[] mine = world.rank() == root ? pattern(root, 1000 + root * 10_000) : null;
                byte[] got = world.bcast(root, mine);
                assertArrayEquals(pattern(root, 1000 + root * 10_000), got, "bcast from root " + root);
                Point p = world.bcastObject(root, world.rank() == root ? new Point(root, "root" + root, List.of(root)) : null);
                assertEquals(new Point(root, "root" + root, List.of(root)), p);
            }
            // Non-roots' data is ignored.
            byte[] got = world.bcast(n - 1, new byte[] {(byte) world.rank()});
            assertArrayEquals(new byte[] {(byte) (n - 1)}, got);
            assertThrows(IllegalArgumentException.class, () -> world.bcast(n, new byte[1]));
        });
    }

    @ParameterizedTest(name = "N = {0}")
    @ValueSource(ints = {1, 2, 3, 5})
    @Timeout(60)
    void barrierHoldsEveryoneUntilAllEntered(int n) {
        int rounds = 40;
        AtomicIntegerArray entered = new AtomicIntegerArray(rounds);
        run(n, world -> {
            for (int k = 0; k < rounds; k++) {
                entered.incrementAndGet(k);
                world.barrier();
                int in = entered.get(k);
                if (in != n) {
                    fail("rank " + world.rank() + " left barrier " + k + " when only " + in + " of " + n + " had entered");
                }
            }
        });
    }

    @ParameterizedTest(name = "N = {0}")
    @ValueSource(ints = {1, 2})
    @Timeout(30)
    void sendToSelf(int n) {
        run(n, world -> {
            int me = world.rank();
            world.send(me, 3, new byte[] {1, 2, 3});
            assertEquals(new Status(me, 3, 3), world.recv(me, 3).status());
            Request r = world.irecv(me, 4);
            world.isend(me, 4, new int[] {77}).await();
            r.await();
            assertArrayEquals(new int[] {77}, r.message().asInts());
            world.sendObject(me, 5, "me");
            assertEquals("me", world.recvObject(Communicator.ANY_SOURCE, 5));
            byte[] big = pattern(9, 300_000);
            world.send(me, 6, big);
            assertArrayEquals(big, world.recv(me, 6).bytes());
        });
    }

    // ---- errors ----------------------------------------------------------------------------------

    @Test
    @Timeout(30)
    void truncationFailsTheReceiveAndTheNextMessageArrivesIntact() {
        run(2, world -> {
            byte[] big = pattern(10, 100_000);
            byte[] small = pattern(11, 10);
            if (world.rank() == 0) {
                world.barrier(); // receiver has posted
                world.send(1, 1, big);
                world.send(1, 1, small);
                world.send(1, 2, big);
                world.send(1, 2, small);
                world.send(1, 3, new int[] {1, 2, 3});
                world.send(1, 3, new int[] {4});
                world.barrier();
            } else {
                // Posted before the message arrives.
                ByteBuffer posted = ByteBuffer.allocateDirect(50);
                Request r = world.irecv(0, 1, posted);
                world.barrier();
                MessageTruncatedException e = assertThrows(MessageTruncatedException.class, r::await);
                assertEquals(new Status(0, 1, 100_000), e.status());
                assertTrue(e.getMessage().contains("100000 bytes") && e.getMessage().contains("50 bytes"), e.getMessage());
                // As MPI leaves it: the buffer holds the first bytes that fit; its position did not move.
                byte[] head = new byte[50];
                posted.get(0, head);
                assertArrayEquals(Arrays.copyOf(big, 50), head);
                assertEquals(0, posted.position());
                byte[] b = new byte[50];
                assertEquals(10, world.recv(0, 1, b).length());
                assertArrayEquals(small, Arrays.copyOf(b, 10));
                world.barrier();
                // Unexpected: already arrived when the receive is posted.
                byte[] cut = new byte[50];
                MessageTruncatedException e2 = assertThrows(MessageTruncatedException.class, () -> world.recv(0, 2, cut));
                assertEquals(100_000, e2.status().length());
                assertArrayEquals(Arrays.copyOf(big, 50), cut);
                ByteBuffer bb = ByteBuffer.allocate(50);
                assertEquals(10, world.recv(0, 2, bb).length());
                assertEquals(10, bb.position());
                assertArrayEquals(small, Arrays.copyOf(bb.array(), 10));
                // Typed receive into a short array.
                int[] two = new int[2];
                assertThrows(MessageTruncatedException.class, () -> world.recv(0, 3, two));
                assertArrayEquals(new int[] {1, 2}, two, "the elements that fit, as with a buffer");
                int[] one = new int[2];
                assertEquals(4, world.recv(0, 3, one).length());
                assertEquals(4, one[0]);
            }
        });
    }

    @Test
    @Timeout(30)
    void invalidArgumentsAreRejectedWithUsefulMessages() {
        run(2, world -> {
            IllegalArgumentException e;
            e = assertThrows(IllegalArgumentException.class, () -> world.send(2, 0, new byte[1]));
            assertTrue(e.getMessage().contains("rank 2") && e.getMessage().contains("0 to 1"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> world.isend(-3, 0, new byte[1]));
            assertTrue(e.getMessage().contains("rank -3"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> world.send(Communicator.ANY_SOURCE, 0, new byte[1]));
            assertTrue(e.getMessage().contains("rank -1"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> world.send(1, -1, new byte[1]));
            assertTrue(e.getMessage().contains("tag -1"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> world.sendObject(1, -5, "x"));
            assertTrue(e.getMessage().contains("tag -5"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> world.recv(5, 0));
            assertTrue(e.getMessage().contains("rank 5"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> world.irecv(-2, 0));
            assertTrue(e.getMessage().contains("rank -2"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> world.recv(0, -2));
            assertTrue(e.getMessage().contains("tag -2"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> world.irecv(0, -7, ByteBuffer.allocate(1)));
            assertTrue(e.getMessage().contains("tag -7"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> world.iprobe(9, 0));
            assertTrue(e.getMessage().contains("rank 9"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> world.probe(0, -3));
            assertTrue(e.getMessage().contains("tag -3"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> world.sendObject(1, 0, new Object()));
            assertTrue(e.getMessage().contains("Serializable"), e.getMessage());
            world.barrier(); // nothing was sent by the failed calls
            assertTrue(world.iprobe(Communicator.ANY_SOURCE, Communicator.ANY_TAG).isEmpty());
        });
    }

    @Test
    @Timeout(30)
    void failedPeerFailsPendingReceivesAndRunReportsTheRootCause() {
        IllegalStateException boom = new IllegalStateException("boom from rank 0");
        CountDownLatch posted = new CountDownLatch(2);
        ConcurrentLinkedQueue<String> observed = new ConcurrentLinkedQueue<>();
        CohortException e = assertThrows(CohortException.class, () -> run(3, world -> {
            switch (world.rank()) {
                case 0 -> {
                    posted.await();
                    throw boom;
                }
                case 1 -> {
                    Request r = world.irecv(0, 1);
                    posted.countDown();
                    PeerFailedException f = assertThrows(PeerFailedException.class, r::await);
                    assertEquals(0, f.peer());
                    assertTrue(f.getMessage().contains("rank 0"), f.getMessage());
                    // Later operations on the failed peer fail at once, too.
                    PeerFailedException g = assertThrows(PeerFailedException.class, () -> world.recv(0, 2));
                    assertEquals(0, g.peer());
                    PeerFailedException h = assertThrows(PeerFailedException.class, () -> world.send(0, 2, new byte[10]));
                    assertEquals(0, h.peer());
                    observed.add("rank 1 saw " + f.peer());
                    // Communication with the survivors still works.
                    world.send(2, 7, new byte[] {7});
                }
                default -> {
                    Request r = world.irecv(Communicator.ANY_SOURCE, 1);
                    posted.countDown();
                    PeerFailedException f = assertThrows(PeerFailedException.class, r::await);
                    assertEquals(0, f.peer());
                    assertTrue(f.getMessage().contains("rank 0"), f.getMessage());
                    observed.add("rank 2 saw " + f.peer());
                    assertArrayEquals(new byte[] {7}, world.recv(1, 7).bytes());
                }
            }
        }));
        assertSame(boom, e.getCause(), "the cause must be the original exception, not a PeerFailedException");
        assertTrue(e.getMessage().contains("rank 0"), e.getMessage());
        assertEquals(2, observed.size(), observed.toString());
    }

    @Test
    @Timeout(30)
    void failedPeerFailsBlockedAnySourceReceiveAndCheckedCauseIsKept() {
        IOException boom = new IOException("disk on fire");
        CountDownLatch posted = new CountDownLatch(1);
        CohortException e = assertThrows(CohortException.class, () -> run(2, world -> {
            if (world.rank() == 1) {
                posted.await();
                throw boom;
            }
            Request r = world.irecv(Communicator.ANY_SOURCE, Communicator.ANY_TAG);
            posted.countDown();
            try {
                r.await();
                fail("receive completed although its only possible sender failed");
            } catch (PeerFailedException f) {
                assertEquals(1, f.peer());
                throw f; // collateral damage: must not be chosen as the root cause
            }
        }));
        assertSame(boom, e.getCause());
    }

    @Test
    @Timeout(30)
    void aReceiveFromAPeerThatClosedWithoutSendingFailsAtOnceNamingIt() {
        run(3, world -> {
            switch (world.rank()) {
                case 0 -> {
                    world.send(1, 1, new byte[] {1});
                    world.send(1, 4, new byte[] {4});
                } // then returns: the runner closes rank 0's world
                case 1 -> {
                    Request pending = world.irecv(0, 2); // rank 0 never sends tag 2
                    Request other = world.irecv(Communicator.ANY_SOURCE, 7);
                    assertArrayEquals(new byte[] {1}, world.recv(0, 1).bytes(), "what it sent still arrives");
                    PeerClosedException f = assertThrows(PeerClosedException.class, pending::await);
                    assertEquals(0, f.peer());
                    assertTrue(f.getMessage().startsWith("rank 0 closed its world"), f.getMessage());
                    assertThrows(PeerClosedException.class, () -> world.recv(0, 3), "a later receive fails at once");
                    assertThrows(PeerClosedException.class, () -> world.probe(0, 3), "a blocking probe too, not a hang");
                    assertEquals(Optional.empty(), world.iprobe(0, 3), "an iprobe answers: nothing more from it");
                    assertEquals(4, world.probe(0, Communicator.ANY_TAG).tag(), "what is queued is still found");
                    assertArrayEquals(new byte[] {4}, world.recv(0, 4).bytes());
                    assertFalse(other.isDone(), "a receive from any source may still be matched by another peer");
                    world.send(2, 5, new byte[] {5});
                    other.await();
                    assertArrayEquals(new byte[] {7}, other.message().bytes());
                }
                default -> {
                    assertArrayEquals(new byte[] {5}, world.recv(1, 5).bytes());
                    world.send(1, 7, new byte[] {7});
                }
            }
        });
    }

    @Test
    @Timeout(30)
    void aPeerThatSkipsACollectiveIsTheRootCauseNotAHang() {
        CohortException e = assertThrows(CohortException.class, () -> run(3, world -> {
            if (world.rank() != 2) {
                world.barrier();
            }
        }));
        Throwable c = e;
        while (c != null && !(c instanceof PeerClosedException)) {
            c = c.getCause();
        }
        assertInstanceOf(PeerClosedException.class, c, () -> "no PeerClosedException in the causes of " + e);
        assertEquals(2, ((PeerClosedException) c).peer());
        assertTrue(e.getMessage().contains("rank 2 closed its world"), e.getMessage());
    }

    @Test
    @Timeout(30)
    void closeDoesNotLoseMessagesSentJustBeforeIt() {
        int count = 1000;
        AtomicReference<Thread> sender = new AtomicReference<>();
        CountDownLatch closing = new CountDownLatch(1);
        run(2, world -> {
            if (world.rank() == 0) {
                sender.set(Thread.currentThread());
                List<Request> large = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    // 1000 x 1..8 KiB: more than the socket buffers hold, so frames are still queued at close.
                    world.send(1, 1, pattern(i, 1 + i % 8192));
                }
                for (int i = 0; i < 8; i++) {
                    large.add(world.isend(1, 2, pattern(-i, 1 << 20))); // not awaited: close must finish them
                }
                closing.countDown();
                world.close();
                assertTrue(large.stream().allMatch(Request::isDone), "close returned with sends pending");
            } else {
                closing.await();
                // Wait (without sleeping) until the sender is really inside close().
                Thread s = sender.get();
                while (s.isAlive() && Arrays.stream(s.getStackTrace())
                        .noneMatch(f -> f.getMethodName().equals("shutdown") || f.getMethodName().equals("close"))) {
                    Thread.onSpinWait();
                }
                for (int i = 0; i < count; i++) {
                    byte[] got = world.recv(0, 1).bytes();
                    assertEquals(1 + i % 8192, got.length, "message " + i);
                    assertEquals(crc(pattern(i, got.length)), crc(got), "message " + i);
                }
                for (int i = 0; i < 8; i++) {
                    assertEquals(crc(pattern(-i, 1 << 20)), crc(world.recv(0, 2).bytes()), "large message " + i);
                }
            }
        });
    }

    @Test
    @Timeout(30)
    void operationsAfterCloseFailClearly() {
        run(2, world -> {
            world.send(1 - world.rank(), 1, new byte[] {1});
            world.recv(1 - world.rank(), 1);
            world.close();
            world.close(); // idempotent
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> world.send(1 - world.rank(), 0, new byte[1]));
            assertTrue(e.getMessage().contains("closed"), e.getMessage());
            assertThrows(IllegalStateException.class, () -> world.irecv(Communicator.ANY_SOURCE, Communicator.ANY_TAG));
            assertThrows(IllegalStateException.class, () -> world.iprobe(Communicator.ANY_SOURCE, Communicator.ANY_TAG));
        });
    }

    // ---- idle strategies -------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"busy-spin", "yield", "backoff", "park"})
    @Timeout(60)
    void pingPongWithEachIdleStrategy(String idle) {
        int rounds = 500;
        cohort(2).idle(idle).run(world -> {
            int other = 1 - world.rank();
            byte[] buf = new byte[64];
            for (int i = 0; i < rounds; i++) {
                if (world.rank() == 0) {
                    buf[0] = (byte) i;
                    world.send(other, 1, buf);
                    assertEquals(64, world.recv(other, 2, buf).length());
                    assertEquals((byte) (i + 1), buf[0]);
                } else {
                    world.recv(other, 1, buf);
                    buf[0]++;
                    world.send(other, 2, buf);
                }
            }
            // A large ping-pong, so a sender also waits on the wire under this strategy.
            byte[] big = pattern(12, 2 << 20);
            if (world.rank() == 0) {
                world.send(1, 3, big);
                assertEquals(crc(big), crc(world.recv(1, 4).bytes()));
            } else {
                world.send(0, 4, world.recv(0, 3).bytes());
            }
        });
    }

    @Test
    @Timeout(30)
    void builderRejectsBadSettings() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LocalCohort.builder().size(0));
        assertTrue(e.getMessage().contains("0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> LocalCohort.builder().transport("pigeon"));
        assertTrue(e.getMessage().contains("pigeon"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> LocalCohort.builder().idle("lazy"));
        assertTrue(e.getMessage().contains("lazy"), e.getMessage());
    }
}
