package io.cohort.broadcast.pcode;

import io.cohort.transport.fault.DatagramPort;
import io.cohort.transport.fault.PortCounters;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectableChannel;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A broadcast medium in memory, for unit tests and in-JVM benchmarks that should not depend on
 * the host's multicast routing: each member gets a {@link DatagramPort}; a datagram sent to
 * {@link #broadcastAddress()} reaches every member (the sender too, as multicast loopback does),
 * one sent to a member's {@link DatagramPort#localAddress()} reaches that member. Lossless and in
 * order; stack a {@link io.cohort.transport.fault.FaultInjectingPort} on a member for faults.
 * Ports have no channel, so waiting domains park instead of selecting.
 */
public final class MemoryBroadcastMedium {
    private final Member[] members;
    private final InetSocketAddress broadcast;

    public MemoryBroadcastMedium(int size) {
        members = new Member[size];
        try {
            broadcast = new InetSocketAddress(InetAddress.getByAddress(new byte[] {(byte) 239, (byte) 255, 0, 1}), 1);
            for (int i = 0; i < size; i++) {
                members[i] = new Member(new InetSocketAddress(InetAddress.getByAddress(new byte[] {10, 0, 0, 1}), 10_000 + i));
            }
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    public SocketAddress broadcastAddress() {
        return broadcast;
    }

    public DatagramPort port(int member) {
        return members[member];
    }

    /** Every member's unicast address, by member index. */
    public SocketAddress[] addresses() {
        SocketAddress[] a = new SocketAddress[members.length];
        for (int i = 0; i < a.length; i++) {
            a[i] = members[i].address;
        }
        return a;
    }

    private final class Member implements DatagramPort {
        final InetSocketAddress address;
        final ConcurrentLinkedQueue<byte[]> inbox = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<SocketAddress> sources = new ConcurrentLinkedQueue<>();
        final PortCounters counters = new PortCounters();
        volatile boolean closed;

        Member(InetSocketAddress address) {
            this.address = address;
        }

        @Override
        public boolean send(ByteBuffer datagram, SocketAddress target) {
            if (closed) {
                return false;
            }
            byte[] b = new byte[datagram.remaining()];
            datagram.get(b);
            if (broadcast.equals(target)) {
                for (Member m : members) {
                    m.offer(b, address);
                }
            } else {
                for (Member m : members) {
                    if (m.address.equals(target)) {
                        m.offer(b, address);
                    }
                }
            }
            return true;
        }

        synchronized void offer(byte[] b, SocketAddress from) {
            if (!closed) {
                inbox.add(b);
                sources.add(from);
            }
        }

        @Override
        public synchronized SocketAddress receive(ByteBuffer into) {
            byte[] b = inbox.poll();
            if (b == null) {
                return null;
            }
            into.put(b, 0, Math.min(b.length, into.remaining()));
            return sources.poll();
        }

        @Override
        public SelectableChannel channel() {
            return null;
        }

        @Override
        public SocketAddress localAddress() {
            return address;
        }

        @Override
        public PortCounters counters() {
            return counters;
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
