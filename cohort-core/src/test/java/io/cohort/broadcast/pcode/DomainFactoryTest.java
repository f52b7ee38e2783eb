package io.cohort.broadcast.pcode;

import io.cohort.DomainCounters;
import io.cohort.auth.JobSecret;

import io.cohort.CohortException;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.time.Duration;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Opening a job's domain over loopback multicast: the datagram size comes from the interface's MTU
 * (or the setting) and the peers agree on the smallest offer; a bad address or offer is one sentence.
 */
@Isolated // sets a system property other tests' peers read: runs with no other class beside it
@Timeout(60)
class DomainFactoryTest {
    private static DomainFactory.Binding[] bind(int n) {
        DomainFactory.Binding[] b = new DomainFactory.Binding[n];
        JobSecret secret = JobSecret.generate();
        for (int r = 0; r < n; r++) {
            b[r] = new DomainFactory(r, n, secret, InetAddress.getLoopbackAddress(), null, false).bind();
        }
        return b;
    }

    private static String[] addresses(DomainFactory.Binding[] b) {
        return Arrays.stream(b).map(DomainFactory.Binding::address).toArray(String[]::new);
    }

    private static int offer(String address) {
        return Integer.parseInt(address.substring(address.lastIndexOf('/') + 1));
    }

    @Test
    void mtuSetsTheOfferWithinPlainEthernetAndAJumboFrame() {
        assertEquals(1472, PcodeContext.datagramBytesForMtu(1500));
        assertEquals(8972, PcodeContext.datagramBytesForMtu(9000));
        assertEquals(PcodeContext.DATAGRAM_BYTES_MAX_FROM_MTU, PcodeContext.datagramBytesForMtu(65536), "loopback");
        assertEquals(PcodeContext.DATAGRAM_BYTES_DEFAULT, PcodeContext.datagramBytesForMtu(-1), "MTU unknown");
        assertEquals(256, PcodeContext.datagramBytesForMtu(200));
    }

    @Test
    void peersAgreeOnTheSmallestOfferAndALongMessageStillArrivesWhole() {
        DomainFactory.Binding[] b = bind(3);
        String[] a = addresses(b);
        int loopbackOffer = PcodeContext.datagramBytesForMtu(
                io.cohort.transport.udp.UdpEndpoint.interfaceMtu(InetAddress.getLoopbackAddress()));
        for (String s : a) {
            assertEquals(loopbackOffer, offer(s), s);
        }
        a[2] = a[2].substring(0, a[2].lastIndexOf('/') + 1) + 1472; // rank 2's link carries plain Ethernet
        PcodeDomain[] d = new PcodeDomain[3];
        for (int r = 0; r < 3; r++) {
            d[r] = b[r].complete(a);
        }
        int perDatagram = new PcodeContext().datagramBytes(1472).fragmentBytes(3);
        for (PcodeDomain x : d) {
            assertEquals(perDatagram, x.messageBytesPerDatagram());
        }
        byte[] message = PcodeDomainTest.content(0, 0, 4 * perDatagram + 1);
        LocalBroadcastDomains.run(d, domain -> {
            if (domain.rank() == 0) {
                domain.multicast(message, 1, 2);
            } else {
                assertArrayEquals(message, domain.request(0, 1, 2));
            }
        }, Duration.ofSeconds(30));
        assertEquals(5, d[0].counters().get(DomainCounters.Counter.DATA_SENT), "five datagrams of the agreed size");
    }

    @Test
    void theSettingWinsOverTheMtu() {
        String old = System.setProperty(PcodeContext.DATAGRAM_BYTES_PROP_NAME, "1000");
        try {
            DomainFactory.Binding[] b = bind(2);
            String[] a = addresses(b);
            assertEquals(1000, offer(a[0]));
            assertEquals(1000, offer(a[1]));
            for (DomainFactory.Binding x : b) {
                x.abort();
            }
        } finally {
            if (old == null) {
                System.clearProperty(PcodeContext.DATAGRAM_BYTES_PROP_NAME);
            } else {
                System.setProperty(PcodeContext.DATAGRAM_BYTES_PROP_NAME, old);
            }
        }
    }

    @Test
    void aMalformedAddressOrAnOfferTooSmallIsOneSentence() {
        DomainFactory.Binding[] b = bind(2);
        String[] a = addresses(b);
        String[] noOffer = {a[0], a[1].substring(0, a[1].lastIndexOf('/'))};
        CohortException e = assertThrows(CohortException.class, () -> b[0].complete(noOffer));
        assertTrue(e.getMessage().startsWith("rank 1 sent no usable broadcast-domain address"), e.getMessage());

        DomainFactory.Binding[] c = bind(2);
        String[] tiny = addresses(c);
        tiny[1] = tiny[1].substring(0, tiny[1].lastIndexOf('/') + 1) + 100;
        e = assertThrows(CohortException.class, () -> c[0].complete(tiny));
        assertTrue(e.getMessage().startsWith("cannot open the broadcast domain: the peers' links carry datagrams of 100 bytes"),
                e.getMessage());
        b[1].abort();
        c[1].abort();
    }
}
