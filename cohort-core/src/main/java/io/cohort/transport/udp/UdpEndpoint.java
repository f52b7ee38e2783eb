package io.cohort.transport.udp;

import io.cohort.CohortException;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;

/**
 * Where a peer's {@code udp} socket listens and the MTU of the interface behind it, as published in
 * the wire-up: {@code host:port/mtu}, e.g. {@code 10.0.0.7:41233/1500}. Both ends of a pair know
 * both MTUs, so both pick the same datagram size without another message (PSE's UDP_prime had to
 * forbid loopback to keep one MTU; per-pair sizes remove the need).
 */
public final class UdpEndpoint {
    /** Assumed when an interface will not tell its MTU: plain Ethernet. */
    public static final int MTU_DEFAULT = 1500;
    private static final int UDP_HEADER = 8;

    private final InetSocketAddress address;
    private final int mtu;

    public UdpEndpoint(InetSocketAddress address, int mtu) {
        this.address = address;
        this.mtu = mtu;
    }

    public InetSocketAddress address() {
        return address;
    }

    public int mtu() {
        return mtu;
    }

    /** The MTU of the interface that owns {@code a} (loopback's is usually 65536), or {@link #MTU_DEFAULT}. */
    public static int interfaceMtu(InetAddress a) {
        try {
            NetworkInterface nif = NetworkInterface.getByInetAddress(a);
            if (nif != null) {
                int mtu = nif.getMTU();
                if (mtu > 0) {
                    return mtu;
                }
            }
        } catch (SocketException ignored) {
            // fall back to the default
        }
        return MTU_DEFAULT;
    }

    /**
     * The datagram size for a pair: the configured size, or with auto (0) the smaller of the two MTUs
     * minus the IP and UDP headers, so no datagram is ever fragmented by IP.
     */
    public static int datagramBytes(int configured, UdpEndpoint a, UdpEndpoint b) {
        if (configured > 0) {
            return configured;
        }
        int ipHeader = a.address.getAddress() instanceof Inet6Address ? 40 : 20;
        int bytes = Math.min(a.mtu, b.mtu) - ipHeader - UDP_HEADER;
        return Math.max(UdpSettings.DATAGRAM_BYTES_MIN, Math.min(UdpSettings.DATAGRAM_BYTES_MAX, bytes));
    }

    /** {@code host:port/mtu}. */
    public String format() {
        return address.getAddress().getHostAddress() + ":" + address.getPort() + "/" + mtu;
    }

    /** Parses {@link #format()}; a bad string is a {@link CohortException} naming it. */
    public static UdpEndpoint parse(String s) {
        try {
            int slash = s.lastIndexOf('/');
            int colon = s.lastIndexOf(':', slash);
            String host = s.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            int port = Integer.parseInt(s.substring(colon + 1, slash));
            int mtu = Integer.parseInt(s.substring(slash + 1));
            if (port < 1 || port > 65535 || mtu < 68) {
                throw new IllegalArgumentException();
            }
            return new UdpEndpoint(new InetSocketAddress(InetAddress.getByName(host), port), mtu);
        } catch (RuntimeException | java.net.UnknownHostException e) {
            throw new CohortException("malformed udp endpoint '" + s + "'; expected host:port/mtu");
        }
    }

    @Override
    public String toString() {
        return format();
    }
}
