package io.cohort.systest.programs;

import io.cohort.transport.bcast.DomainEndpoints;
import io.cohort.transport.bcast.MulticastGroup;
import io.cohort.transport.bcast.PcodeContext;
import io.cohort.transport.bcast.PcodeDomain;
import io.cohort.transport.bcast.SubnetBroadcast;
import io.cohort.transport.fault.DatagramPort;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketAddress;
import java.util.Arrays;

/**
 * One peer of a PCODE all-to-all run across real hosts (cluster-in-a-box namespaces), without the
 * launcher: every peer is started by hand with the same arguments except its rank, and binds its
 * unicast socket to a fixed port on its host's address, since there is no table exchange yet.
 *
 * <pre>
 *   BroadcastProbe RANK KEY GROUP:PORT UNICAST_PORT ROUNDS SIZE HOST0_IP HOST1_IP ...
 *   (GROUP a multicast group, or the subnet's broadcast address for subnet broadcast)
 * </pre>
 *
 * Prints one line: rounds done with content checked (CRC-32 of every message), time per call, and
 * the domain's counters. Run by {@code BroadcastDomainBoxSystemTest}; by hand as docs/benchmarks.md shows.
 */
public final class BroadcastProbe {
    private BroadcastProbe() {
    }

    static byte[] content(int sender, int round, int size) {
        byte[] b = new byte[size];
        long x = sender * 1_000_003L + round * 7919L + 1;
        for (int i = 0; i < size; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            b[i] = (byte) (x >>> 56);
        }
        return b;
    }

    static long crc(byte[] b) {
        java.util.zip.CRC32 c = new java.util.zip.CRC32();
        c.update(b);
        return c.getValue();
    }

    public static void main(String[] args) throws Exception {
        int rank = Integer.parseInt(args[0]);
        long key = Long.parseLong(args[1]);
        boolean multicast = InetAddress.getByName(args[2].substring(0, args[2].lastIndexOf(':'))).isMulticastAddress();
        int port = Integer.parseInt(args[3]);
        int rounds = Integer.parseInt(args[4]);
        int size = Integer.parseInt(args[5]);
        String[] hosts = Arrays.copyOfRange(args, 6, args.length);
        int n = hosts.length;
        SocketAddress[] peers = new SocketAddress[n];
        for (int i = 0; i < n; i++) {
            peers[i] = new InetSocketAddress(InetAddress.getByName(hosts[i]), port);
        }
        InetAddress local = InetAddress.getByName(hosts[rank]);
        NetworkInterface nif = NetworkInterface.getByInetAddress(local);
        DatagramPort[] ports;
        SocketAddress target;
        if (multicast) {
            MulticastGroup group = MulticastGroup.parse(args[2]);
            ports = group.openBound(new InetSocketAddress(local, port), nif);
            target = group.address();
        } else {
            SubnetBroadcast broadcast = SubnetBroadcast.parse(args[2]);
            ports = broadcast.open(new InetSocketAddress(local, port));
            target = broadcast.address();
        }
        PcodeDomain d = new PcodeDomain(rank, n, key, PcodeContext.fromSystemProperties(),
                new DomainEndpoints(ports[0], ports[1], target, peers));
        int[][] targetsOf = new int[n][];
        for (int q = 0; q < n; q++) {
            targetsOf[q] = new int[n - 1];
            for (int i = 0, k = 0; i < n; i++) {
                if (i != q) {
                    targetsOf[q][k++] = i;
                }
            }
        }
        long start = 0;
        int warmup = Math.min(50, rounds / 10);
        for (int r = 0; r < warmup + rounds; r++) {
            if (r == warmup) {
                start = System.nanoTime();
            }
            d.multicast(content(rank, r, size), targetsOf[rank]);
            for (int q = 0; q < n; q++) {
                if (q != rank) {
                    byte[] got = d.request(q, targetsOf[q]);
                    if (crc(got) != crc(content(q, r, size))) {
                        throw new IllegalStateException("rank " + rank + " round " + r + ": wrong message from rank " + q);
                    }
                }
            }
        }
        long elapsed = System.nanoTime() - start;
        d.close();
        System.out.printf("rank %d: %d rounds of %d B checked, %.1f us per call; %s%n", rank, rounds, size,
                elapsed / 1000.0 / rounds / n, d.counters());
    }
}
