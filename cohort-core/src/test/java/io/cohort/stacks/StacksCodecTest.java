package io.cohort.stacks;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class StacksCodecTest {
    static ThreadStack waiting(String name, long id) {
        return new ThreadStack(name, id, false, Thread.State.WAITING, "java.util.concurrent.CountDownLatch$Sync@1f", "main",
                List.of(ThreadStack.frame("jdk.internal.misc.Unsafe", "park", null, -2),
                        ThreadStack.frame("app.Hang", "stuck", "Hang.java", 42)));
    }

    @Test
    void peerStacksRoundTrip() throws IOException {
        PeerStacks p = new PeerStacks(List.of(waiting("main", 1),
                new ThreadStack("cohort-progress-3", 12, true, Thread.State.TIMED_WAITING, null, null, List.of())), 2);
        PeerStacks back = StacksCodec.decode(StacksCodec.encode(p));
        assertEquals(p, back);
        assertEquals("jdk.internal.misc.Unsafe.park(Native Method)", back.threads().get(0).frames().get(0).toString());
        assertEquals("app.Hang.stuck(Hang.java:42)", back.threads().get(0).frames().get(1).toString());
    }

    @Test
    void layoutIsPinned() throws IOException {
        ThreadStack t = new ThreadStack("m", 7, true, Thread.State.BLOCKED, null, null, List.of(ThreadStack.frame("C", "f", "C.java", 3)));
        byte[] wire = StacksCodec.encode(PeerStacks.of(List.of(t)));
        ByteBuffer b = ByteBuffer.wrap(wire);
        assertEquals(1, b.get(), "version");
        assertEquals(1, b.getInt(), "threads");
        assertEquals(0, b.getInt(), "omitted");
        assertEquals("m", str(b));
        assertEquals(7L, b.getLong(), "id");
        assertEquals(1, b.get(), "daemon");
        assertEquals(Thread.State.BLOCKED.ordinal(), b.get(), "state");
        assertEquals("", str(b), "no lock");
        assertEquals("", str(b), "no owner");
        assertEquals(1, b.getInt(), "frames");
        assertEquals("C", str(b));
        assertEquals("f", str(b));
        assertEquals("C.java", str(b));
        assertEquals(3, b.getInt(), "line");
        assertEquals(0, b.getInt(), "calls");
        assertEquals(0, b.getInt(), "waits");
        assertEquals(0, b.remaining());
    }

    static final CollectiveCall BCAST = new CollectiveCall("bcast", 0, "", 17, 1, 4, "int[]", "");

    @Test
    void callsTravelAfterTheThreadsWithTheIndexOfTheirThread() throws IOException {
        ThreadStack t = new ThreadStack("m", 7, false, Thread.State.WAITING, null, null, List.of());
        ThreadStack coll = new ThreadStack("cohort-coll-3", 9, true, Thread.State.WAITING, null, null, List.of(),
                new CollectiveCall("iallreduce", 6, "[3,5]", 2, -1, 100, "double[]", "SUM"), null);
        PeerStacks p = PeerStacks.of(List.of(t.withCall(BCAST), waiting("other", 8), coll));
        byte[] wire = StacksCodec.encode(p);
        assertEquals(p, StacksCodec.decode(wire));

        ByteBuffer b = ByteBuffer.wrap(wire);
        b.position(wire.length - callsBlock(p) - 4);
        assertEquals(2, b.getInt(), "calls");
        assertEquals(0, b.getInt(), "thread index");
        assertEquals("bcast", str(b));
        assertEquals(0, b.getInt(), "communicator");
        assertEquals("", str(b), "members: the world's");
        assertEquals(17L, b.getLong(), "sequence");
        assertEquals(1, b.getInt(), "root");
        assertEquals(4L, b.getLong(), "count");
        assertEquals("int[]", str(b));
        assertEquals("", str(b), "no op");
        assertEquals(2, b.getInt(), "thread index");
        assertEquals("iallreduce", str(b));
        assertEquals(6, b.getInt(), "communicator");
        assertEquals("[3,5]", str(b), "members");
        b.position(b.position() + 8 + 4 + 8);
        assertEquals("double[]", str(b));
        assertEquals("SUM", str(b));
        assertEquals(0, b.getInt(), "waits");
        assertEquals(0, b.remaining());
    }

    @Test
    void waitsTravelAfterTheCallsWithTheIndexOfTheirThread() throws IOException {
        PeerWait recv = new PeerWait(PeerWait.RECEIVE, 3, 0, 99);
        PeerWait send = new PeerWait(PeerWait.SEND, 1, -1, 7);
        PeerStacks p = PeerStacks.of(List.of(waiting("main", 1).withCall(BCAST).withWait(recv), waiting("other", 2),
                waiting("sender", 3).withWait(send)));
        byte[] wire = StacksCodec.encode(p);
        assertEquals(p, StacksCodec.decode(wire));
        ByteBuffer b = ByteBuffer.wrap(wire);
        b.position(wire.length - (4 + 2 * (4 + 4 + 4 + 4 + 4) + "receive".length() + "send".length()));
        assertEquals(2, b.getInt(), "waits");
        assertEquals(0, b.getInt(), "thread index");
        assertEquals("receive", str(b));
        assertEquals(3, b.getInt(), "peer");
        assertEquals(0, b.getInt(), "context");
        assertEquals(99, b.getInt(), "tag");
        assertEquals(2, b.getInt(), "thread index");
        assertEquals("send", str(b));
        assertEquals(1, b.getInt());
        assertEquals(-1, b.getInt());
        assertEquals(7, b.getInt());
        assertEquals(0, b.remaining());
        assertEquals(PeerStacks.of(List.of(waiting("main", 1).withCall(BCAST), waiting("other", 2), waiting("sender", 3))),
                StacksCodec.decode(Arrays.copyOf(wire, wire.length - 2 * (4 + 4 + 4 + 4 + 4) - 4 - 11)),
                "stacks without the waits block, as a peer from before waits were named sends them");
    }

    @Test
    void stacksWithoutTheCallsBlockStillDecode() throws IOException {
        PeerStacks p = PeerStacks.of(List.of(waiting("main", 1)));
        byte[] wire = StacksCodec.encode(p);
        assertEquals(p, StacksCodec.decode(Arrays.copyOf(wire, wire.length - 8)), "as a peer of an earlier version sends them");
    }

    /** The bytes of the calls block at the end of {@code p}'s wire form. */
    private static int callsBlock(PeerStacks p) {
        int n = 4;
        for (ThreadStack t : p.threads()) {
            if (t.call() != null) {
                CollectiveCall c = t.call();
                n += 4 + 4 + c.operation().length() + 4 + 4 + c.members().length() + 8 + 4 + 8 + 4 + c.type().length() + 4
                        + c.op().length();
            }
        }
        return n;
    }

    private static String str(ByteBuffer b) {
        byte[] s = new byte[b.getInt()];
        b.get(s);
        return new String(s, StandardCharsets.UTF_8);
    }

    @Test
    void aThreadThatDoesNotFitIsOmittedAndLaterOnesStillTried() throws IOException {
        List<StackTraceElement> deep = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            deep.add(ThreadStack.frame("app.Recursive", "down", "Recursive.java", i));
        }
        ThreadStack big = new ThreadStack("deep", 2, false, Thread.State.RUNNABLE, null, null, deep);
        List<ThreadStack> threads = List.of(waiting("main", 1), big, waiting("small", 3));
        byte[] wire = StacksCodec.encode(threads, 0, 2000);
        assertTrue(wire.length <= 2000, wire.length + " bytes");
        PeerStacks back = StacksCodec.decode(wire);
        assertEquals(List.of("main", "small"), back.threads().stream().map(ThreadStack::name).toList());
        assertEquals(1, back.omittedThreads());
    }

    @Test
    void bytesAfterTheKnownFieldsAreIgnored() throws IOException {
        PeerStacks p = PeerStacks.of(List.of(waiting("main", 1)));
        byte[] grown = Arrays.copyOf(StacksCodec.encode(p), StacksCodec.encode(p).length + 3);
        assertEquals(p, StacksCodec.decode(grown), "a later version's additions at the end");
        RankStacks r = RankStacks.answered(2, "h", 9, p);
        byte[] rank = Arrays.copyOf(StacksCodec.encode(r), StacksCodec.encode(r).length + 5);
        assertEquals(r, StacksCodec.decodeRank(rank));
    }

    @Test
    void rankRoundTrip() throws IOException {
        RankStacks answered = RankStacks.answered(3, "node7", 4242, PeerStacks.of(List.of(waiting("main", 1))));
        assertEquals(answered, StacksCodec.decodeRank(StacksCodec.encode(answered)));
        RankStacks silent = RankStacks.silent(5, "node8", -1, RankStacks.Answer.NOT_JOINED, "has not joined the job");
        assertEquals(silent, StacksCodec.decodeRank(StacksCodec.encode(silent)));
    }

    @Test
    void malformedBodiesAreIOExceptionsNeverHugeAllocations() {
        PeerStacks withCall = PeerStacks.of(List.of(waiting("main", 1).withCall(BCAST).withWait(new PeerWait("receive", 2, 0, 5))));
        byte[] good = StacksCodec.encode(withCall);
        int waitsBlock = 4 + 4 + 4 + "receive".length() + 4 + 4 + 4;
        int callsEnd = good.length - waitsBlock;
        int threadsEnd = callsEnd - callsBlock(withCall);
        for (int cut = 0; cut < good.length; cut++) {
            byte[] truncated = Arrays.copyOf(good, cut);
            // A cut right after the threads or the calls is the form of an earlier version; a count cut
            // short is ignored as a later version's partial addition would be.
            boolean earlierForm = cut >= threadsEnd && cut < threadsEnd + 4 || cut >= callsEnd && cut < callsEnd + 4;
            if (!earlierForm) {
                assertThrows(IOException.class, () -> StacksCodec.decode(truncated), "cut at " + cut);
            }
        }
        byte[] badWait = good.clone();
        ByteBuffer.wrap(badWait).putInt(callsEnd + 4, 3); // the wait of a fourth thread, of one
        assertThrows(IOException.class, () -> StacksCodec.decode(badWait));
        byte[] badIndex = good.clone();
        ByteBuffer.wrap(badIndex).putInt(threadsEnd + 4, 1); // the call of a second thread, of one
        assertThrows(IOException.class, () -> StacksCodec.decode(badIndex));
        byte[] hugeCalls = good.clone();
        ByteBuffer.wrap(hugeCalls).putInt(threadsEnd, Integer.MAX_VALUE);
        assertThrows(IOException.class, () -> StacksCodec.decode(hugeCalls));
        byte[] hugeCount = good.clone();
        ByteBuffer.wrap(hugeCount).putInt(1, Integer.MAX_VALUE);
        assertThrows(IOException.class, () -> StacksCodec.decode(hugeCount));
        byte[] badVersion = good.clone();
        badVersion[0] = 9;
        assertThrows(IOException.class, () -> StacksCodec.decode(badVersion));
        byte[] rank = StacksCodec.encode(RankStacks.silent(0, "h", 1, RankStacks.Answer.EXITED, "exited with status 0"));
        rank[4] = 42; // no such answer kind
        assertThrows(IOException.class, () -> StacksCodec.decodeRank(rank));
    }
}
