package io.cohort;

/** The contract under bursts of loss: 1% of datagrams start a burst of 8 lost in a row. */
class UdpBurstLossContractTest extends UdpFaultContractTest {
    @Override
    String faults() {
        return "burst=0.01:8,seed=12";
    }
}
