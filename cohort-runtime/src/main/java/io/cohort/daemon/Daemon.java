package io.cohort.daemon;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.DaemonSettings;
import io.cohort.cluster.Member;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code cohortd}: the daemon of one cluster member (PSE's farmd). It wires and owns the parts:
 *
 * <pre>
 *  TCP daemon.port ── cohortd-accept ──► cohortd-conn-N: requests (DaemonRequests), inbound ring link
 *  UDP daemon.port ── cohortd-udp (load servers only) ──► ClusterTable
 *  cohortd-update ── UDP UPDATE every daemon.update_interval and on change ──► every load server
 *  cohortd-ring / cohortd-ring-probe ── TCP ring to the successor; losses ──► LoadServerProxy
 *  cohortd-report-LS ── REPORT requests ──► each load server
 * </pre>
 *
 * Every socket is bound on the member's own address. {@link #start} validates everything first (a bad
 * setting or an address in use is one {@link ClusterConfigException} sentence); {@link #close} says
 * goodbye on the ring and stops every thread. Threads are named and are daemon threads.
 */
public final class Daemon implements AutoCloseable {
    /** Connections the kernel completes before the daemon accepts them (capped by net.core.somaxconn). */
    static final int ACCEPT_BACKLOG = 1024;

    private final ClusterDb db;
    private final Member member;
    private final DaemonLog log;
    private final RefusalLog refusals;
    private final ClusterTable table;
    private final LocalMember local;
    private final RequestServer server;
    private final UpdateReceiver receiver;
    private final UpdateSender sender;
    private final RingKeeper ring;
    private final LoadServerProxy reports;

    private Daemon(ClusterDb db, Member member, ClusterKey key, DaemonLog log, Clock clock) throws ClusterConfigException {
        this.db = db;
        this.member = member;
        this.log = log;
        log.name(member.name());
        DaemonSettings s = db.daemon();
        validate(db, s);
        InetAddress address = resolve(member);
        boolean loadServer = db.loadServers().contains(member.name());
        this.refusals = new RefusalLog(log);
        // The guard's floor is this start: what an earlier run of this daemon accepted cannot be replayed to this one.
        MessageAuthenticator auth = new MessageAuthenticator(key, member.name(), clock, s.maxSkew().toMillis(),
                ReplayGuard.startingAt(s.maxSkew().toMillis(), ReplayGuard.DEFAULT_CAPACITY, clock.millis()));
        Map<String, InetSocketAddress> addresses = new LinkedHashMap<>();
        for (Member m : db.members().values()) {
            addresses.put(m.name(), new InetSocketAddress(m.address(), s.port()));
        }
        Map<String, InetSocketAddress> lsAddresses = new LinkedHashMap<>();
        db.loadServers().forEach(ls -> lsAddresses.put(ls, addresses.get(ls)));

        ServerSocket tcp = null;
        DatagramSocket udpIn = null;
        DatagramSocket udpOut = null;
        try {
            tcp = new ServerSocket();
            tcp.setReuseAddress(true); // a restarted daemon must not wait out TIME_WAIT
            // A burst of connections (a flood, or many launchers at once) must wait in the kernel's queue until
            // accepted and shed by the admission, not overflow it: an overflowing queue drops handshakes, and a
            // client's connection then waits a second or more for its SYN to be sent again.
            tcp.bind(new InetSocketAddress(address, s.port()), ACCEPT_BACKLOG);
            if (loadServer) {
                udpIn = new DatagramSocket(null);
                udpIn.setReuseAddress(true);
                udpIn.bind(new InetSocketAddress(address, s.port()));
            }
            udpOut = new DatagramSocket(new InetSocketAddress(address, 0));
        } catch (IOException e) {
            closeQuietly(tcp);
            closeQuietly(udpIn);
            closeQuietly(udpOut);
            if (e instanceof java.net.BindException && !isLocal(address)) {
                throw new ClusterConfigException("member " + member.name() + "'s address " + address.getHostAddress()
                        + " is not an address of this host; run this daemon on " + member.name()
                        + ", or give --member the name of the member this host is");
            }
            throw new ClusterConfigException("cannot listen on " + address.getHostAddress() + ":" + s.port() + " ("
                    + e.getMessage() + "); is another cohortd running there, or is daemon.port wrong?");
        }
        this.table = loadServer ? new ClusterTable(db, clock) : null;
        DaemonClient client = new DaemonClient(auth, refusals, DaemonClient.DEFAULT_CONNECT_TIMEOUT, DaemonClient.DEFAULT_READ_TIMEOUT,
                new InetSocketAddress(address, 0));
        this.reports = new LoadServerProxy(lsAddresses, client, log);
        this.ring = new RingKeeper(member.name(), db.memberOrder(), addresses, new InetSocketAddress(address, 0), auth, refusals, log,
                reports, s.heartbeat().toMillis(), s.ringTimeout().toMillis());
        UpdateSender[] senderRef = new UpdateSender[1];
        this.local = new LocalMember(member, () -> {
            if (senderRef[0] != null) {
                senderRef[0].poke();
            }
        });
        this.sender = new UpdateSender(local, lsAddresses, udpOut, auth, log, s.updateInterval().toMillis());
        senderRef[0] = sender;
        this.receiver = loadServer ? new UpdateReceiver(udpIn, auth, refusals, table, log) : null;
        this.server = new RequestServer(tcp, auth, refusals, log, s.authTimeout().toMillis());
        new DaemonRequests(db.name(), local, table, ring, refusals, log, new JobScheduling(db, local, log)).register(server);
    }

    /**
     * Starts the daemon of {@code memberName} (null: the member with an address of this host) in cluster
     * {@code db}, signing with {@code key}. Listening sockets are bound before anything is sent, so a
     * daemon's first update can be answered.
     */
    public static Daemon start(ClusterDb db, String memberName, ClusterKey key, DaemonLog log, Clock clock) throws ClusterConfigException {
        Daemon d = new Daemon(db, MemberResolver.resolve(db, memberName), key, log, clock);
        d.server.start();
        if (d.receiver != null) {
            d.receiver.start();
        }
        d.reports.start();
        d.ring.start();
        d.sender.start();
        DaemonSettings s = db.daemon();
        d.log.info("serving member " + d.member.name() + " of cluster " + db.name() + " (version " + db.version() + ") on "
                + d.member.address() + ":" + s.port() + (d.table != null ? " as a load server" : "") + "; load servers "
                + String.join(",", db.loadServers()) + "; ring successors in order " + (db.members().size() == 1 ? "none (a cluster of one)"
                : successors(RingPlan.candidates(db.memberOrder(), d.member.name()))));
        return d;
    }

    /** The first few ring successors for the log, with how many there are: a large cluster's list is no log line. */
    static String successors(List<String> candidates) {
        int shown = Math.min(candidates.size(), 8);
        String first = String.join(",", candidates.subList(0, shown));
        return shown == candidates.size() ? first : first + ",... (" + candidates.size() + " in all)";
    }

    public Member member() {
        return member;
    }

    public boolean isLoadServer() {
        return table != null;
    }

    /** The load server's table; null on other members. */
    public ClusterTable table() {
        return table;
    }

    public RefusalLog refusals() {
        return refusals;
    }

    /** The ring successor now, or null (none reachable, or a cluster of one). */
    public String ringSuccessor() {
        return ring.successor();
    }

    /** Active job ids on this member. */
    public List<String> activeJobs() {
        return local.jobs();
    }

    private static void validate(ClusterDb db, DaemonSettings s) throws ClusterConfigException {
        java.util.Optional<DaemonSettings.Violation> v = s.violation();
        if (v.isPresent()) {
            throw new ClusterConfigException(v.get().token() + ": " + v.get().message());
        }
        if (db.loadServers().isEmpty()) {
            throw new ClusterConfigException("cluster " + db.name() + " names no load_servers; the daemons need at least one");
        }
        for (String ls : db.loadServers()) {
            if (db.member(ls).isEmpty()) {
                throw new ClusterConfigException("load server '" + ls + "' is not a member of cluster " + db.name());
            }
        }
    }

    private static InetAddress resolve(Member m) throws ClusterConfigException {
        try {
            return InetAddress.getByName(m.address());
        } catch (UnknownHostException e) {
            throw new ClusterConfigException("the address '" + m.address() + "' of member " + m.name() + " does not resolve");
        }
    }

    private static void closeQuietly(java.io.Closeable c) {
        if (c != null) {
            try {
                c.close();
            } catch (IOException ignored) {
                // Cleaning up after a failed start.
            }
        }
    }

    /** Stops: RING_BYE to the successor, then every socket and thread. Any thread; idempotent. */
    @Override
    public void close() {
        // Updates stop before the ring says goodbye: an update sealed after the neighbours' down report
        // would bring this member back up on the load servers.
        sender.close();
        ring.close();
        if (receiver != null) {
            receiver.close();
        }
        server.close();
        reports.close();
        log.info("stopped");
    }

    /** Whether {@code address} belongs to one of this host's interfaces (loopback and wildcard included). */
    private static boolean isLocal(java.net.InetAddress address) {
        try {
            return address.isAnyLocalAddress() || address.isLoopbackAddress()
                    || java.net.NetworkInterface.getByInetAddress(address) != null;
        } catch (java.net.SocketException e) {
            return true; // cannot tell: keep the general sentence
        }
    }
}
