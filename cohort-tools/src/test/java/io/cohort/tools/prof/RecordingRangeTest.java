package io.cohort.tools.prof;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Recordings whose ranks, job size or peers lie outside any job (a damaged or hand-made file): the
 * values are left out with a warning, and never size an array by them.
 */
@Timeout(60)
class RecordingRangeTest {
    @TempDir
    Path dir;
    final List<String> warnings = new ArrayList<>();

    private static void sendTo(int peer) {
        FixtureEvents.Send e = new FixtureEvents.Send();
        e.begin();
        e.peer = peer;
        e.bytes = 8;
        e.operation = "send";
        e.end();
        e.commit();
    }

    @Test
    void peersOutsideTheJobAreLeftOutWithAWarning() throws Exception {
        FakePeer.record(dir, 0, 2, FakePeer.Options.of("App", "h0"), p -> {
            p.send(1, 0, 100);
            sendTo(2);            // the job has 2 peers
            sendTo(2_000_000_000);
            sendTo(-7);
        });
        FakePeer.record(dir, 1, 2, FakePeer.Options.of("App", "h1"), p -> p.recv(0, 0, 100));
        ProfileSet set = ProfileSet.load(dir, warnings::add);
        assertEquals(2, set.jobSize());
        assertEquals(List.of("App.prof.0.jfr: 3 communication events name a peer outside the job; they were left out"),
                warnings);
        assertEquals(1, CommMatrix.of(set).messages(0, 1));
        assertEquals(2, CommMatrix.of(set).size());
    }

    @Test
    void aPeerInfoOutsideAnyJobGivesWayToTheFileName() throws Exception {
        // The fixture writes PeerInfo from the size it is given: rank 3 of a job of 2 is impossible.
        FakePeer.record(dir, 3, 2, FakePeer.Options.of("App", "h3"), p -> {
        });
        ProfileSet set = ProfileSet.load(dir, warnings::add);
        assertEquals(3, set.peers().get(0).rank(), "from the Job event and the file name");
        assertTrue(warnings.contains("App.prof.3.jfr: its io.cohort.PeerInfo says rank 3 of a job of 2, outside any job;"
                + " the rank comes from elsewhere"), warnings.toString());
    }

    @Test
    void aFileNamedWithARankBeyondTheLargestJobIsNotTakenForAPeers() throws Exception {
        Path f = FakePeer.record(dir, 0, 1, FakePeer.Options.of("App", "h0").withoutPeerInfo(), p -> {
        });
        Files.move(f, dir.resolve("App.prof.999999999.jfr"));
        Files.writeString(dir.resolve("App.prof.999999998.tsv"), "format\tcohort-profile-summary\t1\n");
        assertEquals(null, ProfileFileName.parse(dir.resolve("App.prof.999999999.jfr")));
        assertEquals(false, ProfileFileName.isSummary(dir.resolve("App.prof.999999998.tsv")));
        assertEquals(new ProfileFileName("App", 65535), ProfileFileName.parse(dir.resolve("App.prof.65535.jfr")));
    }
}
