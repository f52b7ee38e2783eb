package io.cohort.transport.fault;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The decorator over an in-memory port with a hand-driven clock: no sockets, no sleeps. */
@Timeout(30)
class FaultInjectingPortTest {
    private long now = 1_000_000_000L;
    private final MemoryDatagramPort inner = new MemoryDatagramPort();

    private FaultInjectingPort port(String spec, long seed) {
        return new FaultInjectingPort(inner, FaultPlan.parse(spec), seed, () -> now);
    }

    /** Receives everything receivable now; the ids in arrival order. */
    private static List<Integer> drain(DatagramPort p) {
        List<Integer> ids = new ArrayList<>();
        ByteBuffer b = ByteBuffer.allocate(64);
        for (;;) {
            b.clear();
            SocketAddress from = p.receive(b);
            if (from == null) {
                return ids;
            }
            assertEquals(MemoryDatagramPort.FROM, from);
            assertEquals(16, b.position(), "datagrams arrive whole");
            ids.add(b.getInt(0));
        }
    }

    @Test
    void lossDropsExactlyWhatItCountsAndReplays() {
        FaultInjectingPort p = port("loss=0.1,seed=3", 3);
        for (int i = 0; i < 10_000; i++) {
            inner.offer(i);
        }
        List<Integer> got = drain(p);
        assertEquals(10_000 - p.faults().dropped(), got.size());
        assertTrue(p.faults().dropped() > 800 && p.faults().dropped() < 1200, p.faults().toString());
        for (int i = 1; i < got.size(); i++) {
            assertTrue(got.get(i) > got.get(i - 1), "loss alone never reorders");
        }
        // Replay: the same seed drops the same datagram numbers.
        MemoryDatagramPort again = new MemoryDatagramPort();
        FaultInjectingPort q = new FaultInjectingPort(again, FaultPlan.parse("loss=0.1,seed=3"), 3, () -> now);
        for (int i = 0; i < 10_000; i++) {
            again.offer(i);
        }
        assertEquals(got, drain(q));
    }

    @Test
    void duplicatesArriveRightAfterTheOriginal() {
        FaultInjectingPort p = port("dup=0.2", 11);
        for (int i = 0; i < 5000; i++) {
            inner.offer(i);
        }
        List<Integer> got = drain(p);
        assertEquals(5000 + p.faults().duplicated(), got.size());
        assertTrue(p.faults().duplicated() > 800, p.faults().toString());
        Map<Integer, Integer> seen = new HashMap<>();
        for (int id : got) {
            seen.merge(id, 1, Integer::sum);
        }
        assertEquals(5000, seen.size(), "nothing lost");
        assertTrue(seen.values().stream().allMatch(c -> c <= 2));
    }

    @Test
    void reorderedDatagramsComeAfterDepthLaterOnesOrWhenTheirHoldEnds() {
        FaultInjectingPort p = port("reorder=0.1:3,hold=5ms", 5);
        for (int i = 0; i < 1000; i++) {
            inner.offer(i);
        }
        List<Integer> got = new ArrayList<>(drain(p));
        long reordered = p.faults().reordered();
        assertTrue(reordered > 50, p.faults().toString());
        int displaced = 0;
        for (int i = 1; i < got.size(); i++) {
            if (got.get(i) < got.get(i - 1)) {
                displaced++;
            }
        }
        assertTrue(displaced > 0, "some datagrams came out of order");
        // The tail may still be held: traffic stopped, so only the hold time releases it.
        int before = got.size();
        assertTrue(before <= 1000);
        if (before < 1000) {
            assertTrue(p.nextDueNanos() - now > 0, "held datagrams fall due later, not now");
            now += 5_000_000;
            assertTrue(p.nextDueNanos() - now <= 0);
            got.addAll(drain(p));
        }
        assertEquals(1000, got.size(), "reordering never loses a datagram");
        assertEquals(1000, got.stream().distinct().count());
        assertEquals(Long.MAX_VALUE, p.nextDueNanos());
    }

    @Test
    void delayNeverLosesADatagramAndTellsTheOwnerWhenToComeBack() {
        FaultInjectingPort p = port("delay=2ms,jitter=1ms,dup=0.05", 17);
        List<Integer> got = new ArrayList<>();
        int sent = 0;
        for (int round = 0; round < 200; round++) {
            for (int k = 0; k < 10; k++) {
                inner.offer(sent++);
            }
            got.addAll(drain(p));
            now += 100_000; // 0.1 ms per round: datagrams overtake each other by their jitter
        }
        assertTrue(got.size() < sent, "most of the last 2-3 ms are still delayed");
        long due = p.nextDueNanos();
        assertTrue(due != Long.MAX_VALUE && due - now <= 3_000_000, "something falls due within the delay");
        while (p.nextDueNanos() != Long.MAX_VALUE) {
            now = Math.max(now, p.nextDueNanos());
            got.addAll(drain(p));
        }
        assertEquals(sent + p.faults().duplicated(), got.size(), "every datagram (and duplicate) arrived");
        assertEquals(sent, got.stream().distinct().count());
        assertEquals(sent + p.faults().duplicated(), p.faults().delayed());
    }

    @Test
    void burstsDropRunsOfDatagrams() {
        FaultInjectingPort p = port("burst=0.02:5", 23);
        for (int i = 0; i < 20_000; i++) {
            inner.offer(i);
        }
        List<Integer> got = drain(p);
        assertTrue(p.faults().bursts() > 200, p.faults().toString());
        assertEquals(20_000 - p.faults().droppedInBursts(), got.size());
        int gaps = 0;
        for (int i = 1; i < got.size(); i++) {
            int gap = got.get(i) - got.get(i - 1) - 1;
            if (gap > 0) {
                gaps++;
                assertTrue(gap % 5 == 0, "a gap of " + gap);
            }
        }
        assertTrue(gaps > 0);
    }

    @Test
    void sendSideFaultsApplyToSendsAndDelayedSendsGoOutWhenDue() {
        FaultInjectingPort p = port("side=send,delay=1ms,loss=0.1", 29);
        ByteBuffer b = ByteBuffer.allocate(16);
        SocketAddress to = MemoryDatagramPort.FROM;
        for (int i = 0; i < 1000; i++) {
            b.clear();
            b.putInt(0, i);
            assertTrue(p.send(b, to), "a faulty wire still takes every datagram");
            assertEquals(16, b.position(), "the datagram is consumed");
        }
        assertEquals(0, inner.sent.size(), "all delayed");
        now += 1_000_000;
        assertNull(p.receive(ByteBuffer.allocate(16)), "the receive side is untouched (and empty)");
        assertEquals(1000 - p.faults().dropped(), inner.sent.size(), "delayed sends went out on the owner's receive");
        assertEquals(Long.MAX_VALUE, p.nextDueNanos());
        inner.offer(77);
        ByteBuffer in = ByteBuffer.allocate(16);
        assertNotNull(p.receive(in));
        assertEquals(77, in.getInt(0));
    }

    @Test
    void withoutFaultsTheDecoratorIsTransparent() {
        FaultInjectingPort p = port("seed=1", 1);
        for (int i = 0; i < 100; i++) {
            inner.offer(i);
        }
        List<Integer> got = drain(p);
        assertEquals(100, got.size());
        inner.refuse = true;
        assertTrue(!p.send(ByteBuffer.allocate(4), MemoryDatagramPort.FROM), "a refusal shows through");
    }
}
