package io.cohort;

/** The contract when 5% of datagrams are held back behind the next three, with Ethernet-sized datagrams. */
class UdpReorderContractTest extends UdpFaultContractTest {
    @Override
    String faults() {
        return "reorder=0.05:3,hold=2ms,seed=14";
    }

    @Override
    String datagramBytes() {
        return "1472";
    }
}
