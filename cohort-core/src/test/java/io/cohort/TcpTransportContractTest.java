package io.cohort;

/** The contract over real loopback TCP connections. */
class TcpTransportContractTest extends TransportContractTest {
    @Override
    String transport() {
        return "tcp";
    }
}
