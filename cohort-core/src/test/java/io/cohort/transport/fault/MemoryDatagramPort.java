package io.cohort.transport.fault;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectableChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/** An in-memory {@link DatagramPort} for tests: datagrams are offered to its inbox and recorded when sent. */
final class MemoryDatagramPort implements DatagramPort {
    record Datagram(byte[] data, SocketAddress address) {
        int id() {
            return ByteBuffer.wrap(data).getInt(0);
        }
    }

    static final SocketAddress FROM = new InetSocketAddress("127.0.0.1", 9);
    final ArrayDeque<Datagram> inbox = new ArrayDeque<>();
    final List<Datagram> sent = new ArrayList<>();
    final PortCounters counters = new PortCounters();
    boolean refuse;

    /** A datagram whose first four bytes are {@code id}. */
    static byte[] numbered(int id, int length) {
        return ByteBuffer.allocate(Math.max(4, length)).putInt(0, id).array();
    }

    void offer(int id) {
        inbox.add(new Datagram(numbered(id, 16), FROM));
    }

    @Override
    public boolean send(ByteBuffer datagram, SocketAddress target) {
        if (refuse) {
            return false;
        }
        byte[] b = new byte[datagram.remaining()];
        datagram.get(b);
        sent.add(new Datagram(b, target));
        return true;
    }

    @Override
    public SocketAddress receive(ByteBuffer into) {
        Datagram d = inbox.poll();
        if (d == null) {
            return null;
        }
        into.put(d.data, 0, Math.min(d.data.length, into.remaining()));
        return d.address;
    }

    @Override
    public SelectableChannel channel() {
        return null;
    }

    @Override
    public SocketAddress localAddress() {
        return new InetSocketAddress("127.0.0.1", 7);
    }

    @Override
    public PortCounters counters() {
        return counters;
    }

    @Override
    public void close() {
    }
}
