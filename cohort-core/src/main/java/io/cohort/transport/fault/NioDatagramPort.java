package io.cohort.transport.fault;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectableChannel;

/**
 * A {@link DatagramPort} over a non-blocking, unconnected {@link DatagramChannel}: one socket for
 * all destinations (PSE: "a single locally bound socket for all peer-to-peer communication").
 * {@link DatagramChannel#send} and {@link DatagramChannel#receive} are safe for concurrent use; the
 * JDK serialises each direction internally.
 */
public final class NioDatagramPort implements DatagramPort {
    private final DatagramChannel channel;
    private final SocketAddress local;
    private final PortCounters counters = new PortCounters();

    /** Wraps a bound channel (which the caller may have set up for multicast) and makes it non-blocking. */
    public NioDatagramPort(DatagramChannel channel) throws IOException {
        this.channel = channel;
        channel.configureBlocking(false);
        this.local = channel.getLocalAddress();
        if (local == null) {
            throw new IOException("the datagram channel is not bound");
        }
    }

    /**
     * Opens a unicast socket bound to {@code bind} (port 0 = ephemeral) and asks for kernel buffers
     * of {@code socketBufferBytes} each way (the kernel caps them at {@code net.core.rmem_max} /
     * {@code wmem_max}; {@link #receiveBufferBytes()} says what it granted).
     */
    public static NioDatagramPort open(InetSocketAddress bind, int socketBufferBytes) throws IOException {
        DatagramChannel c = bind.getAddress() instanceof java.net.Inet6Address
                ? DatagramChannel.open(StandardProtocolFamily.INET6)
                : DatagramChannel.open(StandardProtocolFamily.INET);
        try {
            if (socketBufferBytes > 0) {
                c.setOption(StandardSocketOptions.SO_RCVBUF, socketBufferBytes);
                c.setOption(StandardSocketOptions.SO_SNDBUF, socketBufferBytes);
            }
            c.bind(bind);
            return new NioDatagramPort(c);
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** The receive buffer the kernel granted, or -1 if it cannot say. */
    public int receiveBufferBytes() {
        try {
            return channel.getOption(StandardSocketOptions.SO_RCVBUF);
        } catch (IOException e) {
            return -1;
        }
    }

    @Override
    public boolean send(ByteBuffer datagram, SocketAddress target) {
        int length = datagram.remaining();
        try {
            if (channel.send(datagram, target) == 0) {
                counters.sendsRefused.incrementAndGet();
                return false;
            }
        } catch (ClosedChannelException e) {
            return false;
        } catch (IOException | RuntimeException e) {
            // Unreachable networks, a target of the wrong family, ...: the protocol retries later.
            counters.error(e);
            return false;
        }
        counters.datagramsSent.incrementAndGet();
        counters.bytesSent.addAndGet(length);
        return true;
    }

    @Override
    public SocketAddress receive(ByteBuffer into) {
        int before = into.position();
        SocketAddress source;
        try {
            source = channel.receive(into);
        } catch (ClosedChannelException e) {
            return null;
        } catch (IOException | RuntimeException e) {
            counters.error(e);
            return null;
        }
        if (source != null) {
            counters.datagramsReceived.incrementAndGet();
            counters.bytesReceived.addAndGet(into.position() - before);
        }
        return source;
    }

    @Override
    public SelectableChannel channel() {
        return channel;
    }

    @Override
    public SocketAddress localAddress() {
        return local;
    }

    @Override
    public PortCounters counters() {
        return counters;
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // Closing a datagram socket has nothing to flush; it is gone either way.
        }
    }
}
