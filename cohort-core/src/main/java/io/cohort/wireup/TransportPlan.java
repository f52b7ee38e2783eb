package io.cohort.wireup;

import java.io.IOException;

/**
 * Which transport carries each pair of peers, beyond PSE's one option per job: with {@code auto},
 * shared memory between peers placed on the same host and TCP otherwise; {@code shm}, {@code tcp}
 * and {@code udp} force one transport (shm refuses a job that spans hosts). {@code auto} never picks
 * udp: it is the option a user asks for (PSE's run-time choice), not yet the default between hosts.
 */
public final class TransportPlan {
    private final String policy;
    private final int rank;
    private final String[] byPeer;

    private TransportPlan(String policy, int rank, String[] byPeer) {
        this.policy = policy;
        this.rank = rank;
        this.byPeer = byPeer;
    }

    /** Peers are on the same host when the launcher gave them the same host name. */
    public static TransportPlan of(String policy, int rank, PeerRecord[] table) throws IOException {
        String[] byPeer = new String[table.length];
        for (PeerRecord p : table) {
            if (p.rank() == rank) {
                byPeer[p.rank()] = "self";
                continue;
            }
            boolean local = p.host().equals(table[rank].host());
            switch (policy) {
                case "tcp":
                    byPeer[p.rank()] = "tcp";
                    break;
                case "udp":
                    if (!p.endpoints().containsKey("udp")) {
                        throw new IOException("--transport udp, but " + p.describe() + " published no udp endpoint");
                    }
                    byPeer[p.rank()] = "udp";
                    break;
                case "shm":
                    if (!local) {
                        throw new IOException("--transport shm needs every peer on one host, but " + p.describe()
                                + " is not on " + table[rank].host() + "; use --transport auto");
                    }
                    if (!sameShm(p, table[rank])) {
                        throw new IOException("--transport shm, but " + p.describe()
                                + " does not share this peer's shared-memory directory");
                    }
                    byPeer[p.rank()] = "shm";
                    break;
                default:
                    byPeer[p.rank()] = local && sameShm(p, table[rank]) ? "shm" : "tcp";
            }
        }
        return new TransportPlan(policy, rank, byPeer);
    }

    /**
     * Whether two peers make their segments in the same directory: the one their io-manager made
     * for them ({@code io.cohort.transport.shm.ShmJobDirectory}); peers of one host name under
     * different io-managers would otherwise wait for each other's rings in different places.
     */
    private static boolean sameShm(PeerRecord a, PeerRecord b) {
        String dir = a.endpoints().get("shm");
        return dir != null && dir.equals(b.endpoints().get("shm"));
    }

    public String transportTo(int peer) {
        return byPeer[peer];
    }

    public int[] peersOver(String transport) {
        int n = 0;
        for (String t : byPeer) {
            if (t.equals(transport)) {
                n++;
            }
        }
        int[] peers = new int[n];
        for (int i = 0, j = 0; i < byPeer.length; i++) {
            if (byPeer[i].equals(transport)) {
                peers[j++] = i;
            }
        }
        return peers;
    }

    public boolean[] wanted(String transport) {
        boolean[] w = new boolean[byPeer.length];
        for (int i : peersOver(transport)) {
            w[i] = true;
        }
        return w;
    }

    public boolean anyShm() {
        return peersOver("shm").length > 0;
    }

    public boolean anyTcp() {
        return peersOver("tcp").length > 0;
    }

    public boolean anyUdp() {
        return peersOver("udp").length > 0;
    }

    /** The whole job's matrix, as every peer computes it (for {@code --verbose}). */
    public String matrix(PeerRecord[] table) throws IOException {
        StringBuilder b = new StringBuilder("cohort: transports (row = from, column = to)\n        ");
        for (PeerRecord p : table) {
            b.append(String.format("%6d", p.rank()));
        }
        b.append('\n');
        for (PeerRecord from : table) {
            TransportPlan row = from.rank() == rank ? this : of(policy, from.rank(), table);
            b.append(String.format("%6d  ", from.rank()));
            for (PeerRecord to : table) {
                b.append(String.format("%6s", to.rank() == from.rank() ? "-" : row.transportTo(to.rank())));
            }
            b.append("   ").append(from.host()).append('\n');
        }
        return b.toString();
    }
}
