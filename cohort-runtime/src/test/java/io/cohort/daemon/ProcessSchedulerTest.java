package io.cohort.daemon;

import io.cohort.cluster.Partition;
import io.cohort.cluster.PlacementMode;
import io.cohort.cluster.SchedulingPolicy;
import io.cohort.cluster.SchedulingRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The daemon's side of pseudo-gang scheduling, on real processes (needs root to raise priorities). */
@Timeout(30)
class ProcessSchedulerTest {
    private Process child;

    @AfterEach
    void kill() {
        if (child != null) {
            child.destroyForcibly();
        }
    }

    /** A JVM with several threads, like a peer. */
    private Process threadedChild() throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx32m", "-cp", System.getProperty("java.class.path"), ThreadedSleeper.class.getName())
                .redirectErrorStream(true).start();
        // The child prints one line once its threads run: wait for it instead of sleeping.
        int c = p.getInputStream().read();
        assertTrue(c == 'r', "the child did not start");
        return p;
    }

    private static Partition partition(SchedulingPolicy policy, int nice, int minNice, int rt, int maxRt) {
        return new Partition("p", List.of("a"), "auto", nice, minNice, policy, rt, maxRt, Set.of("*"), Set.of(), null,
                PlacementMode.PHYSICAL);
    }

    @Test
    void everyThreadOfAPeerGetsTheNiceValueAndThenTheFifoPolicy() throws IOException {
        assumeTrue("root".equals(System.getProperty("user.name")), "raising priorities needs root; skipped");
        child = threadedChild();
        long pid = child.pid();
        assertTrue(ProcessScheduler.readAll(pid).size() >= 5, "a JVM runs several threads");

        ProcessScheduler.apply(pid, new SchedulingRequest(SchedulingPolicy.NORMAL, -5, 1));
        for (ProcessScheduler.ThreadScheduling t : ProcessScheduler.readAll(pid)) {
            assertEquals(new ProcessScheduler.ThreadScheduling(0, -5, 0), t);
        }
        ProcessScheduler.apply(pid, new SchedulingRequest(SchedulingPolicy.FIFO, 0, 7));
        for (ProcessScheduler.ThreadScheduling t : ProcessScheduler.readAll(pid)) {
            assertEquals(1, t.policy(), "SCHED_FIFO");
            assertEquals(7, t.rtPriority());
        }
        ProcessScheduler.apply(pid, new SchedulingRequest(SchedulingPolicy.NORMAL, 3, 1));
        for (ProcessScheduler.ThreadScheduling t : ProcessScheduler.readAll(pid)) {
            assertEquals(new ProcessScheduler.ThreadScheduling(0, 3, 0), t, "back to time-sharing");
        }
    }

    @Test
    void aProcessThatIsGoneGetsOneSentence() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        IOException e = assertThrows(IOException.class,
                () -> ProcessScheduler.apply(p.pid(), new SchedulingRequest(SchedulingPolicy.NORMAL, 1, 1)));
        assertEquals("process " + p.pid() + " does not exist", e.getMessage());
    }

    @Test
    void jobsAreRefusedAboveThePartitionsMaximumAndTheDaemonCapsWhatItReceives() {
        Partition normal = partition(SchedulingPolicy.NORMAL, 0, -5, 1, 1);
        assertEquals(new SchedulingRequest(SchedulingPolicy.NORMAL, 0, 1), SchedulingRequest.forJob(normal, null, null, null));
        assertEquals(-5, SchedulingRequest.forJob(normal, -5, null, null).nice());
        IllegalArgumentException high = assertThrows(IllegalArgumentException.class,
                () -> SchedulingRequest.forJob(normal, -6, null, null));
        assertEquals("--nice -6 is above partition p's maximum priority (nice -5 or more)", high.getMessage());
        assertEquals("partition p does not allow the real-time fifo policy", assertThrows(IllegalArgumentException.class,
                () -> SchedulingRequest.forJob(normal, null, SchedulingPolicy.FIFO, null)).getMessage());
        Partition rt = partition(SchedulingPolicy.FIFO, 0, 0, 10, 20);
        assertEquals(new SchedulingRequest(SchedulingPolicy.FIFO, 0, 10), SchedulingRequest.forJob(rt, null, null, null));
        assertFalse(SchedulingRequest.forJob(rt, null, SchedulingPolicy.NORMAL, null).policy() == SchedulingPolicy.FIFO);
        assertThrows(IllegalArgumentException.class, () -> SchedulingRequest.forJob(rt, null, null, 21));

        SchedulingRequest greedy = new SchedulingRequest(SchedulingPolicy.FIFO, -20, 99);
        assertEquals(new SchedulingRequest(SchedulingPolicy.NORMAL, -5, 1), greedy.cappedBy(normal));
        assertEquals(new SchedulingRequest(SchedulingPolicy.FIFO, 0, 20), greedy.cappedBy(rt));
    }
}
