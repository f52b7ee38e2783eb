package io.cohort;

/** The contract over shared-memory rings between in-JVM peers, through real files in /dev/shm. */
class ShmTransportContractTest extends TransportContractTest {
    @Override
    String transport() {
        return "shm";
    }
}
