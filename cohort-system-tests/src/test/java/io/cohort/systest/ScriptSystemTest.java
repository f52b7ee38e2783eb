package io.cohort.systest;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ./cohort script at the repository root, run from another directory. */
class ScriptSystemTest {
    @Test
    @Timeout(60)
    void scriptRunsAJobFromAnyDirectoryAndPassesArgumentsThrough(@TempDir Path cwd) throws Exception {
        Assumptions.assumeTrue(distUpToDate(), "sources are newer than the built distribution, and this test must not "
                + "start a nested build; run 'mvn package' first");
        Process p = new ProcessBuilder(CohortProcess.ROOT.resolve("cohort").toString(), "run", "-n", "2", "--tag-output",
                "--example", "pi", "1000").directory(cwd.toFile()).redirectErrorStream(true).start();
        p.getOutputStream().close();
        List<String> lines;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream()))) {
            lines = r.lines().collect(Collectors.toList());
        }
        assertEquals(0, p.waitFor(), lines.toString());
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith("[0] pi = 3.14"), lines.toString());
    }

    /**
     * A closed stdin (bash's {@code <&-}) reads as empty: the JVM would otherwise open its own
     * lib/modules as descriptor 0, and rank 0 would read that as its input.
     */
    @Test
    @Timeout(60)
    void aClosedStdinReadsAsEmptyAndAClosedStderrDiscards(@TempDir Path cwd) throws Exception {
        Assumptions.assumeTrue(distUpToDate(), "sources are newer than the built distribution, and this test must not "
                + "start a nested build; run 'mvn package' first");
        Process p = new ProcessBuilder("bash", "-c", "exec \"$0\" run -n 2 -cp \"$1\" io.cohort.systest.programs.StdinEcho <&-",
                CohortProcess.ROOT.resolve("cohort").toString(), CohortProcess.TEST_CLASSES)
                .directory(cwd.toFile()).redirectErrorStream(true).start();
        p.getOutputStream().close();
        List<String> lines;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream()))) {
            lines = r.lines().sorted().collect(Collectors.toList());
        }
        assertEquals(0, p.waitFor(), lines.toString());
        assertEquals(List.of("rank 0 stdin: ", "rank 1 stdin: "), lines);
        // A closed stderr: the peers' lines there are discarded, not a failed write that stops the job.
        Process q = new ProcessBuilder("bash", "-c", "exec \"$0\" run -n 2 -cp \"$1\" io.cohort.systest.programs.OutputBoth 2>&-",
                CohortProcess.ROOT.resolve("cohort").toString(), CohortProcess.TEST_CLASSES)
                .directory(cwd.toFile()).start();
        q.getOutputStream().close();
        List<String> out;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(q.getInputStream()))) {
            out = r.lines().sorted().collect(Collectors.toList());
        }
        assertEquals(0, q.waitFor(), out.toString());
        assertTrue(out.contains("out line from rank 0") && out.contains("out line from rank 1"), out.toString());
    }

    /**
     * A host file from a pipe the shell opened ({@code --hostfile <(...)}, as scheduler commands are
     * used) is read, while a device named as one is refused in one line.
     */
    @Test
    @Timeout(60)
    void aHostFileFromProcessSubstitutionIsReadAndADeviceIsRefused(@TempDir Path cwd) throws Exception {
        Assumptions.assumeTrue(distUpToDate(), "sources are newer than the built distribution, and this test must not "
                + "start a nested build; run 'mvn package' first");
        Process p = new ProcessBuilder("bash", "-c", "exec \"$0\" run -n 3 --hostfile <(printf 'ha slots=2\\nhb\\n')"
                + " --launch-agent local --example pi", CohortProcess.ROOT.resolve("cohort").toString())
                .directory(cwd.toFile()).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        assertTrue(out.contains("computed by 3 peers"), out);
        Process d = new ProcessBuilder(CohortProcess.ROOT.resolve("cohort").toString(), "run", "-n", "2", "--hostfile",
                "/dev/zero", "--example", "pi").directory(cwd.toFile()).redirectErrorStream(true).start();
        d.getOutputStream().close();
        String err = new String(d.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(2, d.waitFor(), err);
        assertEquals("cohort: --hostfile /dev/zero is not a regular file (a device, FIFO or socket); give a text file of"
                + " host names", err.strip());
    }

    /**
     * Output that cannot be written stops the job: a full device is one line and exit 74; a reader
     * that goes away (a pipe into head) ends it quietly with 141, as SIGPIPE ends a Unix tool.
     */
    @Test
    @Timeout(60)
    void outputThatCannotBeWrittenStopsTheJob(@TempDir Path cwd) throws Exception {
        Assumptions.assumeTrue(distUpToDate(), "sources are newer than the built distribution, and this test must not "
                + "start a nested build; run 'mvn package' first");
        String cohort = CohortProcess.ROOT.resolve("cohort").toString();
        Process full = new ProcessBuilder(cohort, "run", "-n", "2", "-cp", CohortProcess.TEST_CLASSES,
                "io.cohort.systest.programs.ManyLines", "100000").directory(cwd.toFile())
                .redirectOutput(new java.io.File("/dev/full")).start();
        full.getOutputStream().close();
        List<String> err;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(full.getErrorStream()))) {
            err = r.lines().filter(l -> l.startsWith("cohort:")).collect(Collectors.toList());
        }
        assertEquals(74, full.waitFor(), err.toString());
        assertEquals(1, err.size(), err.toString());
        assertTrue(err.get(0).matches("cohort: job [0-9a-f]{8} failed: its standard output cannot be written "
                + "\\(No space left on device\\).*"), err.toString());

        Process head = new ProcessBuilder(cohort, "run", "-n", "2", "-cp", CohortProcess.TEST_CLASSES,
                "io.cohort.systest.programs.ManyLines", "100000000").directory(cwd.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        head.getOutputStream().close();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(head.getInputStream()))) {
            r.readLine();
        }
        assertEquals(141, head.waitFor());

        // The other commands' reports likewise: never exit 0 with the report lost.
        Process examples = new ProcessBuilder(cohort, "examples").directory(cwd.toFile())
                .redirectOutput(new java.io.File("/dev/full")).start();
        examples.getOutputStream().close();
        List<String> said;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(examples.getErrorStream()))) {
            said = r.lines().collect(Collectors.toList());
        }
        assertEquals(74, examples.waitFor(), said.toString());
        assertEquals(List.of("cohort: the standard output (/dev/full) could not be written; the report is incomplete"), said);
    }

    /**
     * ./cohort rebuilds when a source is newer than the start of the build that made the
     * distribution (the stamp's built= line), even if it is older than the stamp file, which the
     * build writes at its end; and it does not when every source is older. A copy of the script in
     * a tree of its own, with a stand-in mvn that only says it ran, so no real build starts.
     */
    @Test
    @Timeout(60)
    void scriptRebuildsASourceSavedWhileTheLastBuildRan(@TempDir Path root) throws Exception {
        Path script = root.resolve("cohort");
        Files.copy(CohortProcess.ROOT.resolve("cohort"), script);
        script.toFile().setExecutable(true);
        Path bin = Files.createDirectories(root.resolve("bin"));
        Path mvn = Files.writeString(bin.resolve("mvn"), "#!/bin/sh\necho stand-in mvn ran >&2\nexit 3\n");
        mvn.toFile().setExecutable(true);
        java.time.Instant start = java.time.Instant.parse("2026-01-02T03:04:05.678Z");
        Path stamp = Files.createDirectories(root.resolve("cohort-dist/target/cohort")).resolve("BUILT");
        Files.writeString(stamp, "version=test\nbuilt=" + start + "\n");
        Files.setLastModifiedTime(stamp, FileTime.from(start.plusSeconds(60))); // the build's end
        Path source = Files.createDirectories(root.resolve("mod/src")).resolve("A.java");
        Files.writeString(source, "class A {}\n"); // below, it and its directory get the times of each case

        Files.setLastModifiedTime(source, FileTime.from(start.plusSeconds(5))); // saved while it ran
        Files.setLastModifiedTime(source.getParent(), FileTime.from(start.plusSeconds(5)));
        List<String> during = runScript(script, bin);
        assertTrue(during.contains("cohort: building (sources changed)..."), during.toString());
        assertTrue(during.contains("stand-in mvn ran"), during.toString());

        Files.setLastModifiedTime(source, FileTime.from(start.minusSeconds(5))); // saved before it
        Files.setLastModifiedTime(source.getParent(), FileTime.from(start.minusSeconds(5)));
        List<String> before = runScript(script, bin);
        assertTrue(before.stream().noneMatch(l -> l.contains("building") || l.contains("stand-in mvn")), before.toString());
    }

    private static List<String> runScript(Path script, Path bin) throws Exception {
        ProcessBuilder b = new ProcessBuilder(script.toString(), "--version").redirectErrorStream(true);
        b.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        Process p = b.start();
        p.getOutputStream().close();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream()))) {
            List<String> lines = r.lines().collect(Collectors.toList());
            p.waitFor();
            return lines;
        }
    }

    /**
     * SIGQUIT to the script prints the job's merged stacks on its stderr (the script turns it into
     * SIGUSR1 for the launcher) and the job goes on; SIGTERM then stops it with 143, as before.
     */
    @Test
    @Timeout(60)
    void sigquitShowsTheMergedStacksAndSigtermStillExits143(@TempDir Path runtime) throws Exception {
        Assumptions.assumeTrue(distUpToDate(), "sources are newer than the built distribution, and this test must not "
                + "start a nested build; run 'mvn package' first");
        CohortProcess script = hungJob(runtime);
        try {
            // "ready" comes just before a rank blocks: wait (through cohort stacks) until both are in
            // place, so that the one SIGQUIT below shows the settled tree.
            awaitSettled(runtime);
            signal("QUIT", script);
            assertTrue(script.awaitErr(l -> l.contains("io.cohort.systest.programs.Hang.stuck("), 1), script.toString());
            assertTrue(script.awaitErr(l -> l.startsWith("      RUNNABLE"), 1), script.toString());
            StackBlocks tree = StackBlocks.parse(script.err());
            assertTrue(tree.find("[1]", "io.cohort.comm.EngineCommunicator.recv(") != null
                    && tree.find("[0]", "io.cohort.systest.programs.Hang.stuck(") != null, script.toString());
            assertTrue(script.err().stream().noneMatch(l -> l.contains("Full thread dump")), "no HotSpot dump of the launcher: " + script);
            assertTrue(script.process().isAlive(), "the job goes on after SIGQUIT");
            signal("TERM", script);
            assertEquals(143, script.waitFor(), script.toString());
            assertTrue(script.err().stream().anyMatch(l -> l.matches("cohort: job [0-9a-f]{8} was interrupted.*")), script.toString());
        } finally {
            stopLeftovers(script);
        }
    }

    @Test
    @Timeout(60)
    void sigintThroughTheScriptStillExits130(@TempDir Path runtime) throws Exception {
        Assumptions.assumeTrue(distUpToDate(), "sources are newer than the built distribution; run 'mvn package' first");
        Assumptions.assumeFalse(SignalSystemTest.sigintIgnored(), "SIGINT is ignored in this process tree (started in the "
                + "background), so the script and its JVM cannot receive it; skipping the SIGINT test");
        CohortProcess script = hungJob(runtime);
        try {
            signal("INT", script);
            assertEquals(130, script.waitFor(), script.toString());
            assertTrue(script.err().stream().anyMatch(l -> l.matches("cohort: job [0-9a-f]{8} was interrupted.*")), script.toString());
        } finally {
            stopLeftovers(script);
        }
    }

    /**
     * A SIGINT at once after start, and one as soon as the script has started its launcher's
     * subshell, each end the run with 130. The first meets the script in its start-up, where a
     * non-interactive bash that waits for a command ignores a SIGINT the command did not die of;
     * the second waits for the launcher's subshell, which starts with SIGINT ignored (a background
     * command) until its 'trap -' runs, and signals as soon as it sees it (or the launcher it became).
     * Both windows are short: this does not fail on every run of a script without the fixes, but a
     * lost SIGINT shows as a hang until the time-out.
     */
    @Test
    @Timeout(60)
    void aSigintWhileTheScriptStartsIsNotLost(@TempDir Path runtime) throws Exception {
        Assumptions.assumeTrue(distUpToDate(), "sources are newer than the built distribution; run 'mvn package' first");
        Assumptions.assumeFalse(SignalSystemTest.sigintIgnored(), "SIGINT is ignored in this process tree (started in the "
                + "background), so the script and its JVM cannot receive it; skipping the SIGINT test");
        for (boolean awaitSubshell : new boolean[] {false, true}) {
            CohortProcess script = CohortProcess.startCommand(List.of(CohortProcess.ROOT.resolve("cohort").toString(), "run", "-n",
                    "2", "-cp", CohortProcess.TEST_CLASSES, "io.cohort.systest.programs.Hang"), Map.of("XDG_RUNTIME_DIR", runtime.toString()));
            try {
                while (awaitSubshell && script.process().toHandle().children().noneMatch(ScriptSystemTest::launcherSubshell)) {
                    assertTrue(script.process().isAlive(), script.toString());
                    Thread.onSpinWait();
                }
                signal("INT", script);
                assertEquals(130, script.waitFor(), script.toString());
            } finally {
                stopLeftovers(script);
            }
        }
    }

    /**
     * The launcher's background subshell while it still ignores SIGINT (before its 'trap -'), or
     * the launcher it became: the first of the two the test sees.
     */
    private static boolean launcherSubshell(ProcessHandle child) {
        if (child.info().commandLine().orElse("").contains("io.cohort.cli.Main")) {
            return true;
        }
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + child.pid() + "/status"))) {
                if (line.startsWith("SigIgn:")) {
                    return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & (1L << 1)) != 0;
                }
            }
        } catch (IOException | RuntimeException gone) {
            // ended meanwhile
        }
        return false;
    }

    /** After a failure: killing the script would end only bash; its launcher (SIGTERM) stops its job. */
    /** SIGKILL to the script (not the launcher): the launcher notices its parent is gone and stops the job. */
    @Test
    @Timeout(60)
    void killingTheScriptStopsTheJob(@TempDir Path runtime) throws Exception {
        Assumptions.assumeTrue(distUpToDate(), "sources are newer than the built distribution; run 'mvn package' first");
        CohortProcess script = hungJob(runtime);
        try {
            List<ProcessHandle> job = script.process().descendants().toList();
            assertTrue(job.size() >= 4, "launcher, io-manager and two peers under the script: " + job);
            signal("KILL", script);
            assertTrue(CohortProcess.awaitGone(job, java.time.Duration.ofSeconds(30)),
                    "the launcher, io-manager and peers outlived the script: " + job.stream().filter(ProcessHandle::isAlive).toList());
        } finally {
            stopLeftovers(script);
        }
    }

    private static void stopLeftovers(CohortProcess script) {
        script.process().children().forEach(ProcessHandle::destroy);
        script.close();
    }

    /**
     * A 2-peer Hang through ./cohort, with its own job registry; returns once both ranks are in place.
     * A process started by a JVM inherits SIGQUIT blocked (HotSpot blocks it in all its threads but
     * one), and bash cannot unblock it, so the script is started through perl with an empty signal
     * mask, as a shell at a terminal would start it.
     */
    private static CohortProcess hungJob(Path runtime) throws Exception {
        Assumptions.assumeTrue(new ProcessBuilder("perl", "-MPOSIX", "-e", "1").start().waitFor() == 0,
                "perl with POSIX is needed to start the script with SIGQUIT unblocked");
        CohortProcess script = CohortProcess.startCommand(List.of("perl", "-MPOSIX", "-e",
                "sigprocmask(SIG_SETMASK, POSIX::SigSet->new) or die \"sigprocmask: $!\"; exec { $ARGV[0] } @ARGV or die \"exec: $!\"",
                CohortProcess.ROOT.resolve("cohort").toString(), "run", "-n", "2",
                "-cp", CohortProcess.TEST_CLASSES, "io.cohort.systest.programs.Hang"), Map.of("XDG_RUNTIME_DIR", runtime.toString()));
        assertTrue(script.awaitOut(l -> l.endsWith(" ready"), 2), script.toString());
        return script;
    }

    private static void awaitSettled(Path runtime) throws Exception {
        for (int attempt = 0; attempt < 20; attempt++) {
            CohortProcess stacks = CohortProcess.start(Map.of("XDG_RUNTIME_DIR", runtime.toString()), "stacks");
            stacks.closeStdin();
            assertEquals(0, stacks.waitFor(), stacks.toString());
            StackBlocks tree = StackBlocks.parse(stacks.out());
            if (tree.find("[1]", "io.cohort.comm.EngineCommunicator.recv(") != null
                    && tree.find("[0]", "io.cohort.systest.programs.Hang.stuck(") != null) {
                return;
            }
        }
        throw new AssertionError("the hung job's ranks never settled where they hang");
    }

    private static void signal(String name, CohortProcess p) throws Exception {
        new ProcessBuilder("kill", "-" + name, Long.toString(p.process().pid())).start().waitFor();
    }

    private static boolean distUpToDate() throws IOException {
        Path stamp = CohortProcess.HOME.resolve("BUILT");
        if (!Files.isRegularFile(stamp)) {
            return false;
        }
        FileTime built = builtAt(stamp);
        try (Stream<Path> modules = Files.list(CohortProcess.ROOT)) {
            for (Path m : modules.filter(d -> Files.isDirectory(d.resolve("src"))).toList()) {
                try (Stream<Path> files = Files.walk(m.resolve("src"))) {
                    if (files.anyMatch(f -> newer(f, built))) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /** As ./cohort reads the stamp: the build's start from its built= line, else the file's own time. */
    private static FileTime builtAt(Path stamp) throws IOException {
        for (String line : Files.readAllLines(stamp)) {
            if (line.startsWith("built=")) {
                try {
                    return FileTime.from(java.time.Instant.parse(line.substring("built=".length()).trim()));
                } catch (java.time.format.DateTimeParseException e) {
                    break;
                }
            }
        }
        return Files.getLastModifiedTime(stamp);
    }

    private static boolean newer(Path f, FileTime t) {
        try {
            return Files.getLastModifiedTime(f).compareTo(t) > 0;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * A {@code ./cohort run} killed with SIGKILL while its launcher is still starting leaves nothing
     * running: the launcher watches the script's own pid. Before, a kill in the launcher's first half
     * second left it under init, watching nothing, and the job ran on.
     */
    @Test
    @Timeout(90)
    void aScriptKilledWhileItsLauncherStartsLeavesNothingRunning(@TempDir Path cwd) throws Exception {
        Assumptions.assumeTrue(distUpToDate(), "sources are newer than the built distribution, and this test must not "
                + "start a nested build; run 'mvn package' first");
        String marker = "cohort-early-kill-" + ProcessHandle.current().pid();
        Process script = new ProcessBuilder(CohortProcess.ROOT.resolve("cohort").toString(), "run", "-n", "2", "-cp",
                CohortProcess.TEST_CLASSES, "io.cohort.systest.programs.Sleeper", "init", marker)
                .directory(cwd.toFile()).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        // Kill the script as soon as its launcher JVM exists: well before the launcher has parsed its options.
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (script.descendants().noneMatch(h -> h.info().commandLine().orElse("").contains("io.cohort.cli.Main"))) {
            assertTrue(script.isAlive() && System.nanoTime() < deadline, "the launcher did not start");
            Thread.onSpinWait();
        }
        script.destroyForcibly();
        script.waitFor();
        assertTrue(CohortProcess.awaitNoProcessWith(marker, java.time.Duration.ofSeconds(30)),
                "the job ran on after its script was killed");
    }
}
