package io.cohort.tools.prof;

import java.util.List;

/**
 * Which peers a report covers: all of them, with counts, bytes and times given as means per peer
 * (PSE's pprof), or one rank, with its own figures. {@link #perPeer(double)} turns a sum over the
 * scope's peers into the figure a report prints.
 */
public final class Scope {
    private final List<PeerProfile> peers;
    private final int rank;

    private Scope(List<PeerProfile> peers, int rank) {
        this.peers = peers;
        this.rank = rank;
    }

    public static Scope allPeers(ProfileSet set) {
        return new Scope(set.peers(), -1);
    }

    /** @throws IllegalArgumentException the set has no recording of that rank */
    public static Scope rank(ProfileSet set, int rank) {
        PeerProfile p = set.peer(rank);
        if (p == null) {
            throw new IllegalArgumentException("no recording of rank " + rank);
        }
        return new Scope(List.of(p), rank);
    }

    public List<PeerProfile> peers() {
        return peers;
    }

    public boolean isOneRank() {
        return rank >= 0;
    }

    /** The rank in scope, or -1 for all peers. */
    public int rank() {
        return rank;
    }

    public boolean includes(int r) {
        return rank < 0 || rank == r;
    }

    /** A sum over the scope's peers as the per-peer figure reports print. */
    public double perPeer(double sum) {
        return peers.isEmpty() ? 0 : sum / peers.size();
    }

    /** {@code rank 2} or {@code mean of 4 peers}, as the reports' headers say it. */
    public String description() {
        return isOneRank() ? "rank " + rank
                : peers.size() == 1 ? "the one peer recorded" : "mean of " + peers.size() + " peers (counts, bytes and times per peer)";
    }
}
