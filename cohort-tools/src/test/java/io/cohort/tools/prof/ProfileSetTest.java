package io.cohort.tools.prof;

import demo.RingProgram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Loading a directory of recordings: the errors that stop a report, and the damage a report survives. */
@Timeout(120)
class ProfileSetTest {
    @TempDir
    Path dir;
    final List<String> warnings = new ArrayList<>();

    private ProfileSet load(Path d) throws ProfileInputException {
        return ProfileSet.load(d, warnings::add);
    }

    private void copyRing(int... ranks) throws Exception {
        for (int r : ranks) {
            Files.copy(RingFixture.shared().resolve("Ring.prof." + r + ".jfr"), dir.resolve("Ring.prof." + r + ".jfr"));
        }
    }

    @Test
    void aMissingDirectoryIsNoInput() {
        ProfileInputException e = assertThrows(ProfileInputException.class, () -> load(dir.resolve("nope")));
        assertTrue(e.getMessage().endsWith("nope does not exist; give the directory that 'cohort run --profile=DIR' wrote"), e.getMessage());
    }

    @Test
    void aFileIsNotADirectory() throws Exception {
        Path f = Files.writeString(dir.resolve("f.jfr"), "x");
        ProfileInputException e = assertThrows(ProfileInputException.class, () -> load(f));
        assertTrue(e.getMessage().contains("f.jfr is not a directory"), e.getMessage());
    }

    @Test
    void aDirectoryWithoutRecordingsSaysHowToMakeThem() throws Exception {
        Files.writeString(dir.resolve("notes.txt"), "not a recording");
        ProfileInputException e = assertThrows(ProfileInputException.class, () -> load(dir));
        assertTrue(e.getMessage().contains("holds no profiles (*.prof.<rank>.tsv or *.jfr); run the job with 'cohort run --profile="), e.getMessage());
    }

    @Test
    void onlyUnreadableRecordingsIsNoInputWithAWarningPerFile() throws Exception {
        Files.writeString(dir.resolve("Ring.prof.0.jfr"), "garbage, not a flight recording");
        Files.write(dir.resolve("Ring.prof.1.jfr"), new byte[0]);
        ProfileInputException e = assertThrows(ProfileInputException.class, () -> load(dir));
        assertTrue(e.getMessage().startsWith("none of the 2 recordings in "), e.getMessage());
        assertEquals(2, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("Ring.prof.0.jfr: not a readable Flight Recorder file ("), warnings.get(0));
        assertTrue(warnings.get(0).endsWith("; skipped"), warnings.get(0));
        assertTrue(warnings.get(1).startsWith("Ring.prof.1.jfr: "), warnings.get(1));
    }

    @Test
    void damagedRecordingsAreSkippedAndTheRestReported() throws Exception {
        copyRing(0, 1, 2);
        byte[] whole = Files.readAllBytes(RingFixture.shared().resolve("Ring.prof.3.jfr"));
        Files.write(dir.resolve("Ring.prof.3.jfr"), Arrays.copyOf(whole, whole.length / 2));
        Files.writeString(dir.resolve("Other.prof.0.jfr"), "x".repeat(100));
        ProfileSet set = load(dir);
        assertEquals(List.of(0, 1, 2), set.peers().stream().map(PeerProfile::rank).toList());
        assertEquals(2, warnings.size(), warnings.toString());
        assertTrue(warnings.stream().anyMatch(w -> w.startsWith("Ring.prof.3.jfr: ")), warnings.toString());
        assertTrue(warnings.stream().anyMatch(w -> w.startsWith("Other.prof.0.jfr: ")), warnings.toString());
        assertEquals(List.of(3), set.missingRanks());
        assertEquals("ranks 3 (no readable recording)", ReportSections.parse(
                TextReport.render(new ProfileAnalysis(set, Scope.allPeers(set), TableLimit.DEFAULT))).header.get("Missing"));
    }

    @Test
    void aMissingSendersRowComesFromItsReceivers() throws Exception {
        copyRing(0, 1, 2);
        ProfileSet set = load(dir);
        CommMatrix m = CommMatrix.of(set);
        assertEquals(4, m.size());
        assertEquals(RingFixture.LAPS * RingFixture.BYTES, m.bytes(3, 0), "rank 0 received what rank 3 sent");
        assertEquals(RingFixture.LAPS, m.messages(3, 0));
        assertEquals(RingFixture.LAPS * RingFixture.BYTES, m.bytes(2, 3), "rank 2's sends to the missing rank still count");
        assertEquals(RingFixture.LAPS * RingFixture.BYTES, m.bytesSentBy(1));
        assertEquals(RingFixture.LAPS * RingFixture.BYTES, m.bytesReceivedBy(0));
    }

    @Test
    void aPeerThatNeverClosedCountsItsRecordingsSpan() throws Exception {
        FakePeer.record(dir, 0, 1, FakePeer.Options.of("Crash", "h").crashed(), w -> {
            w.send(0, 0, 10);
            RingProgram.compute(20);
            w.recv(0, 0, 10);
        });
        PeerProfile p = load(dir).peers().get(0);
        assertFalse(p.jobClosed());
        assertEquals(p.lastNanos() - p.firstNanos(), p.appNanos());
        assertTrue(p.appNanos() >= 20_000_000L, "from the first event to the last: " + p.appNanos());
        ProfileSet set = load(dir);
        assertTrue(ReportSections.parse(TextReport.render(new ProfileAnalysis(set, Scope.allPeers(set), TableLimit.DEFAULT)))
                .header.get("Not closed").startsWith("ranks 0 recorded no end of job"));
    }

    @Test
    void withoutPeerInfoTheFileNameGivesRankAndApplication() throws Exception {
        FakePeer.record(dir, 5, 6, FakePeer.Options.of("Anon", "h").withoutPeerInfo(), w -> w.send(0, 1, 3));
        ProfileSet set = load(dir);
        PeerProfile p = set.peers().get(0);
        assertEquals(5, p.rank());
        assertEquals("Anon", p.application());
        assertEquals(6, set.jobSize(), "the highest rank seen + 1");
        assertEquals(List.of(0, 1, 2, 3, 4), set.missingRanks());
    }

    @Test
    void ofSeveralJobsTheLastOneRecordedIsReported() throws Exception {
        copyRing(0, 1);
        FakePeer.record(dir, 0, 1, FakePeer.Options.of("Later", "h").job("beef0002"), w -> w.send(0, 0, 1));
        ProfileSet set = load(dir);
        assertEquals("beef0002", set.jobId());
        assertEquals(1, set.peers().size());
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("the directory holds recordings of 2 jobs; reporting job beef0002, the last recorded, "
                + "and skipping Ring.prof.0.jfr, Ring.prof.1.jfr"), warnings.get(0));
    }

    @Test
    void twoRecordingsOfOneRankKeepTheFirst() throws Exception {
        copyRing(0, 1, 2, 3);
        Files.copy(dir.resolve("Ring.prof.1.jfr"), dir.resolve("Ring.prof.1.jfr.jfr"), StandardCopyOption.REPLACE_EXISTING);
        ProfileSet set = load(dir);
        assertEquals(4, set.peers().size());
        assertEquals(List.of("Ring.prof.1.jfr.jfr: rank 1 again (Ring.prof.1.jfr is used); skipped"), warnings);
    }

    @Test
    void onlyJfrFilesAreRead() throws Exception {
        copyRing(0);
        Files.writeString(dir.resolve("report.html"), "<html/>");
        Files.createDirectory(dir.resolve("sub.jfr"));
        ProfileSet set = load(dir);
        assertEquals(1, set.peers().size());
        assertEquals(List.of(), warnings);
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(3, s.count());
        }
    }
}
