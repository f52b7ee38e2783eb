package io.cohort.systest;

import io.cohort.systest.programs.BroadcastsUntilAnotherJobIsHeard;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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

    @Tag("long")
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

    @Tag("long")
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

    /**
     * Traffic a job really dropped, in its profile: two jobs broadcast at once on one multicast group
     * and port (the all-to-all of the {@code broadcast} example, each until one of its peers has
     * dropped a frame of the other job, so they overlap however late the second starts), so each
     * drops the other's frames as "other job or communicator". One job is profiled as a summary and
     * runs with --verbose, the other records in full; {@code cohort prof} of a job that dropped frames
     * shows them in its "Dropped traffic" section, for the summary with the very counts of each
     * rank's --verbose line.
     */
    @Tag("long")
    @Test
    @Timeout(180)
    void twoJobsOnOneBroadcastGroupReportTheOthersFramesAsDroppedTraffic(@TempDir Path dir) throws Exception {
        String group = "-Dcohort.bcast.group=239.255.91.7:27917";
        List<String> program = List.of("-cp", CohortProcess.TEST_CLASSES, BroadcastsUntilAnotherJobIsHeard.class.getName(), "100", "60");
        Path profA = dir.resolve("a");
        Path profB = dir.resolve("b");
        List<String> a = new ArrayList<>(List.of("run", "-n", "2", "--verbose", "--profile=" + profA, "--jvm-opt", group));
        a.addAll(program);
        List<String> b = new ArrayList<>(List.of("run", "-n", "2", "--profile=" + profB, "--profile-mode=full", "--jvm-opt", group));
        b.addAll(program);
        try (CohortProcess jobA = CohortProcess.start(a.toArray(new String[0]));
             CohortProcess jobB = CohortProcess.start(b.toArray(new String[0]))) {
            jobA.closeStdin();
            jobB.closeStdin();
            jobA.waitFor();
            jobB.waitFor();
            long foreignA = foreignDropped(jobA);
            long foreignB = foreignDropped(jobB);
            assertTrue(foreignA + foreignB > 0, "the jobs never heard each other: " + jobA + jobB);
            if (foreignA > 0) {
                Map<String, String> rows = droppedTraffic(profA, foreignA);
                // Job A ran with --verbose: each rank's drop line and the profile are made of the same entries.
                Pattern verbose = Pattern.compile("cohort: rank (\\d) dropped traffic that was not this job's or was malformed: "
                        + "broadcast domain \\d+ datagrams? \\(.*other job or communicator (\\d+).*");
                List<String> ranks = new ArrayList<>();
                for (String l : jobA.err()) {
                    Matcher m = verbose.matcher(l);
                    if (m.matches()) {
                        ranks.add("rank " + m.group(1) + ": " + m.group(2));
                    }
                }
                assertTrue(!ranks.isEmpty(), "job A's --verbose named its drops: " + jobA);
                String otherJob = rows.get("broadcast domain: other job or communicator");
                for (String r : ranks) {
                    assertTrue(List.of(otherJob.split(", ")).contains(r), "the profile has " + r + " as --verbose said: " + otherJob);
                }
            }
            if (foreignB > 0) {
                droppedTraffic(profB, foreignB);
            }
        }
    }

    /** A {@link BroadcastsUntilAnotherJobIsHeard} job's count of datagrams its peers dropped as not its own. */
    private static long foreignDropped(CohortProcess job) {
        assertEquals(0, job.exitCode(), job.toString());
        Matcher m = Pattern.compile("until-heard: \\d+ rounds, 0 wrong, (\\d+) foreign datagrams dropped")
                .matcher(job.out().isEmpty() ? "" : job.out().get(0));
        assertTrue(m.matches(), job.toString());
        return Long.parseLong(m.group(1));
    }

    /**
     * Runs {@code cohort prof} on a job whose peers dropped at least {@code atLeast} datagrams of their
     * broadcast domain and checks its "Dropped traffic" section; returns its rows, "transport: reason"
     * to the ranks' counts in brackets.
     */
    private static Map<String, String> droppedTraffic(Path prof, long atLeast) throws Exception {
        CohortProcess report = CohortProcess.run("prof", prof.toString());
        assertEquals(0, report.exitCode(), report.toString());
        assertEquals(List.of(), report.err(), "every profile was readable");
        List<String> out = report.out();
        int at = out.indexOf(out.stream().filter(l -> l.startsWith("@--- Dropped traffic")).findFirst()
                .orElseThrow(() -> new AssertionError("no dropped traffic section: " + report)));
        assertArrayEquals(new String[] {"Count", "Unit", "Dropped"}, out.get(at + 1).trim().split("\\s+"));
        Map<String, String> rows = new HashMap<>();
        long domain = 0;
        for (int i = at + 2; !out.get(i).isEmpty(); i++) {
            String[] cells = out.get(i).trim().split("\\s+", 3);
            Matcher m = Pattern.compile("(.+?: .+?) \\((.+)\\)").matcher(cells[2]);
            assertTrue(m.matches(), out.get(i));
            rows.put(m.group(1), m.group(2));
            long count = Long.parseLong(cells[0]);
            assertTrue(count > 0, out.get(i));
            if (m.group(1).startsWith("broadcast domain: ")) {
                domain += count;
            }
        }
        assertTrue(rows.containsKey("broadcast domain: other job or communicator"), String.join("\n", out));
        assertTrue(domain >= atLeast, "the report counts at least the " + atLeast + " datagrams the job saw dropped:\n"
                + String.join("\n", out));
        return rows;
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
