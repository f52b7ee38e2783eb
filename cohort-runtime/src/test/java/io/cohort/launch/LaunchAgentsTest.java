package io.cohort.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(5)
class LaunchAgentsTest {
    private static final List<String> IOM = List.of("java", "-cp", "/opt/my dir/x.jar", "Main", "it's");

    @Test
    void namedAgentsPrefixTheCommandUnderSetsid() {
        assertEquals(List.of("setsid", "java", "-cp", "/opt/my dir/x.jar", "Main", "it's"),
                LaunchAgents.parse("local").command("h1", IOM));
        assertEquals(List.of("setsid", "ip", "netns", "exec", "h1", "java", "-cp", "/opt/my dir/x.jar", "Main", "it's"),
                LaunchAgents.parse("netns").command("h1", IOM));
    }

    @Test
    void sshStartsAHostThatNamesThisMachineHereAsMpirunDoes() {
        for (String here : List.of("localhost", "LOCALHOST", "localhost.localdomain", "127.0.0.1", "127.0.1.1", "::1",
                HostName.local())) {
            assertEquals("setsid", LaunchAgents.parse("ssh").command(here, IOM).get(0), here);
            assertEquals(IOM, LaunchAgents.parse("ssh").command(here, IOM).subList(1, 1 + IOM.size()), here);
        }
        assertFalse(SshLaunchAgent.isThisMachine("192.0.2.7", "node7"), "a documentation address, on no interface here");
    }

    @Test
    void sshQuotesEachWordForTheRemoteShell() {
        assertEquals(List.of("setsid", "ssh", "-o", "BatchMode=yes", "-T", "h1", "--",
                        "'java'", "'-cp'", "'/opt/my dir/x.jar'", "'Main'", "'it'\\''s'"),
                LaunchAgents.parse("ssh").command("h1", IOM));
    }

    @Test
    void templatesPutTheHostWherePercentHOrBraceHostStands() {
        assertEquals(List.of("setsid", "ssh", "-p", "2222", "user@h1.example", "java"),
                LaunchAgents.parse("ssh -p 2222 user@%h.example").command("h1", List.of("java")));
        assertEquals(List.of("setsid", "ip", "netns", "exec", "h2", "java"),
                LaunchAgents.parse(" ip netns  exec {host} ").command("h2", List.of("java")));
        assertEquals(List.of("setsid", "run", "100%", "h3", "java"),
                LaunchAgents.parse("run 100%% %h").command("h3", List.of("java")));
    }

    @Test
    void aTemplateThatNeverNamesTheHostIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LaunchAgents.parse("rsh"));
        assertTrue(e.getMessage().contains("must contain %h"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LaunchAgents.parse("echo %%h"));
        assertThrows(IllegalArgumentException.class, () -> LaunchAgents.parse("  "));
    }

    @Test
    void theLocalAgentKeepsTheRendezvousOnLoopback() throws Exception {
        assertInstanceOf(LocalLaunchAgent.class, LaunchAgents.parse("local"));
        Rendezvous r = Rendezvous.choose(new HostPlan(Placement.parse("a,b", 2), new LocalLaunchAgent(), null));
        assertTrue(r.bind().getAddress().isLoopbackAddress());
        assertEquals(InetAddress.getLoopbackAddress(), r.advertised().get("b"));
    }

    @Test
    void aGivenControllerAddressIsUsedForEveryHost() throws Exception {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        Rendezvous r = Rendezvous.choose(new HostPlan(Placement.parse("a,b", 2), new SshLaunchAgent(), lo));
        assertEquals(lo, r.bind().getAddress());
        assertEquals("127.0.0.1:7", r.addressFor("b", 7));
    }

    @Test
    void aMissingNamespaceIsALaunchFailureNamingIt() {
        LaunchException e = assertThrows(LaunchException.class, () -> Rendezvous.choose(
                new HostPlan(Placement.parse("no-such-namespace-x1", 1), new NetnsLaunchAgent(), null)));
        assertTrue(e.getMessage().contains("no network namespace named no-such-namespace-x1"), e.getMessage());
    }
}
