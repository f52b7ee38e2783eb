package io.cohort.wireup;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Collections;
import java.util.Optional;

/**
 * A network given as a CIDR prefix ({@code 10.1.0.0/24}, {@code fd00::/64}): a partition's preferred
 * network for data traffic (PSE: "preferred network addresses for members of a partition"). A peer
 * binds its TCP and UDP endpoints on its own address in that network when it has one, so a cluster with
 * a fast data network and a slower management network carries messages on the fast one. Immutable.
 */
public final class NetworkPrefix {
    private final byte[] network;
    private final int bits;
    private final String text;

    private NetworkPrefix(byte[] network, int bits, String text) {
        this.network = network;
        this.bits = bits;
        this.text = text;
    }

    /**
     * Parses {@code ADDRESS/BITS}; host bits must be zero.
     *
     * @throws IllegalArgumentException with one sentence
     */
    public static NetworkPrefix parse(String cidr) {
        NetworkPrefix p = parseAllowingHostBits(cidr);
        if (p.hasHostBits()) {
            throw new IllegalArgumentException("'" + p.text + "' is not a network: its address has host bits set");
        }
        return p;
    }

    /**
     * Parses {@code ADDRESS/BITS} (an IP literal, never a name to look up) without judging the bits after
     * the prefix; {@link #hasHostBits} tells. For callers with their own wording of that mistake.
     *
     * @throws IllegalArgumentException with one sentence when it is not of that form
     */
    public static NetworkPrefix parseAllowingHostBits(String cidr) {
        String s = cidr == null ? "" : cidr.trim();
        int slash = s.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("'" + s + "' is not a network; write it as ADDRESS/BITS, like 10.1.0.0/24");
        }
        String addr = s.substring(0, slash);
        if (!addr.matches("\\d{1,3}(\\.\\d{1,3}){3}|[0-9A-Fa-f:]+")) { // dotted quad or IPv6: no legacy "10.1" forms
            throw new IllegalArgumentException("'" + s + "' is not a network: '" + addr + "' is not an IP address");
        }
        byte[] bytes;
        try {
            bytes = InetAddress.getByName(addr).getAddress(); // a literal: no lookup
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("'" + s + "' is not a network: '" + addr + "' is not an IP address");
        }
        String bitsText = s.substring(slash + 1);
        int bits = bitsText.matches("\\d{1,3}") ? Integer.parseInt(bitsText) : -1;
        if (bits < 0 || bits > bytes.length * 8) {
            throw new IllegalArgumentException("'" + s + "' is not a network: the prefix length must be from 0 to " + bytes.length * 8);
        }
        return new NetworkPrefix(bytes, bits, s);
    }

    /** Whether the address has bits set after the prefix length ({@code 10.1.0.5/24}). */
    public boolean hasHostBits() {
        for (int i = bits; i < network.length * 8; i++) {
            if ((network[i >> 3] & (0x80 >> (i & 7))) != 0) {
                return true;
            }
        }
        return false;
    }

    /** The prefix length. */
    public int bits() {
        return bits;
    }

    public boolean contains(InetAddress a) {
        byte[] b = a.getAddress();
        if (b.length != network.length) {
            return false;
        }
        for (int i = 0; i < bits; i++) {
            int mask = 0x80 >> (i & 7);
            if ((b[i >> 3] & mask) != (network[i >> 3] & mask)) {
                return false;
            }
        }
        return true;
    }

    /** This machine's first address in the network (IPv4 before IPv6), if it has one. */
    public Optional<InetAddress> localAddress() {
        InetAddress found = null;
        try {
            for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nif.isUp()) {
                    continue;
                }
                for (InetAddress a : Collections.list(nif.getInetAddresses())) {
                    if (contains(a) && (found == null || (a instanceof Inet4Address && !(found instanceof Inet4Address)))) {
                        found = a;
                    }
                }
            }
        } catch (SocketException e) {
            return Optional.empty();
        }
        return Optional.ofNullable(found);
    }

    @Override
    public String toString() {
        return text;
    }
}
