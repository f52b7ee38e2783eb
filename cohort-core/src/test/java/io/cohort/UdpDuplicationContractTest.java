package io.cohort;

/** The contract when 5% of datagrams arrive twice. */
class UdpDuplicationContractTest extends UdpFaultContractTest {
    @Override
    String faults() {
        return "dup=0.05,seed=13";
    }
}
