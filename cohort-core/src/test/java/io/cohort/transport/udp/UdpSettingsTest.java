package io.cohort.transport.udp;

import io.cohort.CohortException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Settings: defaults, one sentence with the bad value, the per-pair datagram size and window. */
@Timeout(10)
class UdpSettingsTest {
    @Test
    void defaults() {
        UdpSettings s = UdpSettings.defaults();
        assertEquals(0, s.datagramBytes(), "auto");
        assertEquals(1 << 20, s.windowBytes());
        assertEquals(1_000_000, s.rtoMinNanos());
        assertEquals(1_000_000_000L, s.rtoMaxNanos());
        assertEquals(30_000_000_000L, s.inactivityTimeoutNanos());
        assertEquals(1_000_000_000L, s.keepaliveNanos());
        assertEquals(64L << 20, s.overflowLimitBytes());
        assertEquals(4096, s.windowFrames(8 << 20));
        assertEquals(208, s.windowFrames(416 << 10), "a default Linux buffer holds fewer small datagrams");
        assertEquals(256 << 10, s.windowBytesFor(1 << 20), "a quarter of the receive buffer");
        assertEquals(1 << 20, s.windowBytesFor(-1));
    }

    @Test
    void badValuesAreOneSentenceNamingPropertyAndValue() {
        String[][] bad = {
            {UdpSettings.DATAGRAM_BYTES_PROP_NAME, "100"}, {UdpSettings.DATAGRAM_BYTES_PROP_NAME, "big"},
            {UdpSettings.WINDOW_BYTES_PROP_NAME, "12"}, {UdpSettings.SOCKET_BUFFER_BYTES_PROP_NAME, "-1"},
            {UdpSettings.RTO_MIN_MICROS_PROP_NAME, "x"}, {UdpSettings.ACK_DELAY_MICROS_PROP_NAME, "2000000"},
            {UdpSettings.INACTIVITY_TIMEOUT_MILLIS_PROP_NAME, "5"}, {UdpSettings.POLLS_BEFORE_BLOCK_PROP_NAME, "1.5"},
        };
        for (String[] b : bad) {
            CohortException e = assertThrows(CohortException.class, () -> UdpSettings.defaults().with(b[0], b[1]));
            assertTrue(e.getMessage().startsWith(b[0] + "=" + b[1] + " is not valid; give "), e.getMessage());
        }
        CohortException e = assertThrows(CohortException.class, () -> UdpSettings.from(Map.of(
                UdpSettings.RTO_MIN_MICROS_PROP_NAME, "50000", UdpSettings.RTO_MAX_MILLIS_PROP_NAME, "10")::get));
        assertTrue(e.getMessage().contains("must not be below its floor"), e.getMessage());
        e = assertThrows(CohortException.class, () -> UdpSettings.defaults()
                .with(UdpSettings.INACTIVITY_TIMEOUT_MILLIS_PROP_NAME, "2000"));
        assertTrue(e.getMessage().contains("at least 4 times " + UdpSettings.RTO_MAX_MILLIS_PROP_NAME), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> UdpSettings.defaults().with("cohort.udp.nope", "1"));
        assertEquals(1400, UdpSettings.defaults().with(UdpSettings.DATAGRAM_BYTES_PROP_NAME, " 1400 ").datagramBytes());
    }

    @Test
    void endpointsCarryTheMtuAndThePairUsesTheSmallerOne() {
        UdpEndpoint lo = new UdpEndpoint(new InetSocketAddress("127.0.0.1", 4000), 65536);
        UdpEndpoint eth = new UdpEndpoint(new InetSocketAddress("10.0.0.7", 41233), 1500);
        assertEquals("10.0.0.7:41233/1500", eth.format());
        UdpEndpoint parsed = UdpEndpoint.parse(eth.format());
        assertEquals(eth.address(), parsed.address());
        assertEquals(1500, parsed.mtu());
        assertEquals(65_507, UdpEndpoint.datagramBytes(0, lo, lo), "loopback: the largest UDP payload");
        assertEquals(1472, UdpEndpoint.datagramBytes(0, lo, eth), "Ethernet: 1500 - 20 - 8");
        assertEquals(1400, UdpEndpoint.datagramBytes(1400, lo, eth), "a configured size wins");
        UdpEndpoint v6 = UdpEndpoint.parse("[::1]:5000/1500");
        assertEquals(1452, UdpEndpoint.datagramBytes(0, v6, v6), "IPv6: 1500 - 40 - 8");
        assertEquals(UdpSettings.DATAGRAM_BYTES_MIN,
                UdpEndpoint.datagramBytes(0, lo, new UdpEndpoint(eth.address(), 300)), "never below the minimum");
        for (String s : new String[] {"10.0.0.7:41233", "10.0.0.7/1500", "host:x/1500", ":0/1500", "10.0.0.7:1/20"}) {
            CohortException e = assertThrows(CohortException.class, () -> UdpEndpoint.parse(s));
            assertTrue(e.getMessage().contains("'" + s + "'"), e.getMessage());
        }
        assertTrue(UdpEndpoint.interfaceMtu(java.net.InetAddress.getLoopbackAddress()) >= 1500);
    }
}
