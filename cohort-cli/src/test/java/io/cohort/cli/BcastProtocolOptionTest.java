package io.cohort.cli;

import io.cohort.launch.JobSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * {@code --bcast-protocol} and the {@code cohort.eqa.*} settings, in-process: the protocol reaches
 * the peers as {@code COHORT_BCAST_PROTOCOL}; a bad protocol, and every bad {@code cohort.eqa.*}
 * value, is refused with exit code 2 before anything starts, one line per bad value.
 */
@Timeout(10)
class BcastProtocolOptionTest {
    private static final String TEST_CLASSES = Path.of("target/test-classes").toAbsolutePath().toString();
    private static final String SELF = BcastProtocolOptionTest.class.getName();

    /** The program the specs here name: the launcher refuses a main class without main. */
    public static void main(String[] args) {
        // Never run: the tests only build job specs.
    }

    private record Result(int code, String err) {
    }

    private static Result execute(String... args) {
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(new StringWriter()), new PrintWriter(err));
        return new Result(code, err.toString());
    }

    private static JobSpec spec(String... args) {
        CommandLine cl = Main.commandLine(new PrintWriter(OutputStream.nullOutputStream()),
                new PrintWriter(OutputStream.nullOutputStream()));
        CommandLine.ParseResult pr = cl.parseArgs(args);
        RunCommand run = (RunCommand) pr.subcommand().commandSpec().userObject();
        return run.jobSpec(Map.of(), Path.of("").toAbsolutePath());
    }

    private static List<String> lines(Result r) {
        return List.of(r.err().strip().split("\n"));
    }

    @Test
    void theProtocolReachesThePeersInLowerCase() {
        assertEquals(Map.of("COHORT_BCAST_PROTOCOL", "eqa"),
                spec("run", "-n", "2", "--bcast-protocol", "EQA", "-cp", TEST_CLASSES, SELF).environment());
        assertEquals(Map.of("COHORT_BCAST_PROTOCOL", "pcode"),
                spec("run", "-n", "2", "--bcast-protocol", "pcode", "-cp", TEST_CLASSES, SELF).environment());
        assertEquals(Map.of(), spec("run", "-n", "2", "-cp", TEST_CLASSES, SELF).environment());
    }

    @Test
    void aProtocolThatIsNoneIsOneLineAndExitTwo() {
        Result r = execute("run", "-n", "2", "--bcast-protocol", "tree", "--example", "pi");
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of("cohort: --bcast-protocol: 'tree' names no broadcast protocol; choose one of [pcode, eqa]"),
                lines(r));
        Result x = execute("run", "-n", "2", "-x", "COHORT_BCAST_PROTOCOL=tree", "--example", "pi");
        assertEquals(2, x.code(), x.err());
        assertEquals(List.of("cohort: -x COHORT_BCAST_PROTOCOL=tree: 'tree' names no broadcast protocol; choose one of "
                + "[pcode, eqa]"), lines(x));
        Result d = execute("run", "-n", "2", "--jvm-opt", "-Dcohort.bcast.protocol=tree", "--example", "pi");
        assertEquals(2, d.code(), d.err());
        assertEquals(List.of("cohort: --jvm-opt -Dcohort.bcast.protocol: 'tree' names no broadcast protocol; choose one "
                + "of [pcode, eqa]"),
                lines(d));
    }

    @Test
    void everyBadEqaSettingIsALineOfItsOwnAndExitTwo() {
        Result r = execute("run", "-n", "2", "--bcast-protocol", "eqa", "--jvm-opt", "-Dcohort.eqa.mode=BOGUS",
                "--jvm-opt", "-Dcohort.eqa.window=0", "--jvm-opt", "-Dcohort.eqa.bufferDesign=both",
                "--jvm-opt", "-Dcohort.eqa.btp1=lots", "--jvm-opt", "-Dcohort.eqa.windw=8", "--example", "pi");
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of(
                "cohort: --jvm-opt: cohort.eqa.windw: no such EQA setting; the settings are [cohort.eqa.window, "
                        + "cohort.eqa.btp1, cohort.eqa.btp2, cohort.eqa.packetPayloadBytes, cohort.eqa.ackEvery, "
                        + "cohort.eqa.retransmitTimeoutMicros, cohort.eqa.gapHoldMicros, cohort.eqa.maxMessageBytes, "
                        + "cohort.eqa.mode, cohort.eqa.bufferDesign].",
                "cohort: --jvm-opt: cohort.eqa.btp1 = \"lots\" is not a whole number; give digits only.",
                "cohort: --jvm-opt: cohort.eqa.mode = \"BOGUS\" is not one of [SIMPLE, PUSH_PULL, AUTO].",
                "cohort: --jvm-opt: cohort.eqa.bufferDesign = \"both\" is not one of [SHARED, PER_CHANNEL].",
                "cohort: --jvm-opt: cohort.eqa.window = 0 is out of range; use 1 to 65536 packets."), lines(r));
        assertFalse(r.err().contains("\tat "), r.err());
    }

    @Test
    void goodEqaSettingsPass() {
        JobSpec s = spec("run", "-n", "2", "--bcast-protocol", "eqa", "--jvm-opt", "-Dcohort.eqa.mode=push_pull",
                "--jvm-opt", "-Dcohort.eqa.bufferDesign=per-channel", "--jvm-opt", "-Dcohort.eqa.window=32",
                "-cp", TEST_CLASSES, SELF);
        assertEquals("eqa", s.environment().get("COHORT_BCAST_PROTOCOL"));
    }
}
