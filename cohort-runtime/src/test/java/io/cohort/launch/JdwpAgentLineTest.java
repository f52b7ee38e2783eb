package io.cohort.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The JDWP agent's "Listening for transport" line, as the controller filters it and the io-manager watches for it. */
@Timeout(5)
class JdwpAgentLineTest {
    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void agentLinesAreFoundWithAnyAddressAndAfterAProgramsUnfinishedLine() {
        assertEquals(40963, JdwpAgentLine.parse(bytes("Listening for transport dt_socket at address: 40963")).port());
        assertEquals(5005, JdwpAgentLine.parse(bytes("Listening for transport dt_socket at address: 10.0.0.7:5005\r")).port());
        JdwpAgentLine.Listening v6 = JdwpAgentLine.parse(bytes("Listening for transport dt_socket at address: [fe80::1%eth0]:41000"));
        assertEquals(41000, v6.port());
        assertEquals(0, v6.before().length);
        // The program printed "step 3 of 9 ... " without a newline when its debugger detached.
        JdwpAgentLine.Listening after = JdwpAgentLine.parse(bytes("step 3 of 9 ... Listening for transport dt_socket at address: 35701"));
        assertArrayEquals(bytes("step 3 of 9 ... "), after.before());
        byte[] longLine = bytes("x".repeat(100_000) + "Listening for transport dt_socket at address: 35701");
        assertEquals(100_000, JdwpAgentLine.parse(longLine).before().length);
        assertNull(JdwpAgentLine.parse(bytes("hello from rank 1")));
        assertNull(JdwpAgentLine.parse(bytes("Listening for transport dt_socket at address: 70000")));
        assertNull(JdwpAgentLine.parse(bytes("Listening for transport dt_socket at address: 5005 and more")));
    }
}
