package io.cohort.transport.local;

import io.cohort.PeerFailedException;
import io.cohort.transport.SendCompletion;
import io.cohort.transport.Transport;

import java.nio.ByteBuffer;

/**
 * Sends by copying into the destination engine from the sending thread; nothing to poll. A send
 * is complete as soon as it returns, like a buffered send.
 */
public final class LocalTransport implements Transport {
    private final LocalFabric fabric;
    private final int rank;

    public LocalTransport(LocalFabric fabric, int rank) {
        this.fabric = fabric;
        this.rank = rank;
    }

    @Override
    public String name() {
        return "local";
    }

    @Override
    public void send(int dest, int context, int tag, ByteBuffer payload, SendCompletion completion) {
        if (fabric.state(dest) == LocalFabric.FAILED) {
            completion.failed(new PeerFailedException(dest, "rank " + dest + " has failed"));
            return;
        }
        fabric.engine(dest).deliver(rank, context, tag, payload);
        completion.sent();
    }

    @Override
    public int poll() {
        return 0;
    }

    @Override
    public boolean canBlock() {
        return false;
    }

    @Override
    public void block(long nanos) {
        java.util.concurrent.locks.LockSupport.parkNanos(nanos);
    }

    @Override
    public void wakeup() {
    }

    @Override
    public void startClose() {
        fabric.markClosed(rank);
    }

    @Override
    public boolean isCloseComplete() {
        for (int i = 0; i < fabric.size(); i++) {
            if (i != rank && fabric.state(i) == LocalFabric.OPEN) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
    }
}
