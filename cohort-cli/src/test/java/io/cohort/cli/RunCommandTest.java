package io.cohort.cli;

import io.cohort.launch.JobSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The command line in-process: parsing, validation and the exit codes of bad input. The limit is a
 * hang's, not a speed test's: rendering the help of every command took 11 s beside stress-ng.
 */
@Timeout(60)
class RunCommandTest {
    private static final String TEST_CLASSES = Path.of("target/test-classes").toAbsolutePath().toString();
    private static final String SELF = RunCommandTest.class.getName();

    /** The program the specs here name (SELF): the launcher refuses a main class without main. */
    public static void main(String[] args) {
        // Never run: the tests only build job specs.
    }

    /** Exit code and stderr of an in-process run. */
    private record Result(int code, String out, String err) {
    }

    private static Result execute(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out), new PrintWriter(err));
        return new Result(code, out.toString(), err.toString());
    }

    private static JobSpec spec(Map<String, String> env, String... args) {
        CommandLine cl = Main.commandLine(new PrintWriter(OutputStream.nullOutputStream()),
                new PrintWriter(OutputStream.nullOutputStream()));
        CommandLine.ParseResult pr = cl.parseArgs(args);
        RunCommand run = (RunCommand) pr.subcommand().commandSpec().userObject();
        return run.jobSpec(env, Path.of("").toAbsolutePath());
    }

    private static void assertUsageError(Result r, String fragment) {
        assertEquals(2, r.code(), r.err());
        assertOneLine(r.err(), fragment);
    }

    private static void assertOneLine(String err, String fragment) {
        String[] lines = err.strip().split("\n");
        assertEquals(1, lines.length, "one line expected: " + err);
        assertTrue(lines[0].startsWith("cohort: "), err);
        assertTrue(lines[0].contains(fragment), err);
        assertFalse(err.contains("\tat "), "no stack trace: " + err);
    }

    @Test
    void programArgumentsAfterMainClassAreThePrograms() {
        JobSpec s = spec(Map.of(), "run", "-n", "2", "-cp", TEST_CLASSES, SELF, "-v", "--foo", "-n", "7");
        assertEquals(2, s.size());
        assertEquals(SELF, s.mainClass());
        assertEquals(List.of("-v", "--foo", "-n", "7"), s.programArgs());
        assertEquals(List.of(TEST_CLASSES), s.classpath());
        assertEquals("0", s.stdin().toString());
        assertEquals(2000, s.graceMillis());
        assertEquals(60, s.wireupTimeoutSeconds());
    }

    @Test
    void jarFormReadsMainClassAndPassesTheRest(@TempDir Path dir) throws IOException {
        Path jar = dir.resolve("app.jar");
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "com.example.App");
        Path empty = dir.resolve("empty.jar");
        try (JarOutputStream j = new JarOutputStream(Files.newOutputStream(empty), m)) {
            j.flush();
        }
        try (JarOutputStream j = new JarOutputStream(Files.newOutputStream(jar), m);
             java.io.InputStream self = RunCommandTest.class.getResourceAsStream("RunCommandTest.class")) {
            j.putNextEntry(new java.util.jar.JarEntry("com/example/App.class")); // a class file with a main
            self.transferTo(j);
            j.closeEntry();
        }
        JobSpec s = spec(Map.of(), "run", "--np", "3", "--tag-output", "-jar", jar.toString(), "-n", "5", "--tag-output");
        assertEquals("com.example.App", s.mainClass());
        assertEquals(List.of(jar.toString()), s.classpath());
        assertEquals(List.of("-n", "5", "--tag-output"), s.programArgs());
        assertTrue(s.tagOutput());
        Result r = execute("run", "-n", "2", "-jar", empty.toString());
        assertEquals(3, r.code(), r.err());
        assertOneLine(r.err(), "names Main-Class com.example.App, which is neither in it nor on its Class-Path");
    }

    /** Where the JVM finds a jar's main class, the launcher's check finds it too. */
    @Test
    void aJarsMainClassIsFoundInVersionedEntriesAndOnAClassPathWithEscapes(@TempDir Path dir) throws IOException {
        byte[] withMain;
        try (java.io.InputStream self = RunCommandTest.class.getResourceAsStream("RunCommandTest.class")) {
            withMain = self.readAllBytes();
        }
        Manifest mr = new Manifest();
        mr.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        mr.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "app.Main");
        mr.getMainAttributes().put(new Attributes.Name("Multi-Release"), "true");
        Path versioned = dir.resolve("versioned.jar");
        try (JarOutputStream j = new JarOutputStream(Files.newOutputStream(versioned), mr)) {
            j.putNextEntry(new java.util.jar.JarEntry("META-INF/versions/17/app/Main.class"));
            j.write(withMain);
            j.closeEntry();
        }
        assertEquals("app.Main", spec(Map.of(), "run", "-n", "2", "-jar", versioned.toString()).mainClass());

        Path lib = Files.createDirectories(dir.resolve("lib dir")).resolve("b.jar");
        try (JarOutputStream j = new JarOutputStream(Files.newOutputStream(lib))) {
            j.putNextEntry(new java.util.jar.JarEntry("app/Main.class"));
            j.write(withMain);
            j.closeEntry();
        }
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "app.Main");
        m.getMainAttributes().put(Attributes.Name.CLASS_PATH, "lib%20dir/b.jar");
        Path launcher = dir.resolve("launcher.jar");
        try (JarOutputStream j = new JarOutputStream(Files.newOutputStream(launcher), m)) {
            j.flush();
        }
        assertEquals("app.Main", spec(Map.of(), "run", "-n", "2", "-jar", launcher.toString()).mainClass());
        // A Class-Path URL the check cannot follow: left to the JVM, not refused.
        m.getMainAttributes().put(Attributes.Name.CLASS_PATH, "http://example.com/b.jar");
        Path remote = dir.resolve("remote.jar");
        try (JarOutputStream j = new JarOutputStream(Files.newOutputStream(remote), m)) {
            j.flush();
        }
        assertEquals("app.Main", spec(Map.of(), "run", "-n", "2", "-jar", remote.toString()).mainClass());
    }

    @Test
    void mpirunsAndMpjrunsDashNpCountsThePeers() {
        JobSpec s = spec(Map.of(), "run", "-np", "4", "-cp", TEST_CLASSES, SELF, "-np", "9");
        assertEquals(4, s.size());
        assertEquals(List.of("-np", "9"), s.programArgs());
    }

    @Test
    void exampleFormUsesTheExamplesJar() {
        JobSpec s = spec(Map.of(), "run", "-n", "2", "--example", "pi", "1000");
        assertEquals("io.cohort.examples.Pi", s.mainClass());
        assertEquals(List.of("1000"), s.programArgs());
    }

    @Test
    void aDirectoryGivenToJarAndAnUnknownHelpTopicAreOneClearLine(@TempDir Path dir) {
        Result r = execute("run", "-n", "2", "-jar", dir.toString());
        assertEquals(3, r.code(), r.err());
        assertOneLine(r.err(), dir + " is a directory, not a jar file");
        Result help = execute("help", "bogus");
        assertEquals(2, help.code(), help.err());
        assertOneLine(help.err(), "'cohort' has no command 'bogus' (its commands: run, stacks,");
    }

    @Test
    void everyCommandOfTheTreeShowsItsUsageWithHelpAndThroughTheHelpCommand() {
        for (String[] path : new String[][] {{"db"}, {"db", "print"}, {"db", "set"}, {"admin"}, {"admin", "drain"},
                {"admin", "keygen"}, {"status"}, {"daemon"}, {"examples"}, {"run"}, {"stacks"}, {"prof"}}) {
            String name = "cohort " + String.join(" ", path);
            for (String flag : new String[] {"--help", "-h"}) {
                String[] args = java.util.Arrays.copyOf(path, path.length + 1);
                args[path.length] = flag;
                Result r = execute(args);
                assertEquals(0, r.code(), name + " " + flag + ": " + r.err());
                assertTrue(r.out().startsWith("Usage: " + name + " "), name + " " + flag + ": [" + r.out() + "] " + r.err());
            }
            String[] help = new String[path.length + 1];
            help[0] = "help";
            System.arraycopy(path, 0, help, 1, path.length);
            Result h = execute(help);
            assertEquals(0, h.code(), name + ": " + h.err());
            assertTrue(h.out().startsWith("Usage: " + name + " "), "cohort help " + String.join(" ", path) + ": " + h.out());
        }
        Result deep = execute("help", "db", "bogus");
        assertEquals(2, deep.code());
        assertOneLine(deep.err(), "'cohort db' has no command 'bogus' (its commands: init, print, validate, set, unset, remove,"
                + " edit); run 'cohort db --help' for usage");
        Result helpOfHelp = execute("help", "-h");
        assertEquals(0, helpOfHelp.code(), helpOfHelp.err());
        assertTrue(helpOfHelp.out().startsWith("Usage: cohort help "), helpOfHelp.out());
    }

    @Test
    void wordsThatAreNoCommandAndNumbersOutOfRangeAreNamedInPlainWords() {
        Result top = execute("bogus");
        assertEquals(2, top.code());
        assertOneLine(top.err(), "cohort: 'cohort' has no command 'bogus' (its commands: run, stacks, examples, db, status,"
                + " admin, daemon, prof, help); run 'cohort --help' for usage");
        Result admin = execute("admin", "bogus", "--cluster-db", "c.db");
        assertEquals(2, admin.code());
        assertOneLine(admin.err(), "'cohort admin' has no command 'bogus' (its commands: drain, resume, slots, keygen)");
        Result extra = execute("db", "print", "extra");
        assertEquals(2, extra.code());
        assertOneLine(extra.err(), "cohort: unexpected argument 'extra'; run 'cohort db print --help' for usage");
        Result big = execute("run", "-n", "99999999999", "--example", "pi");
        assertEquals(2, big.code());
        assertOneLine(big.err(), "Invalid value for option '--np': '99999999999' is too large a number");
        Result word = execute("run", "-n", "abc", "--example", "pi");
        assertEquals(2, word.code());
        assertOneLine(word.err(), "Invalid value for option '--np': 'abc' is not a whole number; run 'cohort run --help'");
    }

    @Test
    void aMainClassWithoutMainIsRefusedBeforeLaunch() {
        // UsageException has a superclass, which might hand main down: left to the peers' JVMs.
        assertEquals(UsageException.class.getName(),
                spec(Map.of(), "run", "-n", "2", "-cp", CLI_CLASSES, UsageException.class.getName()).mainClass());
        Result r = execute("run", "-n", "2", "-cp", CLI_CLASSES, ClassFileMain.class.getName());
        assertEquals(3, r.code(), r.err());
        assertOneLine(r.err(), "class io.cohort.cli.ClassFileMain has no main method");
    }

    /** The directory of the launcher's own classes: some with main, some without. */
    private static final String CLI_CLASSES = Path.of(ClassFileMain.class.getProtectionDomain().getCodeSource()
            .getLocation().getPath()).toString();

    @Test
    void exampleArgumentsAreCheckedBeforeLaunch() {
        assertUsageError(execute("run", "-n", "2", "--example", "pi", "abc"),
                "--example pi takes one argument, intervals, a whole number from 1 to 9223372036854775807, not 'abc'");
        assertUsageError(execute("run", "-n", "2", "--example", "pi", "0"), "not '0'");
        assertUsageError(execute("run", "-n", "2", "--example", "ring", "-1"), "laps, a whole number from 1");
        assertUsageError(execute("run", "-n", "2", "--example", "alltoall", "99999999999"), "not '99999999999'");
        assertUsageError(execute("run", "-n", "2", "--example", "broadcast", "1", "2"), "got 2 arguments");
        assertEquals(List.of("3"), spec(Map.of(), "run", "-n", "2", "--example", "deck", "3").programArgs());
        assertEquals(List.of(), spec(Map.of(), "run", "-n", "2", "--example", "ring").programArgs());
    }

    @Test
    void everyShippedExampleThatTakesAnArgumentSaysWhich() {
        ExampleCatalog.load().all().values().stream().filter(e -> e.description().endsWith("]"))
                .forEach(e -> assertNotNull(e.argument(), e.name()));
        assertThrows(IllegalStateException.class, () -> ExampleCatalog.parse("x = a.B | d [n] | n one 2"));
    }

    @Test
    void environmentOptions() {
        JobSpec s = spec(Map.of("HOME_VAR", "here"), "run", "-n", "1", "-x", "FOO=bar", "-x", "HOME_VAR", "-x", "EMPTY=",
                "--idle", "park", "--stdin", "all", "--jvm-opt", "-Xmx64m", "--output", "o/%r.txt", "--timeout", "9",
                "--grace-period", "100", "--wireup-timeout", "5", "-cp", TEST_CLASSES, SELF);
        assertEquals(Map.of("FOO", "bar", "HOME_VAR", "here", "EMPTY", "", "COHORT_IDLE", "park"), s.environment());
        assertEquals("all", s.stdin().toString());
        assertEquals(List.of("-Xmx64m"), s.jvmOptions());
        assertEquals("o/%r.txt", s.outputPattern());
        assertEquals(9, s.timeoutSeconds());
        assertEquals(100, s.graceMillis());
        assertEquals(5, s.wireupTimeoutSeconds());
        assertNull(null);
    }

    @Test
    void transportChoiceReachesThePeersAndVerboseAsksForTheMatrix() {
        JobSpec s = spec(Map.of(), "run", "-n", "2", "--transport", "SHM", "--verbose", "-cp", TEST_CLASSES, SELF);
        assertEquals(Map.of("COHORT_TRANSPORT", "shm", "COHORT_VERBOSE", "1"), s.environment());
        JobSpec auto = spec(Map.of(), "run", "-n", "2", "-cp", TEST_CLASSES, SELF);
        assertEquals(Map.of(), auto.environment(), "auto is the peers' default and needs no variable");
    }

    @Test
    void checkCollectivesReachesThePeers() {
        JobSpec s = spec(Map.of(), "run", "-n", "2", "--check-collectives", "-cp", TEST_CLASSES, SELF);
        assertEquals(Map.of("COHORT_CHECK_COLLECTIVES", "1"), s.environment());
    }

    @Test
    void profileAloneMeansTheJobsOwnDirectoryAndNeverTakesTheNextWord() {
        JobSpec s = spec(Map.of(), "run", "-n", "2", "--profile", "-cp", TEST_CLASSES, SELF);
        assertEquals(Map.of("COHORT_PROFILE", "cohort-prof-%j", "COHORT_PROFILE_MODE", "summary"), s.environment());
        JobSpec t = spec(Map.of(), "run", "-n", "2", "-cp", TEST_CLASSES, "--profile", SELF, "arg");
        assertEquals(SELF, t.mainClass(), "the main class after --profile is still the main class");
        assertEquals(List.of("arg"), t.programArgs());
        assertEquals("cohort-prof-%j", t.environment().get("COHORT_PROFILE"));
    }

    @Test
    void aSummaryProfileKeepsItsBookkeepingOutOfLineAheadOfTheProgramsOwnJvmOptions() {
        JobSpec s = spec(Map.of(), "run", "-n", "2", "--profile=p", "--jvm-opt=-Xmx1g", "--example", "ring");
        List<String> expected = new java.util.ArrayList<>(io.cohort.profile.ProfileRecording.SUMMARY_JVM_OPTIONS);
        expected.add("-Xmx1g");
        assertEquals(expected, s.jvmOptions());
        assertEquals(List.of("-Xmx1g"), spec(Map.of(), "run", "-n", "2", "--profile=p", "--profile-mode=full",
                "--jvm-opt=-Xmx1g", "--example", "ring").jvmOptions(), "a full recording times every call in line");
        assertEquals(List.of(), spec(Map.of(), "run", "-n", "2", "--example", "ring").jvmOptions());
    }

    @Test
    void profileDirectoryIsGivenAttached() {
        JobSpec s = spec(Map.of(), "run", "-n", "2", "--profile=prof/%j", "--example", "ring");
        assertEquals(Map.of("COHORT_PROFILE", "prof/%j", "COHORT_PROFILE_MODE", "summary"), s.environment());
        JobSpec plain = spec(Map.of(), "run", "-n", "2", "--profile=out", "--example", "ring");
        assertEquals("out", plain.environment().get("COHORT_PROFILE"));
    }

    @Test
    void wordsStartingWithAnAtSignAreNeverReadAsFilesOfArguments(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("args"), "--secret\nvalue one\n");
        JobSpec s = spec(Map.of(), "run", "-n", "1", "-cp", TEST_CLASSES, SELF, "@" + file, "x");
        assertEquals(List.of("@" + file, "x"), s.programArgs(), "the program's arguments, unchanged");
        Path options = Files.writeString(dir.resolve("options"), "-n 2 --example hello\n");
        assertUsageError(execute("run", "@" + options), "--np=N"); // not read as "-n 2 --example hello"
    }

    @Test
    void variablesThatOptionsStandForAreCheckedWhenPassedOnWithX() {
        assertUsageError(execute("run", "-n", "1", "-x", "COHORT_IDLE=bogus", "--example", "pi"),
                "-x COHORT_IDLE=bogus: unknown idle strategy 'bogus'");
        assertUsageError(execute("run", "-n", "1", "-x", "COHORT_TRANSPORT=bogus", "--example", "pi"),
                "-x COHORT_TRANSPORT=bogus: not one of [auto, shm, tcp, udp]");
        assertUsageError(execute("run", "-n", "1", "-x", "COHORT_COLLECTIVES=fast", "--example", "pi"),
                "-x COHORT_COLLECTIVES=fast: ");
        assertUsageError(execute("run", "-n", "1", "-x", "COHORT_FAULT=loss=2", "--example", "pi"), "-x COHORT_FAULT=loss=2: ");
        assertUsageError(execute("run", "-n", "1", "-x", "COHORT_NETWORK=10.0.0.0/99", "--example", "pi"),
                "-x COHORT_NETWORK=10.0.0.0/99: ");
        assertUsageError(execute("run", "-n", "1", "-x", "COHORT_CPU_SHARED=1", "--example", "pi"),
                "-x COHORT_CPU_SHARED: the io-manager sets it");
        assertEquals("udp", spec(Map.of(), "run", "-n", "1", "-x", "COHORT_TRANSPORT=udp", "--example", "pi")
                .environment().get("COHORT_TRANSPORT"));
    }

    @Test
    void sharedMemoryAcrossHostsIsRefusedBeforeAnythingStarts() {
        assertUsageError(execute("run", "-n", "2", "--hosts", "a,b", "--launch-agent", "local", "--transport", "shm",
                "--example", "hello"), "--transport shm needs every peer on one host, but this job's run on 2 (a, b)");
    }

    @Test
    void theWireupTimeoutIsOneSecondToADay() {
        assertEquals(86_400, spec(Map.of(), "run", "-n", "1", "--wireup-timeout", "86400", "--example", "pi")
                .wireupTimeoutSeconds());
        assertUsageError(execute("run", "-n", "1", "--wireup-timeout", "86401", "--example", "pi"),
                "--wireup-timeout must be 1 to 86400 seconds (got 86401)");
        assertUsageError(execute("run", "-n", "1", "--wireup-timeout", "0", "--example", "pi"),
                "--wireup-timeout must be 1 to 86400 seconds (got 0)");
    }

    @Test
    void profileModeIsSummaryOrFullAndNeedsAProfile() {
        JobSpec full = spec(Map.of(), "run", "-n", "2", "--profile=p", "--profile-mode=FULL", "--example", "ring");
        assertEquals("full", full.environment().get("COHORT_PROFILE_MODE"));
        JobSpec summary = spec(Map.of(), "run", "-n", "2", "--profile-mode", "summary", "--profile", "--example", "ring");
        assertEquals("summary", summary.environment().get("COHORT_PROFILE_MODE"));
        assertUsageError(execute("run", "-n", "2", "--profile", "--profile-mode=events", "--example", "pi"), "summary or full");
        assertUsageError(execute("run", "-n", "2", "--profile-mode=full", "--example", "pi"), "give --profile too");
        assertUsageError(execute("run", "-n", "2", "--stacks-on-timeout", "--example", "pi"), "--stacks-on-timeout needs a --timeout");
    }

    @Test
    void profileNamingAFileOrABadPercentIsAUsageError(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("taken"), "x");
        assertUsageError(execute("run", "-n", "2", "--profile=" + file, "--example", "pi"), "is a file");
        assertUsageError(execute("run", "-n", "2", "--profile=p%x", "--example", "pi"), "%j");
        assertUsageError(execute("run", "-n", "2", "--profile=", "--example", "pi"), "needs a directory");
    }

    @Test
    void theLaunchersLastLineSaysWhereTheProfileIs() {
        assertEquals("cohort: profile of 3 peers in cohort-prof-3fa2c1d9; read it with: cohort prof cohort-prof-3fa2c1d9",
                JobRunner.profileLine(3, "cohort-prof-3fa2c1d9"));
        assertEquals("cohort: profile of 1 peer in p; read it with: cohort prof p", JobRunner.profileLine(1, "p"));
    }

    @Test
    void theLastLineCountsOnlyTheRanksWhoseProfileWasWrittenDuringTheJob(@TempDir Path dir) throws IOException {
        JobSpec job = spec(Map.of(), "run", "-n", "4", "--profile=" + dir, "--example", "ring");
        long start = System.currentTimeMillis();
        Files.writeString(dir.resolve("Ring.prof.0.tsv"), "x");
        Files.writeString(dir.resolve("Ring.prof.2.tsv"), "x");
        Path old = Files.writeString(dir.resolve("Ring.prof.3.tsv"), "x"); // left by an earlier run
        Files.setLastModifiedTime(old, java.nio.file.attribute.FileTime.fromMillis(start - 60_000));
        assertEquals("cohort: profile of 2 of 4 peers in p (ranks 1, 3 wrote none); read it with: cohort prof p",
                JobRunner.profileLine(job, dir, "p", start));
        Files.writeString(dir.resolve("Ring.prof.1.tsv"), "x");
        Files.writeString(old, "y");
        assertEquals(JobRunner.profileLine(4, "p"), JobRunner.profileLine(job, dir, "p", start));
        assertEquals("cohort: no profile was written to q (a peer that cannot write there says why when it starts; one killed"
                        + " outright writes none)",
                JobRunner.profileLine(job, dir.resolve("nothing-here"), "q", start));
    }

    @Test
    void aWordBeforeTheProgramIsNamedWithWhatItWasProbablyMeantToBe() {
        assertUsageError(execute("run", "-n", "2", "--profile", "prof3", "--example", "hello"),
                "'prof3' is not an option of cohort run, and no program was given before it: if it names the profile's"
                        + " directory, attach it (--profile=prof3; --profile alone means cohort-prof-<jobid>)");
        assertUsageError(execute("run", "-n", "2", "Env"), "'Env' is not an option of cohort run, and no program was given"
                + " before it: a main class needs -cp CLASSPATH before it (-cp . Env for a class in this directory)");
        assertUsageError(execute("run", "-n", "2", "app.jar"), "run a jar with -jar app.jar");
        assertUsageError(execute("run", "-n", "2"), "no program given; use -jar JAR");
        assertUsageError(execute("run", "-n", "2", "--example", "hello", "extra"), "--example hello takes no arguments; got 'extra'");
        assertUsageError(execute("run", "-n", "2", "--output", "o%q%r", "--example", "hello"),
                "--output 'o%q%r' has a % that is neither %r (the rank), %j (the job id) nor %% (a percent sign)");
        assertUsageError(execute("run", "-n", "2", "-cp", ".", "pkg/Main"), "(did you mean pkg.Main?)");
    }

    @Test
    void unknownTransportIsAUsageError() {
        assertUsageError(execute("run", "-n", "2", "--transport", "ipx", "--example", "pi"), "--transport ipx");
    }

    @Test
    void udpAndFaultsReachThePeers() {
        JobSpec s = spec(Map.of(), "run", "-n", "2", "--transport", "udp", "--fault", " loss=0.05,dup=0.01,seed=7 ",
                "--jvm-opt", "-Dcohort.udp.datagramBytes=1400", "-cp", TEST_CLASSES, SELF);
        assertEquals(Map.of("COHORT_TRANSPORT", "udp", "COHORT_FAULT", "loss=0.05,dup=0.01,seed=7"), s.environment());
    }

    @Test
    void badFaultSpecsAreUsageErrorsNamingTheToken() {
        assertUsageError(execute("run", "-n", "2", "--transport", "udp", "--fault", "loss=2", "--example", "pi"),
                "--fault: fault spec 'loss=2': 'loss=2' needs a probability");
        assertUsageError(execute("run", "-n", "2", "--transport", "udp", "--fault", "drop=0.1", "--example", "pi"),
                "'drop=0.1' names no fault");
    }

    @Test
    void aSerialFilterReachesThePeersAndABadOneIsAUsageError() {
        JobSpec s = spec(Map.of(), "run", "-n", "2", "--serial-filter", "com.example.**;java.base/*;!*;maxdepth=50",
                "-cp", TEST_CLASSES, SELF);
        assertEquals(Map.of("COHORT_SERIAL_FILTER", "com.example.**;java.base/*;!*;maxdepth=50"), s.environment());
        assertUsageError(execute("run", "-n", "2", "--serial-filter", "maxdepth=deep", "--example", "pi"),
                "--serial-filter: serial filter 'maxdepth=deep' is not a jdk.serialFilter pattern (");
        assertUsageError(execute("run", "-n", "2", "-x", "COHORT_SERIAL_FILTER=maxfoo=1", "--example", "pi"),
                "-x COHORT_SERIAL_FILTER=maxfoo=1: serial filter 'maxfoo=1' is not a jdk.serialFilter pattern");
        assertUsageError(execute("run", "-n", "2", "--jvm-opt", "-Dcohort.serialFilter=maxdepth=-1", "--example", "pi"),
                "--jvm-opt -Dcohort.serialFilter=maxdepth=-1: serial filter");
        assertUsageError(execute("run", "-n", "2", "--jvm-opt", "-Djdk.serialFilter=a;;maxbytes=x", "--example", "pi"),
                "--jvm-opt -Djdk.serialFilter=a;;maxbytes=x: serial filter");
    }

    @Test
    void udpSettingsInJvmOptionsAreCheckedBeforeLaunch() {
        assertUsageError(execute("run", "-n", "2", "--transport", "udp", "--jvm-opt", "-Dcohort.udp.windowBytes=12",
                "--example", "pi"), "cohort.udp.windowBytes=12 is not valid");
        assertUsageError(execute("run", "-n", "2", "--transport", "udp", "--jvm-opt", "-Dcohort.udp.windowByte=65536",
                "--example", "pi"), "-Dcohort.udp.windowByte: no such udp setting");
        assertUsageError(execute("run", "-n", "2", "--jvm-opt", "-Dcohort.bcast.medium=nonsense", "--example", "broadcast"),
                "setting cohort.bcast.medium=nonsense names no medium; choose multicast or broadcast");
        assertUsageError(execute("run", "-n", "2", "--jvm-opt", "-Dcohort.bcast.requestNackDelayMicros=abc",
                "--example", "broadcast"), "cohort.bcast.requestNackDelayMicros=abc is not a whole number");
        assertUsageError(execute("run", "-n", "2", "--jvm-opt", "-Dcohort.bcast.nackDelay=5", "--example", "broadcast"),
                "-Dcohort.bcast.nackDelay: no such broadcast-domain setting");
        assertUsageError(execute("run", "-n", "2", "--jvm-opt", "-Dcohort.bcast.group=10.0.0.1:5000", "--example",
                "broadcast"), "is not an IPv4 multicast group");
        assertUsageError(execute("run", "-n", "2", "--transport", "udp", "--jvm-opt", "-Dcohort.fault=loss",
                "--example", "pi"), "'loss' is not key=value");
        assertUsageError(execute("run", "-n", "2", "--jvm-opt", "-Dcohort.collectives.algorithms=allreduce_fast",
                "--example", "pi"), "names 'allreduce_fast', which is not an algorithm");
        assertUsageError(execute("run", "-n", "2", "--jvm-opt",
                "-Dcohort.collectives.algorithms=allreduce_ring,allreduce_reduce_bcast", "--example", "pi"),
                "not an algorithm");
        assertUsageError(execute("run", "-n", "2", "--jvm-opt",
                "-Dcohort.collectives.algorithms=allreduce-rabenseifner,ALLREDUCE_REDUCE_BCAST", "--example", "pi"),
                "names two algorithms for allreduce; name one");
    }

    @Test
    void zeroPeersIsAUsageError() {
        assertUsageError(execute("run", "-n", "0", "--example", "pi"), "-n must be 1 or more (got 0)");
        assertUsageError(execute("run", "-n", "100000", "--example", "pi"), "-n 100000 is more than a job may have (65536 peers)");
    }

    @Test
    void missingNpIsAUsageError() {
        assertUsageError(execute("run", "--example", "pi"), "Missing required option");
    }

    @Test
    void unknownOptionIsAUsageError() {
        assertUsageError(execute("run", "-n", "2", "--bogus", "--example", "pi"), "Unknown option: '--bogus'");
    }

    @Test
    void conflictingProgramFormsAreAUsageError() {
        assertUsageError(execute("run", "-n", "2", "-cp", TEST_CLASSES, "--example", "pi"), "give only one of");
    }

    @Test
    void noProgramIsAUsageError() {
        assertUsageError(execute("run", "-n", "2"), "no program given");
    }

    @Test
    void unknownExampleIsAUsageError() {
        assertUsageError(execute("run", "-n", "2", "--example", "nope"), "unknown example 'nope'");
    }

    @Test
    void badIdleStrategyIsAUsageError() {
        assertUsageError(execute("run", "-n", "2", "--idle", "snooze", "--example", "pi"), "unknown idle strategy 'snooze'");
    }

    @Test
    void collectivesModeReachesThePeersAndABadOneIsAUsageError() {
        JobSpec s = spec(Map.of(), "run", "-n", "2", "--collectives", "BCAST", "-cp", TEST_CLASSES, SELF);
        assertEquals(Map.of("COHORT_COLLECTIVES", "bcast"), s.environment());
        assertUsageError(execute("run", "-n", "2", "--collectives", "tree", "--example", "pi"),
                "--collectives tree is not one of [auto, p2p, bcast]");
    }

    @Test
    void stdinRankOutsideTheJobIsAUsageError() {
        assertUsageError(execute("run", "-n", "2", "--stdin", "2", "--example", "pi"), "--stdin 2");
    }

    @Test
    void debugTakesAllRanksOrAListAndLeavesTheProgramAlone() {
        JobSpec all = spec(Map.of(), "run", "-n", "3", "--debug", "-cp", TEST_CLASSES, SELF, "x");
        assertEquals(List.of(0, 1, 2), List.copyOf(all.debug().ranks()));
        assertTrue(all.debug().tmux());
        JobSpec some = spec(Map.of(), "run", "-n", "4", "--debug=0,2-3", "--no-tmux", "-cp", TEST_CLASSES, SELF);
        assertEquals(List.of(0, 2, 3), List.copyOf(some.debug().ranks()));
        assertFalse(some.debug().tmux());
        // The main class after a bare --debug is the program's, not a rank list.
        JobSpec bare = spec(Map.of(), "run", "-n", "2", "-cp", TEST_CLASSES, "--debug", SELF, "7");
        assertEquals(SELF, bare.mainClass());
        assertEquals(List.of("7"), bare.programArgs());
        assertEquals(List.of(0, 1), List.copyOf(bare.debug().ranks()));
        assertNull(spec(Map.of(), "run", "-n", "2", "-cp", TEST_CLASSES, SELF).debug());
    }

    @Test
    void debugRankOutsideTheJobIsAUsageError() {
        assertUsageError(execute("run", "-n", "2", "--debug=1-2", "--example", "pi"),
                "--debug=1-2 names rank 2, outside a job of 2 peers (ranks 0-1)");
        assertUsageError(execute("run", "-n", "2", "--debug=1,x", "--example", "pi"), "is not 'all' or a list of ranks");
        // A value after '=' is the option's, whatever it looks like: an error, not the program.
        assertUsageError(execute("run", "-n", "2", "--debug=abc", "--example", "pi"), "is not 'all' or a list of ranks");
        assertUsageError(execute("run", "-n", "2", "--debug=-1", "--example", "pi"), "is not 'all' or a list of ranks");
        assertUsageError(execute("run", "-n", "2", "--no-tmux", "--example", "pi"), "--no-tmux only applies with --debug");
    }

    @Test
    void coreDirFromTheOptionOrTheEnvironmentIsAbsolute(@TempDir Path dir) {
        JobSpec none = spec(Map.of(), "run", "-n", "2", "-cp", TEST_CLASSES, SELF);
        assertNull(none.crashRoot());
        JobSpec byEnv = spec(Map.of("COHORT_CORE_DIR", dir.toString()), "run", "-n", "2", "-cp", TEST_CLASSES, SELF);
        assertEquals(dir, byEnv.crashRoot());
        JobSpec byOption = spec(Map.of("COHORT_CORE_DIR", "/elsewhere"), "run", "-n", "2", "--core-dir", "crash",
                "-cp", TEST_CLASSES, SELF);
        assertEquals(Path.of("").toAbsolutePath().resolve("crash"), byOption.crashRoot());
        assertUsageError(execute("run", "-n", "2", "--core-dir", "/tmp/a%pb", "--example", "pi"), "may not contain '%'");
    }

    @Test
    void badNumberIsAUsageError() {
        assertUsageError(execute("run", "-n", "two", "--example", "pi"), "'two'");
    }

    @Test
    void unsetForwardedVariableIsAUsageError() {
        assertUsageError(execute("run", "-n", "1", "-x", "COHORT_TEST_SURELY_UNSET_VAR", "--example", "pi"),
                "is not set here");
    }

    @Test
    void missingClassIsProgramNotFound() {
        Result r = execute("run", "-n", "2", "-cp", TEST_CLASSES, "com.example.Missing");
        assertEquals(3, r.code());
        assertOneLine(r.err(), "class com.example.Missing was not found");
    }

    @Test
    void missingJarIsProgramNotFound() {
        Result r = execute("run", "-n", "2", "-jar", "no/such/app.jar");
        assertEquals(3, r.code());
        assertOneLine(r.err(), "jar file no/such/app.jar does not exist");
    }

    @Test
    void jarWithoutMainClassIsProgramNotFound(@TempDir Path dir) throws IOException {
        Path jar = dir.resolve("lib.jar");
        try (JarOutputStream j = new JarOutputStream(Files.newOutputStream(jar))) {
            j.flush();
        }
        Result r = execute("run", "-n", "2", "-jar", jar.toString());
        assertEquals(3, r.code());
        assertOneLine(r.err(), "has no Main-Class");
    }

    @Test
    void noSubcommandIsAUsageError() {
        assertUsageError(execute(), "a subcommand is needed");
    }

    @Test
    void examplesListsNamesAndDescriptions() {
        Result r = execute("examples");
        assertEquals(0, r.code());
        assertTrue(r.out().contains("pi "), r.out());
        assertTrue(r.out().contains("passes a token around the ring"), r.out());
    }

    @Test
    void versionAndHelp() {
        Result v = execute("--version");
        assertEquals(0, v.code());
        assertTrue(v.out().startsWith("cohort 0."), v.out());
        Result h = execute("help", "run");
        assertEquals(0, h.code());
        assertTrue(h.out().contains("--tag-output"), h.out());
    }

    @Test
    void exampleCatalogLineFormat() {
        ExampleCatalog.Example e = ExampleCatalog.parse(" pi = a.b.Pi | computes pi [n]");
        assertEquals(new ExampleCatalog.Example("pi", "a.b.Pi", "computes pi [n]"), e);
        assertNull(ExampleCatalog.parse("# comment"));
        assertNull(ExampleCatalog.parse("   "));
    }
}
