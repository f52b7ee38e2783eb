package io.cohort.systest;

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
    @Timeout(30)
    void unknownExample() throws Exception {
        assertFails(2, "unknown example 'nonesuch'", "run", "-n", "2", "--example", "nonesuch");
    }
}
