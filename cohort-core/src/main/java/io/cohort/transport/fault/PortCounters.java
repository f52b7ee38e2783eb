package io.cohort.transport.fault;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What a {@link DatagramPort} moved. Written by the port's callers (any sending thread, the receiving
 * owner), read by anyone; each counter is atomic, a snapshot of several is not.
 */
public final class PortCounters {
    final AtomicLong datagramsSent = new AtomicLong();
    final AtomicLong bytesSent = new AtomicLong();
    final AtomicLong sendsRefused = new AtomicLong();
    final AtomicLong datagramsReceived = new AtomicLong();
    final AtomicLong bytesReceived = new AtomicLong();
    final AtomicLong errors = new AtomicLong();
    private volatile String lastError;

    /** Datagrams the kernel took. */
    public long datagramsSent() {
        return datagramsSent.get();
    }

    public long bytesSent() {
        return bytesSent.get();
    }

    /** Sends refused because the socket's send buffer was full. */
    public long sendsRefused() {
        return sendsRefused.get();
    }

    public long datagramsReceived() {
        return datagramsReceived.get();
    }

    public long bytesReceived() {
        return bytesReceived.get();
    }

    /** I/O errors swallowed by send and receive (see {@link #lastError()}). */
    public long errors() {
        return errors.get();
    }

    /** The message of the latest error, or null. */
    public String lastError() {
        return lastError;
    }

    void error(Exception e) {
        errors.incrementAndGet();
        lastError = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    @Override
    public String toString() {
        return "sent " + datagramsSent() + " (" + bytesSent() + " B, " + sendsRefused() + " refused), received "
                + datagramsReceived() + " (" + bytesReceived() + " B), errors " + errors();
    }
}
