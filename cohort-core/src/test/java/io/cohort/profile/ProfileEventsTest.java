package io.cohort.profile;

import io.cohort.Communicator;
import io.cohort.LocalCohort;
import io.cohort.Message;
import io.cohort.Op;
import io.cohort.Profile;
import io.cohort.Request;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import static io.cohort.profile.EventCapture.named;
import static io.cohort.profile.EventCapture.rankOf;
import static io.cohort.profile.EventCapture.record;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The profiler's events as in-JVM peers record them: their fields, the pairing of every Send with
 * its Receive by sequence number, the silence of the collectives' own messages, and nothing at all
 * when no recording asks.
 */
@Isolated // records JFR events, which are process-wide: another class's peers would add theirs
@Timeout(60)
class ProfileEventsTest {

    /** "sender->receiver#sequence" of a Send (sender = the committing peer) or a Receive (receiver = it). */
    private static String pairKey(RecordedEvent e, boolean send) {
        int me = rankOf(e);
        int peer = e.getInt("peer");
        return (send ? me + "->" + peer : peer + "->" + me) + "#" + e.getLong("sequence");
    }

    /**
     * The reader sums the durations of these events as the time spent communicating: on one thread
     * they must never overlap (an instant, such as an irecv's Receive inside its Wait, adds nothing).
     */
    private static void assertNoOverlapPerThread(List<RecordedEvent> events) {
        Set<String> timed = Set.of(SendEvent.NAME, ReceiveEvent.NAME, ProbeEvent.NAME, WaitEvent.NAME, CollectiveEvent.NAME);
        Map<Long, List<RecordedEvent>> byThread = events.stream().filter(e -> timed.contains(e.getEventType().getName()))
                .filter(e -> !e.getDuration().isZero())
                .collect(Collectors.groupingBy(e -> e.getThread().getJavaThreadId()));
        for (List<RecordedEvent> list : byThread.values()) {
            RecordedEvent previous = null;
            for (RecordedEvent e : list) { // in start order
                if (previous != null) {
                    assertFalse(e.getStartTime().isBefore(previous.getEndTime()),
                            "overlapping events on one thread:\n" + previous + "\n" + e);
                }
                previous = e;
            }
        }
    }

    @Test
    void everySendPairsWithItsReceiveBySequenceAcrossCollectives() throws Exception {
        List<RecordedEvent> events = record(() -> LocalCohort.run(3, world -> {
            int me = world.rank();
            int next = (me + 1) % 3;
            int prev = (me + 2) % 3;
            world.send(next, 1, new byte[10]);
            world.recv(prev, 1);
            world.barrier(); // the collectives' own messages: counted, never recorded as the program's
            world.alltoall(new int[3], new int[3]);
            Request s = world.isend(next, 2, new int[5]);
            Request r = world.irecv(prev, 2);
            Request.awaitAll(s, r);
            world.sendObject(next, 3, "hello");
            assertEquals("hello", world.recvObject(prev, 3));
            world.send(me, 4, new long[2]); // to itself
            world.recv(me, 4, new long[2]);
        }));
        List<RecordedEvent> sends = named(events, SendEvent.NAME);
        List<RecordedEvent> receives = named(events, ReceiveEvent.NAME);
        assertEquals(12, sends.size(), "4 sends by each of 3 peers, none from the collectives: " + sends);
        assertEquals(12, receives.size(), "4 receives by each of 3 peers, none from the collectives: " + receives);

        Map<String, RecordedEvent> sent = new HashMap<>();
        for (RecordedEvent e : sends) {
            assertTrue(rankOf(e) >= 0, "committed by a peer's thread: " + e);
            assertEquals(0, e.getInt("communicator"));
            assertNull(sent.put(pairKey(e, true), e), "one send per (peer, sequence): " + e);
        }
        for (RecordedEvent e : receives) {
            RecordedEvent s = sent.remove(pairKey(e, false));
            assertNotNull(s, "the send of " + e);
            assertEquals(s.getInt("tag"), e.getInt("tag"));
            assertEquals(s.getLong("bytes"), e.getLong("bytes"));
            assertEquals(s.getInt("communicator"), e.getInt("communicator"));
        }
        assertEquals(Map.of(), sent, "every send was received");

        for (int rank = 0; rank < 3; rank++) {
            int me = rank;
            Map<Integer, RecordedEvent> byTag = sends.stream().filter(e -> rankOf(e) == me)
                    .collect(Collectors.toMap(e -> e.getInt("tag"), e -> e));
            assertEquals("send", byTag.get(1).getString("operation"));
            assertEquals(10, byTag.get(1).getLong("bytes"));
            assertEquals((me + 1) % 3, byTag.get(1).getInt("peer"));
            assertEquals(0, byTag.get(1).getLong("sequence"), "the first message to that peer");
            assertEquals("isend", byTag.get(2).getString("operation"));
            assertEquals(20, byTag.get(2).getLong("bytes"));
            assertTrue(byTag.get(2).getLong("sequence") > 1, "the barrier and alltoall sent to that peer in between: "
                    + byTag.get(2));
            assertEquals("sendObject", byTag.get(3).getString("operation"));
            assertEquals(me, byTag.get(4).getInt("peer"));
            Set<String> ops = receives.stream().filter(e -> rankOf(e) == me).map(e -> e.getString("operation"))
                    .collect(Collectors.toSet());
            assertEquals(Set.of("recv", "irecv", "recvObject"), ops);
        }

        List<RecordedEvent> collectives = named(events, CollectiveEvent.NAME);
        assertEquals(6, collectives.size(), collectives.toString());
        for (RecordedEvent c : collectives) {
            assertTrue(Set.of("barrier", "alltoall").contains(c.getString("operation")), c.toString());
            assertFalse(c.getString("algorithm").isEmpty(), c.toString());
            assertEquals(3, c.getInt("size"));
            assertEquals(-1, c.getInt("root"));
        }
        List<RecordedEvent> waits = named(events, WaitEvent.NAME);
        assertEquals(3, waits.size(), "one awaitAll per peer, and nothing for the awaits inside it: " + waits);
        for (RecordedEvent w : waits) {
            assertEquals("awaitAll", w.getString("operation"));
            assertEquals(2, w.getInt("requests"));
        }
        assertNoOverlapPerThread(events);
    }

    @Test
    void sendsCarryTheCallSite() throws Exception {
        List<RecordedEvent> events = record(() -> LocalCohort.run(2, world -> {
            if (world.rank() == 0) {
                world.send(1, 0, new byte[1]);
            } else {
                world.recv(0, 0);
            }
        }));
        RecordedEvent send = named(events, SendEvent.NAME).get(0);
        assertNotNull(send.getStackTrace(), "Send events carry a stack trace");
        List<String> frames = send.getStackTrace().getFrames().stream().map(RecordedFrame::getMethod)
                .map(m -> m.getType().getName()).toList();
        assertTrue(frames.stream().anyMatch(n -> n.startsWith(ProfileEventsTest.class.getName())),
                "the program's frame is in the trace: " + frames);
    }

    @Test
    void collectivesNameTheirAlgorithmRootAndBytes() throws Exception {
        List<RecordedEvent> events = record(() -> LocalCohort.run(4, world -> {
            world.bcast(1, new int[10]);
            world.allreduce(new double[4], new double[4], Op.SUM);
            world.gather(2, new long[3], new long[12]);
            byte[] got = world.bcast(0, world.rank() == 0 ? new byte[100] : null);
            assertEquals(100, got.length);
            world.ibarrier().await();
        }));
        assertTrue(named(events, SendEvent.NAME).isEmpty(), "collectives record no sends");
        assertTrue(named(events, ReceiveEvent.NAME).isEmpty(), "collectives record no receives");
        List<RecordedEvent> collectives = named(events, CollectiveEvent.NAME);
        assertEquals(20, collectives.size(), collectives.toString());
        Map<String, List<RecordedEvent>> byOp = collectives.stream().collect(Collectors.groupingBy(e -> e.getString("operation")));
        assertEquals(Set.of("bcast", "allreduce", "gather", "ibarrier"), byOp.keySet());
        for (RecordedEvent e : collectives) {
            assertEquals(4, e.getInt("size"));
            assertEquals(0, e.getInt("communicator"));
            assertTrue(rankOf(e) >= 0, "committed by the calling peer's thread: " + e);
            assertEquals(e.getString("operation").equals("ibarrier"), e.getString("algorithm").isEmpty(),
                    "only a nonblocking collective, which chooses when it runs, names no algorithm: " + e);
        }
        assertTrue(byOp.get("bcast").stream().anyMatch(e -> e.getInt("root") == 1 && e.getLong("bytes") == 40));
        assertEquals(4, byOp.get("bcast").stream().filter(e -> e.getInt("root") == 0 && e.getLong("bytes") == 100).count(),
                "the root sent 100 bytes and the others received them");
        assertTrue(byOp.get("allreduce").stream().allMatch(e -> e.getInt("root") == -1 && e.getLong("bytes") == 32));
        assertTrue(byOp.get("gather").stream().allMatch(e -> e.getInt("root") == 2 && e.getLong("bytes") == 24));
        List<RecordedEvent> waits = named(events, WaitEvent.NAME);
        assertEquals(4, waits.size(), "the await of each ibarrier: " + waits);
        assertTrue(waits.stream().allMatch(w -> w.getString("operation").equals("await") && w.getInt("requests") == 1));
        assertNoOverlapPerThread(events);
    }

    @Test
    void regionsProbesAndEveryWayOfSeeingAnIrecvRecordOneReceive() throws Exception {
        List<RecordedEvent> events = record(() -> LocalCohort.run(2, world -> {
            try (Profile.Region outer = Profile.region("outer")) {
                try (Profile.Region inner = Profile.region("inner")) {
                    if (world.rank() == 0) {
                        for (int tag = 0; tag < 3; tag++) {
                            world.send(1, tag, new byte[tag + 1]);
                        }
                    } else {
                        receiveThreeWays(world);
                    }
                }
                world.barrier();
            }
        }));
        List<RecordedEvent> regions = named(events, RegionEvent.NAME);
        assertEquals(4, regions.size(), regions.toString());
        for (int rank = 0; rank < 2; rank++) {
            int me = rank;
            RecordedEvent outer = regions.stream().filter(e -> rankOf(e) == me && e.getString("name").equals("outer"))
                    .findFirst().orElseThrow();
            RecordedEvent inner = regions.stream().filter(e -> rankOf(e) == me && e.getString("name").equals("inner"))
                    .findFirst().orElseThrow();
            assertFalse(inner.getStartTime().isBefore(outer.getStartTime()), "inner starts inside outer");
            assertFalse(inner.getEndTime().isAfter(outer.getEndTime()), "inner ends inside outer");
        }

        List<RecordedEvent> probes = named(events, ProbeEvent.NAME);
        assertEquals(2, probes.size(), probes.toString());
        assertTrue(probes.stream().anyMatch(p -> p.getBoolean("found") && p.getInt("peer") == 0 && p.getInt("tag") == 0));
        assertTrue(probes.stream().anyMatch(p -> !p.getBoolean("found") && p.getInt("peer") == -1 && p.getInt("tag") == 9));

        List<RecordedEvent> receives = named(events, ReceiveEvent.NAME);
        assertEquals(3, receives.size(), "each irecv's message recorded once: " + receives);
        assertEquals(Set.of(0L, 1L, 2L), receives.stream().map(e -> e.getLong("sequence")).collect(Collectors.toSet()));
        assertTrue(receives.stream().allMatch(e -> e.getString("operation").equals("irecv") && e.getInt("peer") == 0));
        assertEquals(Set.of(1L, 2L, 3L), receives.stream().map(e -> e.getLong("bytes")).collect(Collectors.toSet()));
        assertTrue(receives.stream().allMatch(e -> e.getDuration().isZero()), "an irecv's message is handed over at an instant");

        Set<String> waits = named(events, WaitEvent.NAME).stream().map(e -> e.getString("operation")).collect(Collectors.toSet());
        assertTrue(waits.containsAll(Set.of("test", "awaitAny")), waits.toString());
        assertNoOverlapPerThread(events);
    }

    /** Rank 1: probes, then takes messages 0, 1 and 2 by test, by awaitAny, and by isDone then message(). */
    private static void receiveThreeWays(Communicator world) {
        world.probe(0, 0);
        Optional<?> none = world.iprobe(Communicator.ANY_SOURCE, 9);
        assertTrue(none.isEmpty());
        Request byTest = world.irecv(0, 0);
        while (!byTest.test()) {
            Thread.onSpinWait();
        }
        assertEquals(1, byTest.message().bytes().length); // a second look records nothing more
        Request byAny = world.irecv(0, 1);
        assertEquals(0, Request.awaitAny(byAny));
        byAny.await();
        Request byPoll = world.irecv(0, 2);
        while (!byPoll.isDone()) {
            byPoll.test();
        }
        Message m = byPoll.message();
        assertEquals(3, m.bytes().length);
    }

    @Test
    void subCommunicatorsNameTheirContextAndWorldRanks() throws Exception {
        List<RecordedEvent> events = record(() -> LocalCohort.run(4, world -> {
            Communicator half = world.split(world.rank() % 2, world.rank());
            int partner = 1 - half.rank();
            half.send(partner, 6, new byte[8]);
            half.recv(partner, 6);
        }));
        List<RecordedEvent> sends = named(events, SendEvent.NAME);
        assertEquals(4, sends.size(), sends.toString());
        for (RecordedEvent s : sends) {
            int me = rankOf(s);
            assertEquals((me + 2) % 4, s.getInt("peer"), "the partner's world rank: " + s);
            assertTrue(s.getInt("communicator") > 0, "not the world: " + s);
        }
        for (RecordedEvent r : named(events, ReceiveEvent.NAME)) {
            assertEquals((rankOf(r) + 2) % 4, r.getInt("peer"), r.toString());
        }
    }

    @Test
    void peerInfoAndJobNameEveryPeer() throws Exception {
        List<RecordedEvent> events = record(() -> LocalCohort.run(3, world -> world.barrier()));
        List<RecordedEvent> infos = named(events, PeerInfoEvent.NAME);
        assertEquals(3, infos.size(), infos.toString());
        assertEquals(Set.of(0, 1, 2), infos.stream().map(e -> e.getInt("rank")).collect(Collectors.toSet()));
        String jobId = infos.get(0).getString("jobId");
        assertTrue(jobId.startsWith("local-"), jobId);
        for (RecordedEvent e : infos) {
            assertEquals(3, e.getInt("size"));
            assertEquals(jobId, e.getString("jobId"), "one job");
            assertEquals(ProcessHandle.current().pid(), e.getLong("pid"));
            assertEquals("localhost", e.getString("host"));
        }
        List<RecordedEvent> jobs = named(events, JobEvent.NAME);
        assertEquals(Set.of(0, 1, 2), jobs.stream().map(e -> e.getInt("rank")).collect(Collectors.toSet()));
        RecordedEvent barrier = named(events, CollectiveEvent.NAME).get(0);
        RecordedEvent job = jobs.stream().filter(j -> j.getInt("rank") == rankOf(barrier)).findFirst().orElseThrow();
        assertFalse(barrier.getStartTime().isBefore(job.getStartTime()), "the program ran inside its job");
        assertFalse(barrier.getEndTime().isAfter(job.getEndTime()), "the program ran inside its job");
    }

    @Test
    void nothingIsRecordedOrAllocatedWhileNoRecordingAsks() throws Exception {
        // A recording that does not ask for Cohort's events (they are off by default) gets none.
        List<RecordedEvent> events = record(false, () -> LocalCohort.run(2, world -> {
            assertNull(SendEvent.startIfEnabled(), "no event object while sends are not recorded");
            assertNull(ReceiveEvent.startIfEnabled());
            assertNull(WaitEvent.startIfEnabled());
            assertNull(CollectiveEvent.startIfEnabled());
            assertSame(Profile.region("a"), Profile.region("b"), "regions allocate nothing");
            try (Profile.Region r = Profile.region("idle")) {
                Request s = world.isend(1 - world.rank(), 0, new byte[4]);
                world.recv(1 - world.rank(), 0);
                Request.awaitAll(s);
                world.allreduce(new int[1], new int[1], Op.SUM);
            }
        }));
        assertEquals(List.of(), events);
    }
}
