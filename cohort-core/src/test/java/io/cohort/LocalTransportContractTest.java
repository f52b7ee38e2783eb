package io.cohort;

/** The contract on the in-memory transport (the reference implementation). */
class LocalTransportContractTest extends TransportContractTest {
    @Override
    String transport() {
        return "local";
    }
}
