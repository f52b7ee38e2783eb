package io.cohort.systest;

import io.cohort.systest.programs.ShowsItsSecret;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The job's secret reaches its peers and nowhere a user of the host, or {@code --verbose}, can read
 * it: while a real job runs, no process's command line holds it (the io-manager once took it as an
 * argument), and the launcher's verbose output never shows it.
 */
class JobSecretSystemTest {
    @Test
    @Timeout(120)
    void theSecretIsOnNoCommandLineAndNotInVerboseOutput() throws Exception {
        try (CohortProcess job = CohortProcess.start(java.util.Map.of(), "run", "-n", "3", "--verbose",
                "--transport", "tcp", "-cp", CohortProcess.TEST_CLASSES, ShowsItsSecret.class.getName())) {
            assertTrue(job.awaitOut(l -> l.startsWith("secret "), 1), job.toString());
            String secret = job.out().stream().filter(l -> l.startsWith("secret ")).findFirst().orElseThrow()
                    .substring("secret ".length());
            assertTrue(secret.matches("[0-9a-f]{64}"), "a peer's COHORT_JOB_KEY is a 256-bit secret: " + secret);
            List<String> holders = commandLinesHolding(secret);
            assertEquals(List.of(), holders, "command lines that show the job's secret");
            job.closeStdin();
            assertEquals(0, job.waitFor(), job.toString());
            assertFalse(String.join("\n", job.err()).contains(secret), "--verbose showed the secret: " + job.err());
            assertTrue(job.err().stream().anyMatch(l -> l.contains("io-manager on")),
                    "the verbose output names the io-manager's command (which must not hold the secret): " + job.err());
        }
    }

    /** The pid and command line of every process whose command line contains {@code secret}. */
    private static List<String> commandLinesHolding(String secret) throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) procs::iterator) {
                if (!p.getFileName().toString().matches("\\d+")) {
                    continue;
                }
                try {
                    String cmdline = new String(Files.readAllBytes(p.resolve("cmdline")), StandardCharsets.UTF_8)
                            .replace('\0', ' ');
                    if (cmdline.contains(secret)) {
                        found.add(p.getFileName() + ": " + cmdline);
                    }
                } catch (IOException e) {
                    // The process ended meanwhile.
                }
            }
        }
        return found;
    }
}
