package io.cohort;

/** The contract when every datagram is delayed 1 ms plus up to 1 ms of jitter (which also reorders). */
class UdpDelayContractTest extends UdpFaultContractTest {
    @Override
    String faults() {
        return "delay=1ms,jitter=1ms,seed=15";
    }
}
