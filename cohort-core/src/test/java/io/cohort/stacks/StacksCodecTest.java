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
        assertEquals(0, b.remaining());
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
        byte[] good = StacksCodec.encode(PeerStacks.of(List.of(waiting("main", 1))));
        for (int cut = 0; cut < good.length; cut++) {
            byte[] truncated = Arrays.copyOf(good, cut);
            assertThrows(IOException.class, () -> StacksCodec.decode(truncated), "cut at " + cut);
        }
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
