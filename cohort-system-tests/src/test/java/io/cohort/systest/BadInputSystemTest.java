package io.cohort.systest;

import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad command lines fail fast, with one line and the documented code, before any peer starts. */
@Isolated // it counts every io-manager on the machine, and another class's job has one too
class BadInputSystemTest {
    private static void assertFails(int code, String fragment, String... args) throws Exception {
        Set<Long> before = ioManagers();
        long start = System.nanoTime();
        CohortProcess p = CohortProcess.run(args);
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(code, p.exitCode(), p.toString());
        List<String> err = p.err();
        assertEquals(1, err.size(), "one line: " + p);
        assertTrue(err.get(0).startsWith("cohort: ") && err.get(0).contains(fragment), p.toString());
        assertFalse(err.get(0).contains("Exception"), p.toString());
        assertTrue(millis < 10_000, "took " + millis + " ms");
        // The io-manager the launcher started before parsing (for a local job) must not outlive it.
        List<ProcessHandle> stray = ProcessHandle.allProcesses()
                .filter(h -> !before.contains(h.pid()) && isIoManager(h)).toList();
        assertTrue(CohortProcess.awaitGone(stray, Duration.ofSeconds(5)), "io-manager left after bad input: " + stray);
    }

    private static Set<Long> ioManagers() {
        return ProcessHandle.allProcesses().filter(BadInputSystemTest::isIoManager).map(ProcessHandle::pid)
                .collect(Collectors.toSet());
    }

    private static boolean isIoManager(ProcessHandle h) {
        return h.isAlive() && h.info().commandLine().orElse("").contains("io.cohort.launch.IoManagerMain");
    }

    @Test
    @Timeout(30)
    void zeroPeers() throws Exception {
        assertFails(2, "-n must be 1 or more", "run", "-n", "0", "--example", "pi");
    }

    @Test
    @Timeout(30)
    void missingJar() throws Exception {
        assertFails(3, "does not exist", "run", "-n", "2", "-jar", "no-such.jar");
    }

    @Test
    @Timeout(30)
    void nonexistentClass() throws Exception {
        assertFails(3, "class com.example.Nope was not found", "run", "-n", "2", "-cp", CohortProcess.TEST_CLASSES,
                "com.example.Nope");
    }

    @Test
    @Timeout(30)
    void unknownOption() throws Exception {
        assertFails(2, "Unknown option: '--frobnicate'", "run", "-n", "2", "--frobnicate", "--example", "pi");
    }

    @Test
    @Timeout(60)
    void anExampleStartedByClassNameChecksItsArgumentItself() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "2", "-cp", CohortProcess.LIB.resolve("cohort-examples.jar").toString(),
                "io.cohort.examples.Pi", "abc");
        assertEquals(2, p.exitCode(), p.toString());
        List<String> err = p.err();
        assertEquals(2, err.size(), "rank 0's sentence and the summary: " + p);
        assertEquals("pi takes one argument, intervals, a whole number from 1 to 9223372036854775807, not 'abc'", err.get(0), p.toString());
        // The other peer either found the same fault or was stopped first: the launcher stops the rest at once.
        assertTrue(err.get(1).matches("cohort: job [0-9a-f]{8} failed: rank [01] on \\S+ exited with status 2 \\(root cause\\);"
                + " (rank [01] also failed \\(exited with status 2\\)|1 other peer was stopped)"), p.toString());
    }

    @Test
    @Timeout(30)
    void unknownExample() throws Exception {
        assertFails(2, "unknown example 'nonesuch'", "run", "-n", "2", "--example", "nonesuch");
    }
}
