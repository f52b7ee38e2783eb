package io.cohort.cli;

import io.cohort.launch.HostPlan;
import io.cohort.launch.LocalLaunchAgent;
import io.cohort.launch.NetnsLaunchAgent;
import io.cohort.launch.SshLaunchAgent;
import io.cohort.launch.TemplateLaunchAgent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** --hosts, --launch-agent and --controller-address on the command line, in-process. */
@Timeout(10)
class RunCommandHostsTest {
    private static HostPlan plan(String... args) {
        CommandLine cl = Main.commandLine(new PrintWriter(OutputStream.nullOutputStream()),
                new PrintWriter(OutputStream.nullOutputStream()));
        CommandLine.ParseResult pr = cl.parseArgs(args);
        return ((RunCommand) pr.subcommand().commandSpec().userObject()).hostPlan();
    }

    private static void assertUsageError(String fragment, String... args) {
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(new StringWriter()), new PrintWriter(err));
        assertEquals(2, code, err.toString());
        String[] lines = err.toString().strip().split("\n");
        assertEquals(1, lines.length, err.toString());
        assertTrue(lines[0].startsWith("cohort: ") && lines[0].contains(fragment), err.toString());
        assertFalse(err.toString().contains("\tat "), err.toString());
    }

    @Test
    void withoutHostsEveryPeerRunsHereStartedLocally() {
        HostPlan p = plan("run", "-n", "3", "--example", "pi");
        assertEquals(1, p.placement().hosts().size());
        assertInstanceOf(LocalLaunchAgent.class, p.agent());
        assertNull(p.controllerAddress());
    }

    @Test
    void hostsArePlacedInBlocksAndSshIsTheDefaultAgent() {
        HostPlan p = plan("run", "-n", "4", "--hosts", "h1,h2:3", "--example", "pi");
        assertArrayEquals(new String[] {"h1", "h2", "h2", "h2"}, p.placement().hostPerRank());
        assertInstanceOf(SshLaunchAgent.class, p.agent());
    }

    @Test
    void launchAgentNamesAndTemplates() {
        assertInstanceOf(NetnsLaunchAgent.class, plan("run", "-n", "2", "--hosts", "a,b", "--launch-agent", "netns",
                "--example", "pi").agent());
        assertInstanceOf(LocalLaunchAgent.class, plan("run", "-n", "2", "--hosts", "a,b", "--launch-agent", "local",
                "--example", "pi").agent());
        HostPlan t = plan("run", "-n", "2", "--hosts", "a,b", "--launch-agent", "srun -w %h", "--example", "pi");
        assertInstanceOf(TemplateLaunchAgent.class, t.agent());
        assertEquals(List.of("setsid", "srun", "-w", "b", "x"), t.agent().command("b", List.of("x")));
    }

    @Test
    void controllerAddressMustBeOurs() {
        HostPlan p = plan("run", "-n", "2", "--hosts", "a,b", "--controller-address", "127.0.0.1", "--example", "pi");
        assertEquals("127.0.0.1", p.controllerAddress().getHostAddress());
        assertUsageError("--controller-address 0.0.0.0 is not an address of this machine",
                "run", "-n", "2", "--hosts", "a", "--controller-address", "0.0.0.0", "--example", "pi");
        assertUsageError("--controller-address 192.0.2.1 is not an address of this machine",
                "run", "-n", "2", "--hosts", "a", "--controller-address", "192.0.2.1", "--example", "pi");
    }

    @Test
    void badHostListsAndAgentsAreUsageErrors() {
        assertUsageError("offers 2 slots for 4 peers", "run", "-n", "4", "--hosts", "a:1,b:1", "--example", "pi");
        assertUsageError("names a twice", "run", "-n", "2", "--hosts", "a,a", "--example", "pi");
        assertUsageError("must contain %h", "run", "-n", "2", "--hosts", "a", "--launch-agent", "rsh", "--example", "pi");
        assertUsageError("--launch-agent netns needs --hosts", "run", "-n", "2", "--launch-agent", "netns",
                "--example", "pi");
        // A misspelt agent is named as such, not as one missing its hosts.
        assertUsageError("must contain %h", "run", "-n", "2", "--launch-agent", "nope", "--example", "pi");
    }

    @Test
    void hostfilesPlaceLikeHostsAndBadOnesCostOneLine(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("hosts"), "# lab\nh1 slots=1\nh2:3\n");
        HostPlan p = plan("run", "-n", "4", "--hostfile", file.toString(), "--launch-agent", "netns", "--example", "pi");
        assertArrayEquals(new String[] {"h1", "h2", "h2", "h2"}, p.placement().hostPerRank());
        assertInstanceOf(NetnsLaunchAgent.class, p.agent());
        assertUsageError("give only one of --hosts and --hostfile",
                "run", "-n", "2", "--hosts", "a", "--hostfile", file.toString(), "--example", "pi");
        assertUsageError("--hostfile " + dir.resolve("none") + " does not exist",
                "run", "-n", "2", "--hostfile", dir.resolve("none").toString(), "--example", "pi");
        assertUsageError("--hostfile /dev/zero is not a regular file (a device, FIFO or socket); give a text file of host names",
                "run", "-n", "2", "--hostfile", "/dev/zero", "--example", "pi");
        assertUsageError("--hostfile " + dir + " is a directory",
                "run", "-n", "2", "--hostfile", dir.toString(), "--example", "pi");
        java.nio.file.Path latin1 = java.nio.file.Files.write(dir.resolve("latin1"), new byte[] {'h', (byte) 0xe9, '\n'});
        assertUsageError("--hostfile " + latin1 + " is not UTF-8 text",
                "run", "-n", "2", "--hostfile", latin1.toString(), "--example", "pi");
        java.nio.file.Path bad = java.nio.file.Files.writeString(dir.resolve("bad"), "h1\nh2 cpus=3\n");
        assertUsageError(bad + ":2: 'cpus=3' is not understood",
                "run", "-n", "2", "--hostfile", bad.toString(), "--example", "pi");
    }

    @Test
    void partitionOptionsConflictWithHandPlacementAndNeedAPartition() {
        assertUsageError("--partition and --cluster-db place the peers by load; give them or --hosts/--hostfile, not both",
                "run", "-n", "2", "--partition", "p", "--hosts", "a,b", "--example", "pi");
        assertUsageError("--mode, --nice, --policy and --rt-priority apply to jobs in a partition; add --partition P",
                "run", "-n", "2", "--mode", "virtual", "--example", "pi");
        assertUsageError("--mode, --nice, --policy and --rt-priority apply to jobs in a partition; add --partition P",
                "run", "-n", "2", "--hosts", "a", "--nice", "3", "--example", "pi");
    }

    @Test
    void aPartitionFromTheEnvironmentReadsTheClusterDatabaseAndHandPlacementWinsOverIt(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        StringWriter err = new StringWriter();
        java.util.Map<String, String> env = java.util.Map.of("COHORT_PARTITION", "fast",
                "COHORT_CLUSTER_DB", dir.resolve("missing.db").toString());
        int code = Main.execute(new String[] {"run", "-n", "2", "--example", "pi"}, new PrintWriter(new StringWriter()),
                new PrintWriter(err), env);
        assertEquals(5, code, err.toString());
        assertTrue(err.toString().startsWith("cohort: ") && err.toString().contains("missing.db"), err.toString());
        CommandLine cl = Main.commandLine(new PrintWriter(OutputStream.nullOutputStream()),
                new PrintWriter(OutputStream.nullOutputStream()), env);
        RunCommand run = (RunCommand) cl.parseArgs("run", "-n", "2", "--hosts", "a,b", "--example", "pi").subcommand()
                .commandSpec().userObject();
        assertFalse(run.partitionWanted(), "--hosts on the command line wins over COHORT_PARTITION");
    }
}
