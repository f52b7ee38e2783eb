package io.cohort.daemon;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The failure-detection ring (PSE): each daemon holds a TCP connection to its successor, the first
 * member after it in the database's order that it can reach.
 *
 * <pre>
 *   a ──► b ──► c ──► d ──► (a)        RING_HELLO both ways, then HEARTBEAT every daemon.heartbeat:
 *   ▲                        │         the predecessor sends, the successor echoes
 *   └────────────────────────┘
 * </pre>
 *
 * A neighbour is <b>lost</b> when its connection closes or resets (a killed daemon's kernel closes it
 * at once) or when it is silent longer than {@code daemon.ring_timeout}. Both sides notice: the
 * predecessor on its successor link (thread {@code cohortd-ring}), the successor on the inbound link
 * (the connection's thread, {@link #servePredecessor}). Whoever notices reports the member down to
 * every load server at once ({@link LoadServerProxy}); the predecessor then connects to the next member
 * so the ring heals. Thread {@code cohortd-ring-probe} tries, every {@value #RECONNECT_MILLIS} ms, the
 * members between this daemon and its current successor; when one answers (a restarted daemon) the
 * ring thread moves to it, says RING_BYE {@code moved} to the old successor (so it reports nothing), and
 * the member is reported up.
 *
 * <p>A member is reported down only if this daemon had a ring link with it before (a member not started
 * yet is not news), and up only if this daemon had reported it down.
 */
final class RingKeeper implements AutoCloseable {
    static final long RECONNECT_MILLIS = 1000;

    private record Link(String member, int index, FrameStream stream) {
    }

    private final String self;
    private final List<String> candidates;
    private final Map<String, InetSocketAddress> addresses;
    private final InetSocketAddress bindAddress;
    private final MessageAuthenticator auth;
    private final RefusalLog refusals;
    private final DaemonLog log;
    private final LoadServerProxy reports;
    private final int heartbeatMillis;
    private final int timeoutMillis;
    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private final Set<String> reportedDown = ConcurrentHashMap.newKeySet();
    private final AtomicReference<Link> closer = new AtomicReference<>();
    private final Object sleeper = new Object();
    private volatile int successorIndex = -1;
    private volatile boolean running = true;
    /**
     * When a ring thread last found that this daemon itself had not run for longer than the ring
     * time-out (stopped, a VM paused, a long collector pause); {@link Long#MIN_VALUE} if never. Its
     * neighbours rightly dropped it meanwhile, and the links they closed are not their deaths.
     */
    private volatile long stalledAtNanos = Long.MIN_VALUE;
    private Thread ring;
    private Thread probe;

    RingKeeper(String self, List<String> order, Map<String, InetSocketAddress> addresses, InetSocketAddress bindAddress,
               MessageAuthenticator auth, RefusalLog refusals, DaemonLog log, LoadServerProxy reports,
               long heartbeatMillis, long timeoutMillis) {
        this.self = self;
        this.candidates = RingPlan.candidates(order, self);
        this.addresses = addresses;
        this.bindAddress = bindAddress;
        this.auth = auth;
        this.refusals = refusals;
        this.log = log;
        this.reports = reports;
        this.heartbeatMillis = (int) heartbeatMillis;
        this.timeoutMillis = (int) timeoutMillis;
    }

    void start() {
        if (candidates.isEmpty()) {
            return; // a cluster of one has no ring
        }
        ring = new Thread(this::ringLoop, "cohortd-ring");
        probe = new Thread(this::probeLoop, "cohortd-ring-probe");
        ring.setDaemon(true);
        probe.setDaemon(true);
        ring.start();
        probe.start();
    }

    /** The current successor, or null (tests and status). */
    String successor() {
        int i = successorIndex;
        return i < 0 ? null : candidates.get(i);
    }

    // ---- the successor side: thread cohortd-ring ----

    private void ringLoop() {
        while (running) {
            Link link = null;
            for (int i = 0; i < candidates.size() && running && link == null; i++) {
                link = connect(candidates.get(i), i);
                if (link == null && seen.contains(candidates.get(i))) {
                    lost(candidates.get(i), "unreachable from " + self);
                }
            }
            if (link == null) {
                successorIndex = -1;
                pause(RECONNECT_MILLIS);
                continue;
            }
            while (link != null) {
                linked(link.member(), "successor");
                successorIndex = link.index();
                link = serveSuccessor(link);
            }
            successorIndex = -1;
        }
    }

    /** Heartbeats on {@code link} until it is lost (null) or a closer member answered (its link). */
    private Link serveSuccessor(Link link) {
        FrameStream s = link.stream();
        long lastHeard = System.nanoTime();
        long nextBeat = lastHeard;
        long lastTurn = lastHeard;
        try {
            for (;;) {
                if (!running) {
                    bye(s, "stopping");
                    return null;
                }
                long turn = System.nanoTime();
                if (stalled(turn - lastTurn)) {
                    lastHeard = turn; // the successor's silence while this daemon did not run is not its own
                }
                lastTurn = turn;
                Link c = closer.getAndSet(null);
                if (c != null) {
                    if (c.index() < link.index()) {
                        bye(s, "moved");
                        log.info("ring: " + c.member() + " answers again; moving from " + link.member() + " to it");
                        return c;
                    }
                    bye(c.stream(), "moved"); // a plain close would look like this member's death to that one
                }
                long now = System.nanoTime();
                if (now - nextBeat >= 0) {
                    s.write(MessageType.HEARTBEAT, MessageBody.empty());
                    nextBeat = now + heartbeatMillis * 1_000_000L;
                }
                s.socket().setSoTimeout((int) Math.max(1, (nextBeat - now) / 1_000_000L));
                try {
                    DaemonMessage m = s.read();
                    lastHeard = System.nanoTime();
                    if (m.type() == MessageType.RING_BYE) {
                        lost(link.member(), "its daemon stopped");
                        s.close();
                        return null;
                    }
                } catch (SocketTimeoutException e) {
                    if (stalled(System.nanoTime() - lastTurn)) {
                        lastHeard = System.nanoTime(); // this daemon did not run: its successor's silence is not news
                    }
                    long silent = (System.nanoTime() - lastHeard) / 1_000_000L;
                    if (silent > timeoutMillis) {
                        lost(link.member(), "silent for " + silent + " ms (daemon.ring_timeout " + timeoutMillis + " ms)");
                        s.close();
                        return null;
                    }
                }
            }
        } catch (EOFException e) {
            stalled(System.nanoTime() - lastTurn);
            lostLink(link.member(), "ring connection closed");
        } catch (IOException e) {
            stalled(System.nanoTime() - lastTurn);
            lostLink(link.member(), "ring connection failed (" + e.getMessage() + ")");
        } catch (MalformedMessageException e) {
            lost(link.member(), "sent an invalid ring frame");
        }
        s.close();
        return null;
    }

    // ---- thread cohortd-ring-probe ----

    private void probeLoop() {
        while (running) {
            pause(RECONNECT_MILLIS);
            int current = successorIndex;
            if (current <= 0 || closer.get() != null) {
                continue; // already the closest, or the ring thread is (re)connecting itself
            }
            for (int i = 0; i < current && running; i++) {
                Link l = connect(candidates.get(i), i);
                if (l != null) {
                    Link old = closer.getAndSet(l);
                    if (old != null) {
                        bye(old.stream(), "moved"); // not a close: the other side would report this member down
                    }
                    break;
                }
            }
        }
    }

    /** Connects to {@code member} and exchanges RING_HELLO; null if it cannot be reached or does not answer. */
    private Link connect(String member, int index) {
        java.net.Socket socket = new java.net.Socket();
        try {
            socket.bind(bindAddress);
            socket.connect(addresses.get(member), Math.min(timeoutMillis, 1000));
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(timeoutMillis);
            // A successor that refuses the hello (flooded, or restarted with its clock ahead of this one) says why
            // in a notice: not a malformed frame to log, a connection to try again later.
            FrameStream s = new FrameStream(socket, auth, refusals, member).readingNotices();
            s.write(MessageType.RING_HELLO, MessageBody.empty().put("to", member));
            DaemonMessage m = s.read();
            if (m.type() != MessageType.RING_HELLO || !m.sender().equals(member)) {
                refusals.refuse(Refusal.UNEXPECTED, s.remote(), m.type() + " from '" + MessageAuthenticator.printable(m.sender())
                        + "' where " + member + "'s RING_HELLO was expected");
                s.close();
                return null;
            }
            return new Link(member, index, s);
        } catch (IOException | MalformedMessageException e) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // Not connected.
            }
            return null;
        }
    }

    // ---- the predecessor side: a connection thread ----

    /** Serves an inbound link from a predecessor until it ends; runs on the connection's thread. */
    MessageBody servePredecessor(DaemonMessage hello, RequestServer.Connection c) {
        FrameStream s = c.stream();
        String pred = hello.sender();
        if (!addresses.containsKey(pred) || pred.equals(self)) {
            refusals.refuse(Refusal.UNEXPECTED, s.remote(), "RING_HELLO from '" + MessageAuthenticator.printable(pred) + "', not a member");
            s.close();
            return RequestHandler.TAKEN;
        }
        // A link counts from the predecessor's first heartbeat: before it, the predecessor may have
        // given up on this connection already (it waited in this daemon's backlog while the daemon
        // did not run), and its end is no sign of the predecessor's death.
        boolean established = false;
        long last = System.nanoTime();
        try {
            s.write(MessageType.RING_HELLO, MessageBody.empty().put("to", pred));
            s.socket().setSoTimeout(timeoutMillis);
            for (;;) {
                DaemonMessage m = s.read();
                long now = System.nanoTime();
                stalled(now - last); // a frame after longer than the time-out: this daemon did not read in time
                last = now;
                if (m.type() == MessageType.HEARTBEAT) {
                    if (!established) {
                        established = true;
                        linked(pred, "predecessor");
                    }
                    s.write(MessageType.HEARTBEAT, MessageBody.empty());
                } else if (m.type() == MessageType.RING_BYE) {
                    if ("stopping".equals(m.body().get("reason"))) {
                        lost(pred, "its daemon stopped");
                    }
                    break;
                }
            }
        } catch (SocketTimeoutException e) {
            lost(pred, "silent for more than " + timeoutMillis + " ms (daemon.ring_timeout)");
        } catch (EOFException e) {
            // An end more than the time-out after the last frame: this daemon did not read in time.
            stalled(System.nanoTime() - last);
            if (established) {
                lostLink(pred, "ring connection closed");
            }
        } catch (IOException e) {
            stalled(System.nanoTime() - last);
            if (established) {
                lostLink(pred, "ring connection failed (" + e.getMessage() + ")");
            }
        } catch (MalformedMessageException e) {
            lost(pred, "sent an invalid ring frame");
        }
        s.close();
        return RequestHandler.TAKEN;
    }

    // ---- shared ----

    private void linked(String member, String role) {
        seen.add(member);
        log.info("ring: " + role + " " + member + " linked");
        if (reportedDown.remove(member)) {
            reports.report(member, false, auth.clock().millis(), "ring link to " + self + " restored");
        }
    }

    /**
     * Whether a gap of {@code nanos} in a ring thread's turns means this daemon did not run for
     * longer than the ring time-out; if so, notes when, and logs it.
     */
    private boolean stalled(long nanos) {
        if (nanos <= timeoutMillis * 1_000_000L) {
            return false;
        }
        stalledAtNanos = System.nanoTime();
        log.info("ring: this daemon did not run for " + nanos / 1_000_000 + " ms (more than daemon.ring_timeout "
                + timeoutMillis + " ms); its neighbours will have dropped it, and it links again");
        return true;
    }

    /**
     * A link to {@code member} ended (closed or failed, not silent): lost, unless this daemon did
     * not run shortly before, when the neighbour dropped it and is not dead for that (if it is,
     * reconnecting fails, or its other neighbour reports it).
     */
    private void lostLink(String member, String why) {
        long since = System.nanoTime() - stalledAtNanos;
        if (stalledAtNanos != Long.MIN_VALUE && since < 2L * timeoutMillis * 1_000_000L) {
            log.info("ring: link with " + member + " ended (" + why + ") after this daemon did not run; not reporting it");
            return;
        }
        lost(member, why);
    }

    private void lost(String member, String why) {
        if (running && reportedDown.add(member)) {
            long at = auth.clock().millis();
            log.info("ring: lost " + member + ": " + why + "; reporting it down");
            reports.report(member, true, at, why);
        }
    }

    private void bye(FrameStream s, String reason) {
        try {
            s.write(MessageType.RING_BYE, MessageBody.empty().put("reason", reason));
        } catch (IOException ignored) {
            // It is gone already.
        }
        s.close();
    }

    private void pause(long millis) {
        synchronized (sleeper) {
            if (running) {
                try {
                    sleeper.wait(millis); // a retry period; close() wakes it
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** Says RING_BYE {@code stopping} to the successor (so the ring reports this member down at once) and stops. */
    @Override
    public void close() {
        running = false;
        synchronized (sleeper) {
            sleeper.notifyAll();
        }
        Thread r = ring;
        if (r != null) {
            try {
                r.join(heartbeatMillis + 500L); // it says goodbye at its next tick
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Link c = closer.getAndSet(null);
        if (c != null) {
            c.stream().close();
        }
    }
}
