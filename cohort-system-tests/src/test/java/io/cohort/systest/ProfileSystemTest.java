package io.cohort.systest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The profiler end to end: a real 4-peer {@code ring} run with {@code --profile=DIR} leaves one
 * recording per peer, and {@code cohort prof DIR} reports exactly the ring's edges in its matrix and
 * writes a trace with an arrow per message. Needs both halves of the profiler: the capture side
 * ({@code cohort run --profile}, cohort-core's events) and the reports (cohort-tools).
 */
class ProfileSystemTest {
    static final int PEERS = 4;
    /** The ring example's default number of laps: one message per peer and lap. */
    static final int LAPS = 10;

    @Test
    @Timeout(120)
    void ringSummaryHasTheRingsEdgesAndNoTrace(@TempDir Path dir) throws Exception {
        Path prof = dir.resolve("prof");
        CohortProcess run = CohortProcess.run("run", "-n", Integer.toString(PEERS), "--profile=" + prof, "--example", "ring");
        assertEquals(0, run.exitCode(), run.toString());
        assertRingReport(prof, "tsv");
        CohortProcess trace = CohortProcess.run("prof", prof.toString(), "--trace");
        assertEquals(2, trace.exitCode(), trace.toString());
        assertTrue(trace.err().get(0).contains("summary profile, which has no events for a trace")
                && trace.err().get(0).contains("--profile-mode=full"), trace.toString());
    }

    @Test
    @Timeout(120)
    void aProgramThatNeverJoinsStillLeavesProfilesTheReportReads(@TempDir Path dir) throws Exception {
        Path prof = dir.resolve("prof");
        CohortProcess run = CohortProcess.run("run", "-n", "2", "--profile=" + prof, "-cp", CohortProcess.TEST_CLASSES,
                "io.cohort.systest.programs.EnvPrinter");
        assertEquals(0, run.exitCode(), run.toString());
        CohortProcess report = CohortProcess.run("prof", prof.toString());
        assertEquals(0, report.exitCode(), report.toString());
        assertEquals(List.of(), report.err(), "every recording was readable: " + report);
        assertTrue(report.out().contains("@ Peers       : 2 recorded of 2 (ranks 0-1)"), report.toString());
        assertTrue(report.out().stream().anyMatch(l -> l.matches("@ Job id\s+: [0-9a-f]{8}")), report.toString());
    }

    /** The matrix of the ring's messages, and call sites in its code, read from either kind of profile. */
    private static void assertRingReport(Path prof, String extension) throws Exception {
        try (Stream<Path> files = Files.list(prof)) {
            assertEquals(PEERS, files.filter(f -> f.getFileName().toString().matches(".+\\.prof\\.[0-3]\\." + extension)).count(),
                    "one profile per peer");
        }

        CohortProcess report = CohortProcess.run("prof", prof.toString());
        assertEquals(0, report.exitCode(), report.toString());
        assertEquals(List.of(), report.err(), "every recording was readable");
        List<String> out = report.out();
        assertTrue(out.contains("@ Peers       : 4 recorded of 4 (ranks 0-3)"), report.toString());
        int matrix = out.indexOf(out.stream().filter(l -> l.startsWith("@--- Communication matrix (messages")).findFirst()
                .orElseThrow(() -> new AssertionError("no message matrix: " + report)));
        assertArrayEquals(new String[] {"From", "0", "1", "2", "3"}, out.get(matrix + 1).trim().split("\\s+"), "columns are the ranks");
        for (int from = 0; from < PEERS; from++) {
            String[] cells = out.get(matrix + 2 + from).trim().split("\\s+");
            assertEquals(Integer.toString(from), cells[0]);
            for (int to = 0; to < PEERS; to++) {
                long expected = to == (from + 1) % PEERS ? LAPS : 0;
                assertEquals(expected, Long.parseLong(cells[to + 1]), "messages " + from + " -> " + to + "\n" + String.join("\n", out));
            }
        }
        assertTrue(out.stream().anyMatch(l -> l.matches("\\S+\\s+.*\\sRing\\.main:\\d+")),
                "call sites are in the example's own code:\n" + String.join("\n", out));
    }

    @Test
    @Timeout(120)
    void ringFullProfileHasTheRingsEdgesAndATraceWithItsMessages(@TempDir Path dir) throws Exception {
        Path prof = dir.resolve("prof");
        CohortProcess run = CohortProcess.run("run", "-n", Integer.toString(PEERS), "--profile=" + prof, "--profile-mode=full",
                "--example", "ring");
        assertEquals(0, run.exitCode(), run.toString());
        assertRingReport(prof, "jfr");

        CohortProcess trace = CohortProcess.run("prof", prof.toString(), "--trace");
        assertEquals(0, trace.exitCode(), trace.toString());
        String json = Files.readString(prof.resolve("trace.json"));
        assertTrue(json.startsWith("{") && json.trim().endsWith("}"), "one JSON object");
        assertEquals(PEERS * LAPS, count(json, "\"ph\":\"s\""), "an arrow starts at each send");
        assertEquals(PEERS * LAPS, count(json, "\"ph\":\"f\",\"bp\":\"e\""), "and ends at its receive");
        for (int r = 0; r < PEERS; r++) {
            assertTrue(json.contains("\"args\":{\"name\":\"rank " + r + " ("), "a process named after rank " + r);
        }
    }

    private static int count(String s, String what) {
        Matcher m = Pattern.compile(Pattern.quote(what)).matcher(s);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
