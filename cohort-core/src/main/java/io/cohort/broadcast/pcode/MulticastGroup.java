package io.cohort.broadcast.pcode;

import io.cohort.transport.fault.DatagramPort;
import io.cohort.transport.fault.NioDatagramPort;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.channels.DatagramChannel;

/**
 * The job's IPv4 multicast group and port, derived from its key so that two jobs on one segment
 * almost never share a group (and when they do, the frame tag tells them apart), and the sockets
 * of one peer: a receiving socket bound to the group's port and joined on one interface, and an
 * ephemeral unicast socket that sends everything with TTL 1 (the domain is one segment) and
 * loopback on where peers share the host (they hear each other through it).
 *
 * <p>Groups are taken from 239.255.0.0/16 (IPv4 organisation-local scope, RFC 2365); ports from
 * 20000-29999, below Linux's ephemeral range.
 */
public final class MulticastGroup {
    public static final String GROUP_PROP_NAME = "cohort.bcast.group";
    public static final int SOCKET_BUFFER_BYTES_DEFAULT = 4 << 20;

    private final InetSocketAddress group;

    private MulticastGroup(InetSocketAddress group) {
        this.group = group;
    }

    /** The group of a job with transport key {@code key}, unless {@value #GROUP_PROP_NAME} names one (a.b.c.d:port). */
    public static MulticastGroup forJob(long key) {
        String configured = System.getProperty(GROUP_PROP_NAME);
        if (configured != null && !configured.isBlank()) {
            return parse(configured);
        }
        long tag = PcodeDomain.wireTag(key);
        int a = (int) (tag & 0xFF);
        int b = (int) ((tag >>> 8) & 0xFF);
        int port = 20_000 + (int) Long.remainderUnsigned(tag >>> 16, 10_000);
        try {
            return new MulticastGroup(new InetSocketAddress(InetAddress.getByAddress(
                    new byte[] {(byte) 239, (byte) 255, (byte) a, (byte) (b == 0 ? 1 : b)}), port));
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // four bytes always make an address
        }
    }

    /** A group given as {@code a.b.c.d:port}; one sentence if it is not an IPv4 multicast group. */
    public static MulticastGroup parse(String s) {
        int colon = s.lastIndexOf(':');
        try {
            InetAddress a = InetAddress.getByName(s.substring(0, Math.max(0, colon)).trim());
            int port = Integer.parseInt(s.substring(colon + 1).trim());
            if (!(a instanceof Inet4Address) || !a.isMulticastAddress() || port < 1 || port > 65_535) {
                throw new NumberFormatException();
            }
            return new MulticastGroup(new InetSocketAddress(a, port));
        } catch (IOException | RuntimeException e) {
            throw new io.cohort.BadSettingException("setting " + GROUP_PROP_NAME + "=" + s
                    + " is not an IPv4 multicast group and port such as 239.255.1.2:24000");
        }
    }

    public InetSocketAddress address() {
        return group;
    }

    /**
     * Opens one peer's sockets on interface {@code nif} whose IPv4 address is {@code local}. The
     * unicast socket binds {@code local} with an ephemeral port: peers learn it from the table.
     */
    public DatagramPort[] open(InetAddress local, NetworkInterface nif) throws IOException {
        return open(local, nif, true);
    }

    /**
     * As above; {@code loop} false when no other peer of the job is on this host, so that our own
     * multicasts are not looped back to us only to be dropped (one wake-up less per multicast).
     */
    public DatagramPort[] open(InetAddress local, NetworkInterface nif, boolean loop) throws IOException {
        InetSocketAddress unicast = new InetSocketAddress(local, 0);
        DatagramChannel rx = DatagramChannel.open(StandardProtocolFamily.INET);
        DatagramChannel tx = null;
        try {
            rx.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            rx.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER_BYTES_DEFAULT);
            rx.bind(new InetSocketAddress(group.getPort()));
            rx.join(group.getAddress(), nif);
            tx = DatagramChannel.open(StandardProtocolFamily.INET);
            tx.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER_BYTES_DEFAULT);
            tx.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER_BYTES_DEFAULT);
            tx.setOption(StandardSocketOptions.IP_MULTICAST_IF, nif);
            tx.setOption(StandardSocketOptions.IP_MULTICAST_TTL, 1);
            tx.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, loop);
            tx.bind(unicast);
            return new DatagramPort[] {new NioDatagramPort(tx), new NioDatagramPort(rx)};
        } catch (IOException | RuntimeException e) {
            rx.close();
            if (tx != null) {
                tx.close();
            }
            throw e;
        }
    }

    /** The loopback interface, for peers on one host. */
    public static NetworkInterface loopbackInterface() throws IOException {
        NetworkInterface nif = NetworkInterface.getByInetAddress(InetAddress.getLoopbackAddress());
        if (nif == null) {
            throw new IOException("this host has no loopback interface");
        }
        return nif;
    }

    @Override
    public String toString() {
        return group.getAddress().getHostAddress() + ":" + group.getPort();
    }
}
