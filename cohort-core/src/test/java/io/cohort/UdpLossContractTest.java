package io.cohort;

/** The contract under 5% random loss, with Ethernet-sized datagrams (1472 B: many fragments per message). */
class UdpLossContractTest extends UdpFaultContractTest {
    @Override
    String faults() {
        return "loss=0.05,seed=11";
    }

    @Override
    String datagramBytes() {
        return "1472";
    }
}
