package io.cohort.transport.fault;

import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectableChannel;

/**
 * A {@link DatagramPort} that hands every call to the port it decorates: the base of decorators
 * (the fault layer, tests' lossy or spoofing ports), which override only what they change.
 */
public abstract class ForwardingDatagramPort implements DatagramPort {
    protected final DatagramPort inner;

    protected ForwardingDatagramPort(DatagramPort inner) {
        this.inner = inner;
    }

    /** The decorated port. */
    public DatagramPort inner() {
        return inner;
    }

    @Override
    public boolean send(ByteBuffer datagram, SocketAddress target) {
        return inner.send(datagram, target);
    }

    @Override
    public SocketAddress receive(ByteBuffer into) {
        return inner.receive(into);
    }

    @Override
    public SelectableChannel channel() {
        return inner.channel();
    }

    @Override
    public long nextDueNanos() {
        return inner.nextDueNanos();
    }

    @Override
    public SocketAddress localAddress() {
        return inner.localAddress();
    }

    @Override
    public PortCounters counters() {
        return inner.counters();
    }

    @Override
    public void close() {
        inner.close();
    }
}
