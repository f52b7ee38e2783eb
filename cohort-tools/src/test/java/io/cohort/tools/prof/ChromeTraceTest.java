package io.cohort.tools.prof;

import demo.RingProgram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.StringWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Chrome trace of the ring: strict JSON, one process per peer, a slice per event, an arrow per message. */
@Timeout(120)
class ChromeTraceTest {
    static ProfileSet set;

    @BeforeAll
    static void record() {
        set = RingFixture.load();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> events(ProfileSet s, Scope scope) throws Exception {
        StringWriter w = new StringWriter();
        ChromeTrace.write(s, scope, w);
        Map<String, Object> root = (Map<String, Object>) StrictJson.parse(w.toString());
        assertEquals("ms", root.get("displayTimeUnit"));
        return (List<Map<String, Object>>) root.get("traceEvents");
    }

    private static List<Map<String, Object>> phase(List<Map<String, Object>> events, String ph) {
        return events.stream().filter(e -> ph.equals(e.get("ph"))).toList();
    }

    @Test
    void everyOperationIsASliceOnItsPeersProcess() throws Exception {
        List<Map<String, Object>> events = events(set, Scope.allPeers(set));
        List<Map<String, Object>> slices = phase(events, "X");
        int expected = 0;
        for (PeerProfile p : set.peers()) {
            expected += p.comms().size() + p.regions().size();
        }
        assertEquals(expected, slices.size());
        Map<String, Long> byName = slices.stream().collect(Collectors.groupingBy(e -> (String) e.get("name"), Collectors.counting()));
        assertEquals(RingFixture.SIZE * RingFixture.LAPS, byName.get("send"));
        assertEquals(RingFixture.SIZE * RingFixture.LAPS, byName.get("recv"));
        assertEquals(RingFixture.SIZE * RingFixture.LAPS, byName.get("lap"));
        assertEquals(RingFixture.SIZE, byName.get("allreduce"));
        assertEquals(1, byName.get("probe"));
        assertEquals(1, byName.get("waitAll"));
        double min = Double.MAX_VALUE;
        for (Map<String, Object> e : slices) {
            double ts = ((Number) e.get("ts")).doubleValue();
            min = Math.min(min, ts);
            assertTrue(ts >= 0, "relative to the job's first event: " + e);
            assertTrue(((Number) e.get("dur")).doubleValue() >= 0, e.toString());
        }
        Map<String, Object> send = slices.stream().filter(e -> "send".equals(e.get("name"))).findFirst().orElseThrow();
        @SuppressWarnings("unchecked")
        Map<String, Object> args = (Map<String, Object>) send.get("args");
        assertEquals(RingFixture.BYTES, args.get("bytes"));
        assertEquals(((Number) send.get("pid")).longValue() == 3 ? 0L : ((Number) send.get("pid")).longValue() + 1, args.get("peer"));
        assertTrue(((String) args.get("callSite")).startsWith("demo.RingProgram."), args.toString());
        assertEquals("send", send.get("cat"));
    }

    @Test
    void processesAndThreadsAreNamed() throws Exception {
        List<Map<String, Object>> meta = phase(events(set, Scope.allPeers(set)), "M");
        Map<Long, String> processes = new HashMap<>();
        for (Map<String, Object> m : meta) {
            if ("process_name".equals(m.get("name"))) {
                @SuppressWarnings("unchecked")
                Map<String, Object> args = (Map<String, Object>) m.get("args");
                processes.put(((Number) m.get("pid")).longValue(), (String) args.get("name"));
            }
        }
        assertEquals(Map.of(0L, "rank 0 (node-a)", 1L, "rank 1 (node-a)", 2L, "rank 2 (node-b)", 3L, "rank 3 (node-b)"), processes);
        assertTrue(meta.stream().anyMatch(m -> "thread_name".equals(m.get("name"))
                && "main".equals(((Map<?, ?>) m.get("args")).get("name"))), "the tests' peers ran on the main thread");
    }

    @Test
    void eachSendHasAnArrowToItsReceive() throws Exception {
        List<Map<String, Object>> events = events(set, Scope.allPeers(set));
        List<Map<String, Object>> starts = phase(events, "s");
        List<Map<String, Object>> ends = phase(events, "f");
        assertEquals(RingFixture.SIZE * RingFixture.LAPS, starts.size(), "one arrow per message");
        assertEquals(starts.size(), ends.size());
        Map<Object, Map<String, Object>> endById = new HashMap<>();
        for (Map<String, Object> f : ends) {
            assertEquals("e", f.get("bp"), "bound to the enclosing receive slice");
            assertNotNull(f.get("id"));
            assertTrue(endById.put(f.get("id"), f) == null, "ids are unique");
        }
        Set<String> edges = new HashSet<>();
        for (Map<String, Object> s : starts) {
            Map<String, Object> f = endById.get(s.get("id"));
            assertNotNull(f, "a matching end for " + s);
            assertEquals(s.get("cat"), f.get("cat"));
            assertEquals(s.get("name"), f.get("name"));
            long from = ((Number) s.get("pid")).longValue();
            long to = ((Number) f.get("pid")).longValue();
            assertEquals((from + 1) % RingFixture.SIZE, to, "ring edge");
            edges.add(from + ">" + to);
            assertTrue(inside(events, s, "send") && inside(events, f, "recv"), "flow ends sit inside their slices: " + s + " " + f);
        }
        assertEquals(Set.of("0>1", "1>2", "2>3", "3>0"), edges);
    }

    /** A slice named {@code name} on the same pid and tid encloses the flow event's timestamp. */
    private static boolean inside(List<Map<String, Object>> events, Map<String, Object> flow, String name) {
        double ts = ((Number) flow.get("ts")).doubleValue();
        return phase(events, "X").stream().anyMatch(x -> name.equals(x.get("name")) && x.get("pid").equals(flow.get("pid"))
                && x.get("tid").equals(flow.get("tid")) && ((Number) x.get("ts")).doubleValue() <= ts
                && ts <= ((Number) x.get("ts")).doubleValue() + ((Number) x.get("dur")).doubleValue());
    }

    @Test
    void oneRankHasNoArrowsToPeersOutsideTheScope() throws Exception {
        List<Map<String, Object>> events = events(set, Scope.rank(set, 2));
        assertTrue(events.stream().allMatch(e -> ((Number) e.get("pid")).longValue() == 2), "only rank 2's process");
        assertEquals(0, phase(events, "s").size());
        assertEquals(0, phase(events, "f").size());
        assertEquals(2 * RingFixture.LAPS + 1, phase(events, "X").stream().filter(e -> !"region".equals(e.get("cat"))).count());
    }

    @Test
    void namesWithQuotesControlsAndLoneSurrogatesStayValidJson(@TempDir Path dir) throws Exception {
        String nasty = "say \"hi\"\\ </script>\n\t\u0001 \ud800 \u2028 é";
        FakePeer.record(dir, 0, 1, FakePeer.Options.of("Nasty", "h\"ost"), w -> w.region(nasty, () -> RingProgram.crunch(10)));
        ProfileSet s = ProfileSet.load(dir, w -> {
            throw new AssertionError(w);
        });
        List<Map<String, Object>> events = events(s, Scope.allPeers(s));
        Map<String, Object> region = phase(events, "X").get(0);
        String recorded = s.peers().get(0).regions().get(0).name();
        assertTrue(recorded.startsWith("say \"hi\"\\ </script>\n\t\u0001 "), recorded);
        assertEquals(recorded, region.get("name"), "the name comes back from the JSON exactly as recorded");
        assertTrue(phase(events, "M").stream().anyMatch(m -> "rank 0 (h\"ost)".equals(((Map<?, ?>) m.get("args")).get("name"))));
    }

    @Test
    void theCheckerItselfRejectsInvalidJson() {
        for (String bad : List.of("{\"a\":1,}", "[1 2]", "{\"a\":\"x\ny\"}", "{'a':1}", "[01]", "{\"a\":1} x", "[\"\\x\"]", "[1.]")) {
            assertThrows(IllegalArgumentException.class, () -> StrictJson.parse(bad), bad);
        }
        assertEquals(List.of(1L, "é", true), StrictJson.parse("[1, \"\\u00e9\", true]"));
    }

    @Test
    void flowIdsPackSourceDestinationAndSequence() {
        assertEquals(0x0001_0002_0000_0003L, MessagePairs.key(1, 2, 3));
        assertEquals(MessagePairs.NO_KEY, MessagePairs.key(70_000, 2, 3), "beyond 16 bits: no arrow rather than a wrong one");
        assertEquals(MessagePairs.NO_KEY, MessagePairs.key(1, 2, 1L << 32));
    }
}
