package io.cohort;

/** The contract over the udp transport: real loopback datagrams, no injected faults. */
class UdpTransportContractTest extends TransportContractTest {
    @Override
    String transport() {
        return "udp";
    }
}
