package io.cohort.systest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Shared memory against another user of the host and a full {@code /dev/shm}, with real jobs: a
 * user who creates every name a job's segments could be given does not stop it; the job's
 * directory is its user's alone and gone when the job ends, whether it ends well or a peer is
 * SIGKILLed; a {@code /dev/shm} too small for the rings ends the start at once with one line.
 */
class ShmSecuritySystemTest {
    private static final String PROGRAMS = "io.cohort.systest.programs.";
    private static final Path SHM = Path.of("/dev/shm");
    /** The launcher's first --verbose line, printed before any io-manager or peer starts. */
    private static final Pattern JOB_HEADER = Pattern.compile("cohort: job ([0-9a-f]+): .*");

    private static UserPrincipal nobody() throws IOException {
        return SHM.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
    }

    private static boolean root() throws IOException {
        return Files.getOwner(Path.of("/proc/self")).getName().equals("root");
    }

    /** The job's directory as rank 0 printed it ("shm-dir DIR"). */
    private static Path shmDir(CohortProcess p) {
        for (String l : p.out()) {
            if (l.startsWith("shm-dir ")) {
                return Path.of(l.substring("shm-dir ".length()));
            }
        }
        throw new AssertionError("rank 0 printed no shm-dir line: " + p);
    }

    private static boolean awaitGone(Path path, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            TimeUnit.MILLISECONDS.sleep(20); // polling: there is no event for "a file was removed"
        }
        return true;
    }

    /**
     * As another user, the moment the job's id is known (it is in every process list, on the
     * io-manager's command line): every name its rings could have in {@code /dev/shm}, their
     * temporary names, and a directory named after the job, all owned by nobody.
     */
    private static List<Path> squat(String jobId, int n) throws IOException {
        List<Path> made = new ArrayList<>();
        UserPrincipal nobody = nobody();
        for (int from = 0; from < n; from++) {
            for (int to = 0; to < n; to++) {
                if (from != to) {
                    for (String name : new String[] {"cohort-" + jobId + "-" + from + "-" + to,
                                                     "cohort-" + jobId + "-" + from + "-" + to + ".tmp"}) {
                        made.add(squatted(Files.createFile(SHM.resolve(name)), nobody));
                    }
                }
            }
        }
        made.add(squatted(Files.createDirectory(SHM.resolve("cohort-" + jobId)), nobody));
        return made;
    }

    private static Path squatted(Path p, UserPrincipal nobody) throws IOException {
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwx------" : "rw-------"));
        Files.setOwner(p, nobody);
        return p;
    }

    @Test
    @Timeout(90)
    void namesSquattedByAnotherUserDoNotStopAJob() throws Exception {
        assumeTrue(Files.isDirectory(SHM), "no /dev/shm");
        assumeTrue(root(), "not root: cannot create files as another user");
        assumeTrue(System.getenv("COHORT_SHM_DIR") == null, "COHORT_SHM_DIR moves the segments elsewhere");
        int n = 3;
        List<Path> squatted = new ArrayList<>();
        try (CohortProcess p = CohortProcess.start("run", "-n", String.valueOf(n), "--verbose", "--transport", "shm",
                "-cp", CohortProcess.TEST_CLASSES, PROGRAMS + "ShmDirectoryProbe", "exit")) {
            p.closeStdin();
            assertTrue(p.awaitErr(l -> JOB_HEADER.matcher(l).matches(), 1), p.toString());
            Matcher m = p.err().stream().map(JOB_HEADER::matcher).filter(Matcher::matches).findFirst().orElseThrow();
            try {
                squatted.addAll(squat(m.group(1), n));
            } catch (FileAlreadyExistsException e) {
                throw new AssertionError("the job made its names before the squatter could (it started too fast "
                        + "for this test): " + e.getMessage() + "; " + p);
            }
            assertEquals(0, p.waitFor(), p.toString());
            for (int r = 0; r < n; r++) {
                int rank = r;
                assertTrue(p.out().stream().anyMatch(l -> l.matches("rank " + rank + " ready pid \\d+ sum 6")), p.toString());
            }
            assertTrue(p.err().stream().anyMatch(l -> l.matches("\\s+0\\s+-\\s+shm\\s+shm\\s+\\S+")), "over shm: " + p);
        } finally {
            for (Path s : squatted) {
                Files.deleteIfExists(s);
            }
        }
    }

    @Test
    @Timeout(90)
    void theJobsDirectoryIsItsUsersAloneAndGoesWithAPeerSigkilled() throws Exception {
        assumeTrue(Files.isDirectory(SHM), "no /dev/shm");
        try (CohortProcess p = CohortProcess.start("run", "-n", "3", "--transport", "shm", "-cp", CohortProcess.TEST_CLASSES,
                PROGRAMS + "ShmDirectoryProbe", "hold")) {
            assertTrue(p.awaitOut(l -> l.matches("rank \\d ready pid \\d+ sum 6"), 3), p.toString());
            Path dir = shmDir(p);
            assertTrue(dir.getFileName().toString().matches("cohort-[0-9a-f]{32}"), "not a fresh random name: " + dir);
            assertEquals(Files.getOwner(Path.of("/proc/self")), Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS)));
            assertFalse(Files.isSymbolicLink(dir));
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f, LinkOption.NOFOLLOW_LINKS)), f.toString());
                }
            }
            long pid = p.out().stream().filter(l -> l.startsWith("rank 1 ready pid ")).map(l -> l.split(" ")[4])
                    .mapToLong(Long::parseLong).findFirst().orElseThrow();
            ProcessHandle.of(pid).orElseThrow().destroyForcibly();
            assertEquals(137, p.waitFor(), p.toString());
            assertTrue(awaitGone(dir, Duration.ofSeconds(10)), dir + " left after the job ended: " + p);
        }
    }

    @Test
    @Timeout(60)
    void theJobsDirectoryGoesAfterANormalEnd() throws Exception {
        assumeTrue(Files.isDirectory(SHM), "no /dev/shm");
        CohortProcess p = CohortProcess.run("run", "-n", "2", "-cp", CohortProcess.TEST_CLASSES,
                PROGRAMS + "ShmDirectoryProbe", "exit");
        assertEquals(0, p.exitCode(), p.toString());
        Path dir = shmDir(p);
        assertTrue(dir.getFileName().toString().matches("cohort-[0-9a-f]{32}"), "not a fresh random name: " + dir);
        assertTrue(awaitGone(dir, Duration.ofSeconds(10)), dir + " left after the job ended: " + p);
    }

    /** Whether this process may make a private mount namespace with its own small /dev/shm. */
    private static boolean privateShmPossible() throws InterruptedException {
        try {
            Process p = new ProcessBuilder("unshare", "-m", "--propagation", "private", "sh", "-c",
                    "mount -t tmpfs -o size=64k tmpfs /dev/shm").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    @Timeout(60)
    void aDevShmThatFillsUpMidRunDoesNotFailTheJob() throws Exception {
        assumeTrue(privateShmPossible(), "cannot unshare a mount namespace and mount a tmpfs on /dev/shm here");
        // 4 MiB holds two 1 MiB rings and the world's segment; rank 0 then fills the rest before the
        // rings have been gone through: pages tmpfs had not given out by then would be a SIGBUS.
        CohortProcess p = CohortProcess.startUnder(List.of("unshare", "-m", "--propagation", "private", "sh", "-c",
                "mount -t tmpfs -o size=4m tmpfs /dev/shm && exec \"$0\" \"$@\""), Map.of(),
                "run", "-n", "2", "--transport", "shm", "-cp", CohortProcess.TEST_CLASSES, PROGRAMS + "ShmFillsUp",
                "/dev/shm/filler");
        p.closeStdin();
        p.waitFor();
        assertEquals(0, p.exitCode(), p.toString());
        assertTrue(p.out().contains("filled"), p.toString());
        assertTrue(p.out().contains("rank 0 done sum 3") && p.out().contains("rank 1 done sum 3"), p.toString());
    }

    @Test
    @Timeout(60)
    void aDevShmTooSmallForTheRingsEndsTheStartWithOneLine() throws Exception {
        assumeTrue(privateShmPossible(), "cannot unshare a mount namespace and mount a tmpfs on /dev/shm here");
        // The launcher, its io-manager and the peers all see a 64 KiB /dev/shm: two 1 MiB rings cannot fit.
        long start = System.nanoTime();
        CohortProcess p = CohortProcess.startUnder(List.of("unshare", "-m", "--propagation", "private", "sh", "-c",
                "mount -t tmpfs -o size=64k tmpfs /dev/shm && exec \"$0\" \"$@\""), Map.of(),
                "run", "-n", "2", "-cp", CohortProcess.TEST_CLASSES, PROGRAMS + "ShmDirectoryProbe", "exit");
        p.closeStdin();
        p.waitFor();
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertEquals(4, p.exitCode(), p.toString());
        assertTrue(seconds < 20, "the start took " + seconds + " s to fail: " + p);
        assertEquals(1, p.err().size(), "one line: " + p);
        Matcher m = Pattern.compile("cohort: job [0-9a-f]+ could not start: rank \\d on \\S+ could not be started: "
                + "/dev/shm is too small for this job's shared memory: it needs (\\d+) bytes on this host and (\\d+) bytes "
                + "are free \\(make /dev/shm larger, or use --transport tcp\\)").matcher(p.err().get(0));
        assertTrue(m.matches(), p.toString());
        long needed = Long.parseLong(m.group(1));
        long free = Long.parseLong(m.group(2));
        assertTrue(needed >= 2L * (1 << 20), "two 1 MiB rings at least: " + needed);
        assertTrue(free <= 64 << 10 && free < needed, "free " + free);
        assertEquals(List.of(), p.out(), "no peer ran: " + p);
    }
}
