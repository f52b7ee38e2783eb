package io.cohort.wireup;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(5)
class NetworkPrefixTest {
    private static InetAddress ip(String s) throws Exception {
        return InetAddress.getByName(s);
    }

    @Test
    void containsAddressesByPrefixLength() throws Exception {
        NetworkPrefix p = NetworkPrefix.parse("10.1.0.0/23");
        assertTrue(p.contains(ip("10.1.0.7")));
        assertTrue(p.contains(ip("10.1.1.255")));
        assertFalse(p.contains(ip("10.1.2.0")));
        assertFalse(p.contains(ip("::1")), "other families never match");
        assertTrue(NetworkPrefix.parse("0.0.0.0/0").contains(ip("192.0.2.1")));
        assertTrue(NetworkPrefix.parse("fd00::/8").contains(ip("fd12::5")));
    }

    @Test
    void loopbackFindsTheLocalLoopbackAddress() {
        assertEquals("127.0.0.1", NetworkPrefix.parse("127.0.0.0/8").localAddress().orElseThrow().getHostAddress());
        assertTrue(NetworkPrefix.parse("240.0.0.0/8").localAddress().isEmpty(), "the reserved class E is never configured");
    }

    @Test
    void malformedPrefixesGetOneSentence() {
        assertEquals("'10.1.0.0' is not a network; write it as ADDRESS/BITS, like 10.1.0.0/24",
                assertThrows(IllegalArgumentException.class, () -> NetworkPrefix.parse("10.1.0.0")).getMessage());
        assertEquals("'10.1.0.1/24' is not a network: its address has host bits set",
                assertThrows(IllegalArgumentException.class, () -> NetworkPrefix.parse("10.1.0.1/24")).getMessage());
        assertEquals("'10.1.0.0/33' is not a network: the prefix length must be from 0 to 32",
                assertThrows(IllegalArgumentException.class, () -> NetworkPrefix.parse("10.1.0.0/33")).getMessage());
        assertEquals("'example.org/24' is not a network: 'example.org' is not an IP address",
                assertThrows(IllegalArgumentException.class, () -> NetworkPrefix.parse("example.org/24")).getMessage());
    }
}
