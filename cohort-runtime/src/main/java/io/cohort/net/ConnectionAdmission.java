package io.cohort.net;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Who may hold one of a server's connections (cohortd's, and the launcher's rendezvous). A new connection is <em>pending</em> until its first
 * authentic frame; then it is <em>authenticated</em> and takes one of {@code maxAuthenticated} places,
 * which only holders of the cluster key can reach, so a flood without the key cannot take them.
 *
 * <p>Pending connections are bounded twice: at most {@code maxPendingPerSource} from one address, at
 * most {@code maxPending} in all. A new connection beyond either bound sheds the <em>oldest</em> pending one
 * (of its address, or of all), never itself: a client sends its request at once and authenticates within
 * a round trip, so it is the newest; idle connections of a flood are the oldest, and go first. Refusing
 * the newest instead would let a flood that filled the bounds once lock every client out until it ends,
 * including clients behind the flood's own address (a NAT, a login node).
 *
 * <p>Thread-safe (every method synchronized): the accepting thread, the deadline thread and the
 * connection threads share one.
 */
public final class ConnectionAdmission {
    /** Connections pending at once from one address: more than a host's CLIs and launchers start in a round trip. */
    public static final int MAX_PENDING_PER_SOURCE = 16;
    /** Connections pending at once in all: each holds a thread for at most daemon.auth_timeout. */
    public static final int MAX_PENDING = 128;
    /** Authenticated connections at once: requests, job registrations and the inbound ring link. */
    public static final int MAX_AUTHENTICATED = 256;

    /** What became of a connection that authenticated. */
    public enum Promotion {
        /** It holds an authenticated place now. */
        ADMITTED,
        /** It was shed or timed out meanwhile (and is being closed): it must not be answered. */
        GONE,
        /** Every authenticated place is taken: it must be closed. */
        FULL
    }

    private final int maxPendingPerSource;
    private final int maxPending;
    private final int maxAuthenticated;
    /** Pending connections, oldest first, with the address each came from. */
    private final LinkedHashMap<Socket, InetAddress> pending = new LinkedHashMap<>();
    private final Map<InetAddress, Integer> pendingBySource = new HashMap<>();
    private final Set<Socket> authenticated = new HashSet<>();

    public ConnectionAdmission() {
        this(MAX_PENDING_PER_SOURCE, MAX_PENDING, MAX_AUTHENTICATED);
    }

    public ConnectionAdmission(int maxPendingPerSource, int maxPending, int maxAuthenticated) {
        if (maxPendingPerSource < 1 || maxPending < 1 || maxAuthenticated < 1) {
            throw new IllegalArgumentException("every bound must be at least 1");
        }
        this.maxPendingPerSource = maxPendingPerSource;
        this.maxPending = maxPending;
        this.maxAuthenticated = maxAuthenticated;
    }

    /**
     * Admits {@code s} as pending and returns the pending connections that must be closed to make room
     * for it (none, or the oldest of its address, or the oldest of all, or both), already forgotten here.
     */
    public synchronized List<Socket> admit(Socket s) {
        List<Socket> shed = new ArrayList<>(2);
        InetAddress source = source(s);
        if (pendingBySource.getOrDefault(source, 0) >= maxPendingPerSource) {
            shed.add(forget(oldest(source)));
        }
        if (pending.size() >= maxPending) {
            shed.add(forget(pending.keySet().iterator().next()));
        }
        pending.put(s, source);
        pendingBySource.merge(source, 1, Integer::sum);
        return shed;
    }

    /** {@code s} sent an authentic frame: it leaves the pending connections for an authenticated place, if any. */
    public synchronized Promotion authenticated(Socket s) {
        if (!pending.containsKey(s)) {
            return authenticated.contains(s) ? Promotion.ADMITTED : Promotion.GONE;
        }
        forget(s);
        if (authenticated.size() >= maxAuthenticated) {
            return Promotion.FULL;
        }
        authenticated.add(s);
        return Promotion.ADMITTED;
    }

    /** If {@code s} is still pending, forgets it and returns true: its time to authenticate is up. */
    public synchronized boolean expire(Socket s) {
        if (!pending.containsKey(s)) {
            return false;
        }
        forget(s);
        return true;
    }

    /** {@code s} ended: whatever place it held is free. */
    public synchronized void closed(Socket s) {
        if (pending.containsKey(s)) {
            forget(s);
        }
        authenticated.remove(s);
    }

    public synchronized int pendingCount() {
        return pending.size();
    }

    public synchronized int authenticatedCount() {
        return authenticated.size();
    }

    private Socket oldest(InetAddress source) {
        for (Map.Entry<Socket, InetAddress> e : pending.entrySet()) {
            if (source.equals(e.getValue())) {
                return e.getKey();
            }
        }
        throw new IllegalStateException("the count of " + source + " is out of step with the pending connections");
    }

    private Socket forget(Socket s) {
        InetAddress source = pending.remove(s);
        pendingBySource.computeIfPresent(source, (a, n) -> n == 1 ? null : n - 1);
        return s;
    }

    private static InetAddress source(Socket s) {
        SocketAddress a = s.getRemoteSocketAddress();
        return a instanceof InetSocketAddress i ? i.getAddress() : InetAddress.getLoopbackAddress();
    }
}
