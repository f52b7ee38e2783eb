package io.cohort.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The io-manager's guard that ends a debugged peer when its JDWP agent listens a second time. */
@Timeout(5)
class DebugPortGuardTest {
    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theAgentListeningAgainEndsThePeerAndSaysWhy() {
        AtomicInteger kills = new AtomicInteger();
        List<String> said = new ArrayList<>();
        DebugPortGuard guard = DebugPortGuard.of(1, List.of("java", JdwpAgentLine.option("127.0.0.1"), "-cp", "x", "Main"),
                kills::incrementAndGet, b -> said.add(new String(b, StandardCharsets.UTF_8)));
        guard.stdoutLine(bytes("Listening for transport dt_socket at address: 40963")); // waits for its first debugger
        guard.stdoutLine(bytes("hello from rank 1"));
        assertEquals(0, kills.get());
        assertTrue(said.isEmpty());
        guard.stdoutLine(bytes("partial Listening for transport dt_socket at address: 35701")); // the debugger detached
        assertEquals(1, kills.get());
        assertEquals(1, said.size());
        assertTrue(said.get(0).startsWith("cohort: rank 1: its debugger detached, so the peer was ended"), said.get(0));
    }

    @Test
    void onlyThePeersTheLauncherDebugsAreGuarded() {
        assertNull(DebugPortGuard.of(0, List.of("java", "-cp", "x", "Main"), () -> { }, b -> { }));
        // An agent the user asked for with --jvm-opt is the user's own.
        assertNull(DebugPortGuard.of(0, List.of("java", "-agentlib:jdwp=transport=dt_socket,server=y,address=5005", "Main"),
                () -> { }, b -> { }));
    }
}
