package io.cohort.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(20)
class JobRegistryTest {
    private static JobRegistry.Entry entry(String id, long pid, long pidStart, long started) {
        return new JobRegistry.Entry(id, pid, pidStart, "127.0.0.1", 41233, "00112233445566778899aabbccddeeff", 16,
                "com.example.Main", started);
    }

    private static JobRegistry.Entry self(String id, long started) {
        return entry(id, ProcessHandle.current().pid(), JobRegistry.currentProcessStartMillis(), started);
    }

    @Test
    void registeredJobsAreListedOldestFirstAndRemovedAtTheEnd(@TempDir Path base) throws IOException {
        JobRegistry registry = JobRegistry.in(base);
        assertEquals(List.of(), registry.running(), "no directory yet: no jobs");
        registry.register(self("bbbbbbbb", 2000));
        registry.register(self("aaaaaaaa", 3000));
        registry.register(self("cccccccc", 1000));
        List<JobRegistry.Entry> jobs = registry.running();
        assertEquals(List.of("cccccccc", "bbbbbbbb", "aaaaaaaa"), jobs.stream().map(JobRegistry.Entry::jobId).toList());
        assertEquals(self("cccccccc", 1000), jobs.get(0), "every field survives the file");
        registry.remove("bbbbbbbb");
        assertEquals(2, registry.running().size());
        try (var files = Files.list(registry.directory())) {
            assertEquals(2, files.count(), "no temporary files left behind");
        }
    }

    @Test
    void directoryIs0700AndFiles0600(@TempDir Path tmp) throws IOException {
        Path base = tmp.resolve("cohort");
        JobRegistry registry = JobRegistry.forCurrentUser(Map.of(JobRegistry.XDG_RUNTIME_DIR, tmp.toString()));
        assertEquals(base.resolve("jobs"), registry.directory());
        registry.register(self("0123abcd", 1));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(base)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(registry.directory())));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
                registry.directory().resolve("0123abcd.job"))));
    }

    @Test
    void withoutXdgRuntimeDirTheRegistryIsPerUidInTmp() {
        JobRegistry registry = JobRegistry.forCurrentUser(Map.of());
        assertEquals(Path.of("/tmp", "cohort-" + JobRegistry.currentUid(), "jobs"), registry.directory());
        assertTrue(JobRegistry.currentUid().matches("\\d+"), JobRegistry.currentUid());
    }

    @Test
    void staleFilesAreIgnoredAndRemoved(@TempDir Path base) throws Exception {
        JobRegistry registry = JobRegistry.in(base);
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        registry.register(entry("deaddead", gone.pid(), -1, 1));
        // Our own pid with another start time: the pid was reused by a process that is not the launcher.
        registry.register(entry("reused00", ProcessHandle.current().pid(), JobRegistry.currentProcessStartMillis() - 60_000, 2));
        registry.register(self("alive000", 3));
        assertEquals(List.of("alive000"), registry.running().stream().map(JobRegistry.Entry::jobId).toList());
        assertFalse(Files.exists(registry.directory().resolve("deaddead.job")), "a dead launcher's file is removed");
        assertFalse(Files.exists(registry.directory().resolve("reused00.job")), "a reused pid's file is removed");
    }

    @Test
    void unreadableFilesAreSkippedNotFatal(@TempDir Path base) throws IOException {
        JobRegistry registry = JobRegistry.in(base);
        registry.register(self("alive000", 3));
        Files.writeString(registry.directory().resolve("garbage0.job"), "id=x\n");
        assertEquals(List.of("alive000"), registry.running().stream().map(JobRegistry.Entry::jobId).toList());
    }

    @Test
    void aDirectoryOthersMayEnterIsRefusedForWritingAndReading(@TempDir Path base) throws IOException {
        Path jobs = base.resolve("jobs");
        Files.createDirectory(jobs);
        Files.setPosixFilePermissions(jobs, PosixFilePermissions.fromString("rwxrwxrwx"));
        JobRegistry registry = JobRegistry.in(base);
        JobRegistry.UnsafeRegistryException e = assertThrows(JobRegistry.UnsafeRegistryException.class,
                () -> registry.register(self("0123abcd", 1)));
        assertTrue(e.getMessage().contains("is not a private directory") && e.getMessage().contains("rwxrwxrwx"), e.getMessage());
        assertThrows(JobRegistry.UnsafeRegistryException.class, registry::running);
        assertFalse(Files.exists(jobs.resolve("0123abcd.job")), "no token written into it");
    }

    @Test
    void aSymbolicLinkInPlaceOfTheDirectoryIsRefused(@TempDir Path base) throws IOException {
        Path elsewhere = Files.createDirectory(base.resolve("elsewhere"));
        Files.setPosixFilePermissions(elsewhere, PosixFilePermissions.fromString("rwx------"));
        Path inner = Files.createDirectory(base.resolve("inner"));
        Files.createSymbolicLink(inner.resolve("jobs"), elsewhere);
        JobRegistry registry = JobRegistry.in(inner);
        assertThrows(IOException.class, () -> registry.register(self("0123abcd", 1)));
    }
}
