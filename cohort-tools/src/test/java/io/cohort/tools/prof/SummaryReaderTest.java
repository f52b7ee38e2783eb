package io.cohort.tools.prof;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Summary profiles ({@code *.prof.<rank>.tsv}) read into the same reports as recordings of events. */
@Timeout(60)
class SummaryReaderTest {
    @TempDir
    Path dir;
    final List<String> warnings = new ArrayList<>();

    /** Rank r of a 2-peer job: 3 sends of 100 bytes to the other rank, a wait, a region, one protocol line, samples. */
    private void peer(int r, String... extra) throws Exception {
        int other = 1 - r;
        List<String> lines = new ArrayList<>(List.of(
                "# a comment",
                "format\tcohort-profile-summary\t1",
                "peer\t" + r + "\t2\tjob7\thost-" + r + "\tcom.x.Solver\t" + (100 + r),
                "job\t1700000000000000000\t2000000000\t1",
                "sites\t100000000",
                "sampler\t10000000\t50\t40\t5000000",
                "comm\tsend\tsend\t\t0\t" + other + "\t7\t3\t300\t30000000\t100\t100\t20000000",
                "comm\treceive\trecv\t\t0\t" + other + "\t7\t3\t300\t600000000\t100\t100\t400000000",
                "comm\twait\tawaitAll\t\t-1\t-1\t-1\t2\t0\t10000000\t-1\t-1\t6000000",
                "comm\tcollective\tbcast\tbinomial-tree\t0\t0\t4\t1\t8\t5000000\t8\t8\t5000000",
                "comm\tregion\tsolve\\tstep\t\t-1\t-1\t-1\t4\t0\t1500000000\t-1\t-1\t500000000",
                "comm\tfuture-kind\tx\t\t0\t0\t0\t1\t1\t1\t1\t1\t1",
                "site\treceive\trecv\tcom.x.Solver\tmain\t42\t3\t600000000\t2",
                "site\tsend\tsend\tcom.x.Solver\tmain\t40\t3\t30000000\t1",
                "method\tcom.x.Solver.compute\t30",
                "method\tio.cohort.engine.ProgressEngine.waitUntil\t10",
                "protocol\tudp\t" + other + "\t2\t1\t1400\t1\t3000000",
                "future-record\t1\t2"));
        lines.addAll(List.of(extra));
        Files.write(dir.resolve("Solver.prof." + r + ".tsv"), lines);
    }

    @Test
    void aJobOfSummariesReportsExactTotalsAndEstimatedSites() throws Exception {
        peer(0);
        peer(1);
        ProfileSet set = ProfileSet.load(dir, warnings::add);
        assertEquals(List.of(), warnings);
        assertEquals(2, set.peers().size());
        PeerProfile p0 = set.peer(0);
        assertTrue(p0.isSummary());
        assertEquals("host-0", p0.host());
        assertEquals("com.x.Solver", p0.application());
        assertEquals(2_000_000_000L, p0.appNanos());
        assertEquals(30_000_000L + 600_000_000L + 10_000_000L + 5_000_000L, p0.commNanos(), "regions are not communication");

        CommMatrix m = CommMatrix.of(set);
        assertEquals(3, m.messages(0, 1));
        assertEquals(300, m.bytes(0, 1));
        assertEquals(3, m.messages(1, 0));
        assertEquals(0, m.messages(0, 0));

        ProfileAnalysis a = new ProfileAnalysis(set, Scope.allPeers(set), TableLimit.DEFAULT);
        assertTrue(a.summary());
        ProfileAnalysis.SiteRow top = a.callSites().rows().get(0);
        assertEquals("recv", top.operation());
        assertEquals("Solver.main:42", top.site().shortName());
        assertEquals(6, top.count(), "both peers' estimates");
        SizeHistogram sends = a.sizes().stream().filter(h -> h.operation().equals("send")).findFirst().orElseThrow();
        assertEquals(6, sends.count());
        assertEquals(600, sends.totalBytes());
        assertEquals(6, sends.inClass(7), "100 bytes are in [64, 128)");
        assertEquals(100, sends.min());
        assertEquals("solve\tstep", a.regions().rows().get(0).name());
        assertEquals(8, a.regions().rows().get(0).count());
        assertEquals("com.x.Solver.compute", a.methods().rows().get(0).method());
        assertEquals(60, a.methods().rows().get(0).samples());
        assertEquals(4, a.protocol().get(0).stats().nacks());

        String text = TextReport.render(a);
        assertTrue(text.contains("Top call sites by communication time (estimated from sampled calls)"), text);
        String html = HtmlReport.render(a);
        assertTrue(html.contains(HtmlReport.SUMMARY_HAS_NO_TIMELINE.substring(0, 40)), "the page says why it has no timeline");
    }

    @Test
    void badLinesAreCountedInOneWarningAndTheRestIsRead() throws Exception {
        peer(0, "comm\tsend\tsend\t\t0\tone\t7\t3", "site\tonly\tthree");
        peer(1);
        ProfileSet set = ProfileSet.load(dir, warnings::add);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("Solver.prof.0.tsv: 2 lines could not be read (first: line 19)"), warnings.get(0));
        assertEquals(3, CommMatrix.of(set).messages(0, 1));
    }

    @Test
    void numbersOutsideTheJobAreBadLinesNotCrashes() throws Exception {
        peer(0, "comm\tsend\tsend\t\t0\t99\t7\t3\t300\t1\t100\t100\t1",
                "comm\tsend\tsend\t\t0\t1\t64\t3\t300\t1\t100\t100\t1",
                "comm\tsend\tsend\t\t0\t2147483647\t2147483647\t3\t300\t1\t100\t100\t1");
        peer(1);
        // A peer line claiming two billion peers (or a rank outside its job) is refused; the file name gives the rank.
        Path p1 = dir.resolve("Solver.prof.1.tsv");
        Files.writeString(p1, Files.readString(p1).replace("peer\t1\t2\t", "peer\t1\t2000000000\t"));
        ProfileSet set = ProfileSet.load(dir, warnings::add);
        assertEquals(2, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("Solver.prof.0.tsv: 3 lines could not be read"), warnings.get(0));
        assertTrue(warnings.get(1).startsWith("Solver.prof.1.tsv: 1 line could not be read"), warnings.get(1));
        CommMatrix m = CommMatrix.of(set);
        assertEquals(3, m.messages(0, 1), "the good lines still count");
        assertEquals(1, set.peer(1).rank());
    }

    @Test
    void aTsvThatIsNotASummaryIsSkippedWithAWarning() throws Exception {
        peer(1);
        Files.writeString(dir.resolve("Solver.prof.0.tsv"), "name\tvalue\nx\t1\n");
        Files.writeString(dir.resolve("results.tsv"), "not ours\n");
        ProfileSet set = ProfileSet.load(dir, warnings::add);
        assertEquals(1, set.peers().size());
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("not a Cohort profile summary"), warnings.get(0));
        assertFalse(warnings.get(0).contains("results.tsv"), "a file not named as a peer names it is not read at all");
    }

    @Test
    void aDirectoryOfOnlyForeignFilesHasNoProfiles() throws Exception {
        Files.writeString(dir.resolve("results.tsv"), "x\n");
        ProfileInputException e = assertThrows(ProfileInputException.class, () -> ProfileSet.load(dir, warnings::add));
        assertTrue(e.getMessage().contains("holds no profiles"), e.getMessage());
    }
}
