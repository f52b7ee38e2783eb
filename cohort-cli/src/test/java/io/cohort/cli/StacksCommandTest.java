package io.cohort.cli;

import io.cohort.launch.JobRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code cohort stacks} in-process, against a registry in a temporary directory: choosing the job, and the exit codes. */
@Timeout(20)
class StacksCommandTest {
    @TempDir
    Path runtime;

    private record Result(int code, String out, String err) {
    }

    private Result execute(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out), new PrintWriter(err), Map.of("XDG_RUNTIME_DIR", runtime.toString()));
        return new Result(code, out.toString(), err.toString());
    }

    /** A job registered by this JVM (so it counts as running) whose port nobody listens on. */
    private void register(String id, long started) throws IOException {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        JobRegistry.forCurrentUser(Map.of("XDG_RUNTIME_DIR", runtime.toString())).register(new JobRegistry.Entry(id,
                ProcessHandle.current().pid(), JobRegistry.currentProcessStartMillis(), "127.0.0.1", closed, "t", 4,
                "app.Main", started));
    }

    private static final String USER = System.getProperty("user.name");

    @Test
    void noJobIsOneSentenceAndExit6() {
        Result r = execute("stacks");
        assertEquals(6, r.code(), r.toString());
        assertEquals("cohort: no running Cohort job of user " + USER + " on this machine (none registered in "
                + runtime.resolve("cohort/jobs") + ")\n", r.err());
        Result list = execute("stacks", "--list");
        assertEquals(0, list.code(), list.toString());
        assertEquals("", list.out());
        assertTrue(list.err().startsWith("cohort: no running Cohort job"), list.toString());
    }

    @Test
    void severalJobsAreListedAndOneMustBeNamed() throws IOException {
        register("aaaa1111", 1_000);
        register("aaaa2222", 2_000);
        Result r = execute("stacks");
        assertEquals(2, r.code(), r.toString());
        String[] lines = r.err().split("\n");
        assertEquals(4, lines.length, r.err());
        assertTrue(lines[0].startsWith("JOB") && lines[0].endsWith("APPLICATION"), lines[0]);
        assertTrue(lines[1].matches("aaaa1111 +" + ProcessHandle.current().pid() + " +4 +.* app\\.Main"), lines[1]);
        assertEquals("cohort: 2 jobs are running; say which: cohort stacks JOB", lines[3]);
        Result list = execute("stacks", "--list");
        assertEquals(0, list.code());
        assertEquals(3, list.out().split("\n").length, list.out());

        Result ambiguous = execute("stacks", "aaaa");
        assertEquals(2, ambiguous.code(), ambiguous.toString());
        assertEquals("cohort: 'aaaa' is the start of 2 job ids (aaaa1111, aaaa2222); give more of it\n", ambiguous.err());

        Result unknown = execute("stacks", "bbbb");
        assertEquals(6, unknown.code(), unknown.toString());
        assertEquals("cohort: no running job bbbb of user " + USER + " on this machine; 'cohort stacks --list' shows the 2 there are\n",
                unknown.err());

        // Named by id prefix: found, but its launcher no longer listens.
        Result ended = execute("stacks", "aaaa2");
        assertEquals(6, ended.code(), ended.toString());
        assertEquals("cohort: job aaaa2222 has ended (its launcher no longer listens)\n", ended.err());
    }

    @Test
    void badOptionsAreUsageErrors() {
        Result r = execute("stacks", "--timeout", "0");
        assertEquals(2, r.code(), r.toString());
        assertEquals("cohort: --timeout must be more than 0 and at most 60 seconds (got 0.0)\n", r.err());
        Result both = execute("stacks", "--list", "abc");
        assertEquals(2, both.code(), both.toString());
    }

    @Test
    void anEmptyJobNameMatchesNoJobButIsAUsageError() throws IOException {
        register("aaaa1111", 1_000);
        Result r = execute("stacks", " ");
        assertEquals(2, r.code(), r.toString());
        assertEquals("cohort: JOB is empty; give a job id (or its start) or the launcher's pid, or leave it out\n", r.err());
    }

    @Test
    void aRegistryOthersMayWriteIsRefusedWithExit78() throws IOException {
        Path jobs = Files.createDirectories(runtime.resolve("cohort/jobs"));
        Files.setPosixFilePermissions(runtime.resolve("cohort"), PosixFilePermissions.fromString("rwx------"));
        Files.setPosixFilePermissions(jobs, PosixFilePermissions.fromString("rwxrwx---"));
        Result r = execute("stacks");
        assertEquals(78, r.code(), r.toString());
        assertTrue(r.err().startsWith("cohort: the job registry " + jobs + " is not a private directory of user " + USER), r.err());
    }
}
