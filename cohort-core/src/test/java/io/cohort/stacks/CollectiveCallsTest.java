package io.cohort.stacks;

import io.cohort.LocalCohort;
import io.cohort.Op;
import io.cohort.Request;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which collective a thread is in: as the collectives record it and a capture on another thread reads it. */
@Timeout(30)
class CollectiveCallsTest {
    @Test
    void aSlotShowsItsCollectiveUntilItIsLeftAndKeepsTheOutermostOfNestedOnes() {
        CollectiveCalls.Slot s = CollectiveCalls.mine();
        long me = Thread.currentThread().getId();
        assertNull(CollectiveCalls.snapshot().get(me));
        s.enter("allreduce", 4, "[0,2]", 9, -1, new double[3], 3, "SUM");
        try {
            assertEquals(new CollectiveCall("allreduce", 4, "[0,2]", 9, -1, 3, "double[]", "SUM"), CollectiveCalls.snapshot().get(me));
            s.enter("allgather", 4, "[0,2]", 10, -1, new byte[1], 1, null);
            s.exit();
            assertEquals("allreduce #9 on communicator 4 [0,2]: SUM, 3 elements of double[]", CollectiveCalls.snapshot().get(me).describe());
        } finally {
            s.exit();
        }
        assertNull(CollectiveCalls.snapshot().get(me));
        s.enter("barrier", 0, "", 0, -1, null, -1, null);
        s.exit();
        assertTrue(CollectiveCalls.mine() == s, "one slot per thread");
    }

    @Test
    void aReaderNeverSeesHalfOfOneCallAndHalfOfAnother() throws Exception {
        CollectiveCall a = new CollectiveCall("bcast", 0, "", 1, 2, 4, "int[]", "");
        CollectiveCall b = new CollectiveCall("reduce", 6, "", 2, 0, 9, "ByteBuffer", "MAX");
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong writes = new AtomicLong();
        Thread writer = new Thread(() -> {
            CollectiveCalls.Slot s = CollectiveCalls.mine();
            int[] ints = new int[4];
            java.nio.ByteBuffer direct = java.nio.ByteBuffer.allocateDirect(9);
            while (!stop.get()) {
                s.enter("bcast", 0, "", 1, 2, ints, 4, null);
                s.exit();
                s.enter("reduce", 6, "", 2, 0, direct, 9, "MAX");
                s.exit();
                writes.incrementAndGet();
            }
        }, "collective-calls-writer");
        writer.setDaemon(true);
        writer.start();
        try {
            Set<CollectiveCall> allowed = Set.of(a, b);
            int seen = 0;
            for (int i = 0; i < 200_000 && (seen < 1000 || writes.get() < 1000); i++) {
                CollectiveCall c = CollectiveCalls.snapshot().get(writer.getId());
                if (c != null) {
                    assertTrue(allowed.contains(c), "a torn read: " + c);
                    seen++;
                }
            }
            assertTrue(writes.get() > 0, "the writer ran");
            assertTrue(seen > 0, "the reader saw the writer inside a collective");
        } finally {
            stop.set(true);
            writer.join();
        }
    }

    @Test
    void aCaptureShowsTheCollectiveEachPeerWaitsInWithItsArguments() {
        AtomicLong rank0Thread = new AtomicLong(-1);
        AtomicLong collThread = new AtomicLong(-1);
        LocalCohort.builder().size(2).timeout(Duration.ofSeconds(25)).run(world -> {
            if (world.rank() == 0) {
                world.barrier();
                rank0Thread.set(Thread.currentThread().getId());
                int[] data = new int[4];
                world.bcast(1, data); // waits until rank 1 has seen it waiting
                assertArrayEquals(new int[] {1, 2, 3, 4}, data);
                Request r = world.iallreduce(new long[] {5, 6}, new long[2], Op.SUM);
                r.await();
            } else {
                world.barrier();
                ThreadStack waiting = awaitCall(rank0Thread);
                assertEquals("bcast", waiting.call().operation());
                assertEquals(0, waiting.call().communicator(), "the world");
                assertEquals(1, waiting.call().root());
                assertEquals("int[]", waiting.call().type());
                assertEquals(4, waiting.call().count());
                long bcastNumber = waiting.call().sequence();
                world.bcast(1, new int[] {1, 2, 3, 4});
                // Rank 0's iallreduce runs on its collectives thread, which waits there for this rank's.
                ThreadStack coll = awaitCall(t -> t.name().startsWith("cohort-coll-0"), collThread);
                assertEquals(new CollectiveCall("iallreduce", 0, "", bcastNumber + 1, -1, 2, "long[]", "SUM"), coll.call());
                world.allreduce(new long[] {1, 1}, new long[2], Op.SUM);
            }
        });
        assertFalse(CollectiveCalls.snapshot().containsKey(rank0Thread.get()), "left when the bcast returned");
    }

    @Test
    void aSplitCommunicatorIsNamedByItsContextAndItsMembers() {
        AtomicLong waiter = new AtomicLong(-1);
        LocalCohort.builder().size(4).timeout(Duration.ofSeconds(25)).run(world -> {
            try (io.cohort.Communicator half = world.split(world.rank() % 2, world.rank())) {
                if (world.rank() == 0) {
                    waiter.set(Thread.currentThread().getId());
                    half.bcast(1, new int[2]); // root 1 of [0,2] is world rank 2, which waits to see this
                } else if (world.rank() == 2) {
                    CollectiveCall c = awaitCall(waiter).call();
                    assertEquals("[0,2]", c.members());
                    assertTrue(c.communicator() > 0, "a context of its own: " + c);
                    assertEquals("bcast #0 on communicator " + c.communicator() + " [0,2]: root 1, 2 elements of int[]",
                            c.describe());
                    half.bcast(1, new int[2]);
                }
            }
        });
    }

    /** Captures until the thread with id {@code thread} (once known) is in a collective. */
    private static ThreadStack awaitCall(AtomicLong thread) {
        return awaitCall(t -> t.id() == thread.get(), thread);
    }

    private static ThreadStack awaitCall(java.util.function.Predicate<ThreadStack> which, AtomicLong found) {
        while (true) { // each capture is the wait; the class's time-out ends a test that never sees it
            for (ThreadStack t : StackCapture.threads(Thread.currentThread())) {
                if (which.test(t) && t.call() != null) {
                    found.set(t.id());
                    return t;
                }
            }
            Thread.yield();
        }
    }

    private static CollectiveCall call(String operation, int root, long count, String type, String op) {
        return new CollectiveCall(operation, 0, "", 5, root, count, type, op);
    }

    @Test
    void callsAgreeAsMpiRequires() {
        CollectiveCall bcast = call("bcast", 0, 4, "int[]", "");
        assertTrue(bcast.agreesWith(call("ibcast", 0, 4, "int[]", "")), "a nonblocking form meets its blocking one");
        assertFalse(bcast.agreesWith(call("bcast", 1, 4, "int[]", "")), "another root");
        assertFalse(bcast.agreesWith(call("bcast", 0, 5, "int[]", "")), "another count");
        assertFalse(bcast.agreesWith(call("bcast", 0, 4, "long[]", "")), "another element type");
        assertFalse(bcast.agreesWith(call("barrier", -1, -1, "", "")), "another collective");
        assertTrue(bcast.agreesWith(call("bcast", 0, -1, "", "")), "a call that names no buffer");
        assertTrue(call("bcast", 0, 8, "byte[]", "").agreesWith(call("bcast", 0, 8, "ByteBuffer", "")), "the same elements");
        assertTrue(call("gather", 0, 1, "String[]", "").agreesWith(call("gather", 0, 1, "Object[]", "")), "objects alike");
        assertTrue(call("gatherv", 0, 1, "int[]", "").agreesWith(call("gatherv", 0, 7, "int[]", "")), "v forms: counts by rank");
        // Blocks that travel as bytes: packed data meets any primitive kind of the same length, not another kind.
        assertTrue(call("gatherv", 0, 8, "byte[]", "").agreesWith(call("gatherv", 0, 2, "int[]", "")), "packed against ints");
        assertTrue(call("gather", 0, 8, "byte[]", "").agreesWith(call("gather", 0, 2, "int[]", "")), "the same 8 bytes");
        assertFalse(call("gather", 0, 6, "byte[]", "").agreesWith(call("gather", 0, 2, "int[]", "")), "6 bytes against 8");
        assertFalse(call("allgather", -1, 2, "int[]", "").agreesWith(call("allgather", -1, 1, "long[]", "")), "ints against longs");
        assertFalse(call("gather", 0, 8, "byte[]", "").agreesWith(call("gather", 0, 1, "String[]", "")), "bytes against objects");
        assertFalse(call("bcast", 0, 8, "byte[]", "").agreesWith(call("bcast", 0, 2, "int[]", "")), "a bcast's header tells types apart");
        assertFalse(call("bcast", 0, 3, "byte[]", "").agreesWith(call("bcastBytes", 0, -1, "", "")), "two different calls");
        CollectiveCall sum = call("allreduce", -1, 2, "double[]", "SUM");
        assertFalse(sum.agreesWith(call("allreduce", -1, 2, "double[]", "MAX")), "another op");
        assertTrue(sum.agreesWith(call("iallreduce", -1, 2, "double[]", "SUM")));
    }

    @Test
    void describedAndSignedInOneLine() {
        assertEquals("bcast #5 on world: root 0, 4 elements of int[]", call("bcast", 0, 4, "int[]", "").describe());
        assertEquals("bcast from root 0 of 4 ints", call("bcast", 0, 4, "int[]", "").signature());
        assertEquals("barrier #5 on world", call("barrier", -1, -1, "", "").describe());
        assertEquals("barrier", call("ibarrier", -1, -1, "", "").signature());
        assertEquals("allreduce with SUM of 1 double", call("allreduce", -1, 1, "double[]", "SUM").signature());
        assertEquals("allgatherv of bytes", call("allgatherv", -1, 3, "ByteBuffer", "").signature());
        assertEquals("gather #5 on communicator 6 [1,3-5]: root 2, 1 element of String[]",
                new CollectiveCall("gather", 6, "[1,3-5]", 5, 2, 1, "String[]", "").describe());
    }

    @Test
    void membersAreWrittenCompactlyAndCutWhereTheyGrowLong() {
        assertEquals("[0]", CollectiveCall.members(new int[] {0}));
        assertEquals("[1,3]", CollectiveCall.members(new int[] {3, 1}));
        assertEquals("[0-2,4,5,7-9]", CollectiveCall.members(new int[] {0, 1, 2, 4, 5, 7, 8, 9}));
        int[] even = new int[1000];
        for (int i = 0; i < even.length; i++) {
            even[i] = 2 * i;
        }
        String cut = CollectiveCall.members(even);
        assertTrue(cut.startsWith("[0,2,4,6,") && cut.endsWith(",...] (1000 ranks)"), cut);
        assertTrue(cut.length() < 70, cut);
        assertEquals("communicator 3 [1,3]", new CollectiveCall("barrier", 3, "[1,3]", 0, -1, -1, "", "").communicatorName());
        assertEquals("world", new CollectiveCall("barrier", 0, "", 0, -1, -1, "", "").communicatorName());
    }

    @Test
    void aThreadThatEndedLeavesNoSlotBehind() throws Exception {
        // The registry is weak in the thread; a slot must not hold its thread, or none is ever dropped.
        java.lang.ref.WeakReference<Thread> gone;
        {
            Thread t = new Thread(() -> {
                CollectiveCalls.Slot s = CollectiveCalls.mine();
                s.enter("barrier", 0, "", 0, -1, null, -1, null);
                s.exit();
            }, "collective-calls-ended");
            t.start();
            t.join();
            gone = new java.lang.ref.WeakReference<>(t);
        }
        for (int i = 0; i < 100 && gone.get() != null; i++) {
            System.gc(); // each round is the wait; the class's time-out bounds them
        }
        assertNull(gone.get(), "the ended thread is still reachable");
    }
}
