package io.cohort.broadcast.pcode;

import io.cohort.transport.fault.DatagramPort;
import io.cohort.transport.fault.NioDatagramPort;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.channels.DatagramChannel;

/**
 * The alternative to {@link MulticastGroup}: the subnet's IPv4 broadcast address (a.b.c.255 on a
 * /24, as the paper's UDP broadcast), for networks that do not route multicast. Broadcast frames go
 * to {@code broadcast:port} and arrive on a socket bound to the wildcard address and that port
 * (shared by every peer on a host, SO_REUSEADDR); every frame leaves through an ephemeral unicast
 * socket allowed to broadcast (SO_BROADCAST). The port is derived from the job's key as the
 * multicast group's is, so two jobs rarely share it, and the frame tag separates them when they do.
 */
public final class SubnetBroadcast {
    private final InetSocketAddress target;

    private SubnetBroadcast(InetSocketAddress target) {
        this.target = target;
    }

    /** The broadcast address {@code broadcast} with the port of a job whose transport key is {@code key}. */
    public static SubnetBroadcast forJob(InetAddress broadcast, long key) {
        return new SubnetBroadcast(new InetSocketAddress(broadcast, MulticastGroup.forJob(key).address().getPort()));
    }

    /** A broadcast address and port given as {@code a.b.c.d:port}; one sentence if it is not one. */
    public static SubnetBroadcast parse(String s) {
        int colon = s.lastIndexOf(':');
        try {
            InetAddress a = InetAddress.getByName(s.substring(0, Math.max(0, colon)).trim());
            int port = Integer.parseInt(s.substring(colon + 1).trim());
            if (!(a instanceof Inet4Address) || a.isMulticastAddress() || port < 1 || port > 65_535) {
                throw new NumberFormatException();
            }
            return new SubnetBroadcast(new InetSocketAddress(a, port));
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("'" + s + "' is not an IPv4 broadcast address and port such as 10.1.2.255:24000");
        }
    }

    public InetSocketAddress address() {
        return target;
    }

    /** Opens one peer's sockets: {@code [unicast (sends everything), broadcast receiver]}. */
    public DatagramPort[] open(InetSocketAddress unicast) throws IOException {
        DatagramChannel rx = DatagramChannel.open(StandardProtocolFamily.INET);
        DatagramChannel tx = null;
        try {
            rx.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            rx.setOption(StandardSocketOptions.SO_RCVBUF, MulticastGroup.SOCKET_BUFFER_BYTES_DEFAULT);
            rx.bind(new InetSocketAddress(target.getPort()));
            tx = DatagramChannel.open(StandardProtocolFamily.INET);
            tx.setOption(StandardSocketOptions.SO_BROADCAST, true);
            tx.setOption(StandardSocketOptions.SO_RCVBUF, MulticastGroup.SOCKET_BUFFER_BYTES_DEFAULT);
            tx.setOption(StandardSocketOptions.SO_SNDBUF, MulticastGroup.SOCKET_BUFFER_BYTES_DEFAULT);
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

    @Override
    public String toString() {
        return target.getAddress().getHostAddress() + ":" + target.getPort();
    }
}
