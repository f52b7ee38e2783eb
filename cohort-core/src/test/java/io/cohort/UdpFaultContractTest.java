package io.cohort;

import io.cohort.transport.udp.UdpSettings;
import io.cohort.wireup.LocalJob;

/**
 * The contract over udp with one kind of fault injected on every peer's receive side through the
 * fault layer. Subclasses pick the fault; the seed is fixed so a failure replays (the decisions
 * repeat, the timing around them may not).
 */
abstract class UdpFaultContractTest extends TransportContractTest {
    /** The fault spec, e.g. {@code loss=0.05,seed=11}. */
    abstract String faults();

    /** The datagram size; small ones make large messages into many fragments. */
    String datagramBytes() {
        return UdpSettings.DATAGRAM_BYTES_DEFAULT;
    }

    @Override
    String transport() {
        return "udp";
    }

    @Override
    LocalJob cohort(int n) {
        return super.cohort(n).fault(faults())
                .udpSettings(UdpSettings.fromSystemProperties().with(UdpSettings.DATAGRAM_BYTES_PROP_NAME, datagramBytes()));
    }
}
