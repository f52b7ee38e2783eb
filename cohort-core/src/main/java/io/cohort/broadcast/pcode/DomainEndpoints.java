package io.cohort.broadcast.pcode;

import io.cohort.transport.fault.DatagramPort;

import java.net.SocketAddress;

/**
 * Where a domain sends and receives. Every frame leaves through {@link #unicast} (one socket per
 * peer, bound to an ephemeral port); broadcast frames go to {@link #broadcastTarget} (the job's
 * multicast group, or the subnet broadcast address) and arrive on {@link #group}, a socket bound to
 * the group's port; unicast frames (section 5.6) go to a peer's {@link #peers} entry. With an
 * in-memory medium one port does both, and {@code group} is null.
 *
 * <p>Either port may be a {@link io.cohort.transport.fault.FaultInjectingPort}.
 */
public final class DomainEndpoints {
    final DatagramPort unicast;
    final DatagramPort group;
    final SocketAddress broadcastTarget;
    final SocketAddress[] peers;

    public DomainEndpoints(DatagramPort unicast, DatagramPort group, SocketAddress broadcastTarget, SocketAddress[] peers) {
        this.unicast = unicast;
        this.group = group;
        this.broadcastTarget = broadcastTarget;
        this.peers = peers.clone();
    }

    /** The socket every frame leaves through, and unicast frames arrive on. */
    public DatagramPort unicast() {
        return unicast;
    }

    /** The socket broadcast frames arrive on, or null where {@link #unicast} receives them too. */
    public DatagramPort group() {
        return group;
    }

    /** Where a broadcast frame is sent: the multicast group, or the subnet broadcast address. */
    public SocketAddress broadcastTarget() {
        return broadcastTarget;
    }

    /** Each peer's unicast address, by rank. */
    public SocketAddress[] peers() {
        return peers.clone();
    }

    DatagramPort[] receivePorts() {
        return group == null ? new DatagramPort[] {unicast} : new DatagramPort[] {group, unicast};
    }

    void close() {
        unicast.close();
        if (group != null) {
            group.close();
        }
    }
}
