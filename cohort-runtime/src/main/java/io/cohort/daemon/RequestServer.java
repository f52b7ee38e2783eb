package io.cohort.daemon;

import io.cohort.net.ConnectionAdmission;
import java.io.EOFException;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The daemon's TCP side: thread {@code cohortd-accept} accepts connections, and each gets a thread of
 * its own ({@code cohortd-conn-N}) that reads requests, dispatches each to its {@link RequestHandler} by
 * type and writes the answer. A connection may carry many requests; it ends at end of stream, after
 * {@value #IDLE_TIMEOUT_MILLIS} ms without one (unless a handler made it long-lived), or at the first frame
 * that fails authentication (counted and logged by the {@link RefusalLog}, answered only with a
 * {@link RefusalNotice}).
 *
 * <p>Who holds a connection is the {@link ConnectionAdmission}'s business: a connection is pending until
 * its first authentic frame, and one that has none within {@code daemon.auth_timeout} is closed by thread
 * {@code cohortd-auth-deadline} ({@link Refusal#AUTH_TIMEOUT}); too many pending connections shed the
 * oldest ({@link Refusal#SHED}). Both are told with a {@link RefusalNotice} ({@code BUSY} or
 * {@code AUTH_TIMEOUT}) so that a client that lost its place says the daemon is busy or flooded, not that
 * its key is wrong. Authenticated connections have places of their own, which a flood without the key
 * cannot take; when all of them are taken, a newly authenticated one is closed with {@code BUSY} and
 * counted in {@link #turnedAway}.
 */
final class RequestServer implements AutoCloseable {
    static final int IDLE_TIMEOUT_MILLIS = 30_000;
    /** The longest pause between accept attempts while they fail (file descriptors run out). */
    static final long MAX_ACCEPT_PAUSE_MILLIS = 1000;
    private static final long ACCEPT_LOG_NANOS = 60_000_000_000L;

    /** One accepted connection, as handlers see it. Used by its own thread only. */
    static final class Connection {
        private final FrameStream stream;
        private final List<Runnable> onClose = new ArrayList<>();

        Connection(FrameStream stream) {
            this.stream = stream;
        }

        FrameStream stream() {
            return stream;
        }

        /** Runs {@code action} when the connection ends, however it ends (a job's release). */
        void onClose(Runnable action) {
            onClose.add(action);
        }

        /** The job this connection registered (its JOB_REGISTER), or null; only this connection may act for it. */
        String registeredJob;
        /** The partition the registered job runs in. */
        String registeredPartition;

        /**
         * No idle time-out any more: the connection lives as long as its peer keeps it. TCP keepalive
         * ({@link io.cohort.transport.tcp.KeepAlive}) notices a peer whose host died or was cut off, which would
         * otherwise never close the connection.
         */
        void keepOpen() throws java.io.IOException {
            Socket s = stream.socket();
            s.setSoTimeout(0);
            io.cohort.transport.tcp.KeepAlive.on(s);
        }
    }

    private final ServerSocket server;
    private final MessageAuthenticator auth;
    private final RefusalLog refusals;
    private final DaemonLog log;
    private final Map<MessageType, RequestHandler> handlers = new EnumMap<>(MessageType.class);
    private final ConnectionAdmission admission;
    private final long authTimeoutMillis;
    private final java.util.concurrent.ScheduledThreadPoolExecutor deadlines;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicLong connections = new AtomicLong();
    private final AtomicLong turnedAway = new AtomicLong();
    private volatile boolean running = true;
    private Thread acceptor;

    RequestServer(ServerSocket server, MessageAuthenticator auth, RefusalLog refusals, DaemonLog log, long authTimeoutMillis) {
        this(server, auth, refusals, log, authTimeoutMillis, new ConnectionAdmission());
    }

    /** As above, with the bounds of {@code admission} (tests use small ones). */
    RequestServer(ServerSocket server, MessageAuthenticator auth, RefusalLog refusals, DaemonLog log, long authTimeoutMillis,
                  ConnectionAdmission admission) {
        this.server = server;
        this.auth = auth;
        this.refusals = refusals;
        this.log = log;
        this.authTimeoutMillis = authTimeoutMillis;
        this.admission = admission;
        // One thread for every connection's deadline: a deadline is a check and, at most, a close.
        this.deadlines = new java.util.concurrent.ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "cohortd-auth-deadline");
            t.setDaemon(true);
            return t;
        });
        deadlines.setRemoveOnCancelPolicy(true); // an authenticated connection's deadline is not kept until it passes
    }

    /** Registers the handler of {@code type}; before {@link #start} only. */
    RequestServer handle(MessageType type, RequestHandler handler) {
        handlers.put(type, handler);
        return this;
    }

    void start() {
        acceptor = new Thread(this::acceptLoop, "cohortd-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Authenticated connections closed at once because every authenticated place was taken. */
    long turnedAway() {
        return turnedAway.get();
    }

    private void acceptLoop() {
        long pauseMillis = 0;
        long failures = 0;
        long lastLogNanos = System.nanoTime() - 2 * ACCEPT_LOG_NANOS;
        while (running) {
            Socket s;
            try {
                s = server.accept();
                pauseMillis = 0;
            } catch (IOException e) {
                if (!running) {
                    break;
                }
                // Out of file descriptors (EMFILE) fails every accept at once until some close: pausing, with
                // one log line a minute, keeps the thread from spinning a core and filling the log.
                failures++;
                if (System.nanoTime() - lastLogNanos >= ACCEPT_LOG_NANOS) {
                    log.info("accept failed: " + e.getMessage() + (failures > 1 ? " (" + failures + " failures so far)" : "")
                            + "; pausing up to " + MAX_ACCEPT_PAUSE_MILLIS + " ms between attempts");
                    lastLogNanos = System.nanoTime();
                }
                pauseMillis = Math.min(MAX_ACCEPT_PAUSE_MILLIS, Math.max(10, pauseMillis * 2));
                try {
                    Thread.sleep(pauseMillis);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    break;
                }
                continue;
            }
            if (!running) {
                closeQuietly(s); // accepted while closing
                break;
            }
            for (Socket old : admission.admit(s)) {
                refusals.refuse(Refusal.SHED, old.getRemoteSocketAddress(), null);
                refuse(old, new RefusalNotice(RefusalNotice.Reason.BUSY, 0));
            }
            open.add(s);
            java.util.concurrent.ScheduledFuture<?> deadline = deadlines.schedule(() -> {
                if (admission.expire(s)) {
                    refusals.refuse(Refusal.AUTH_TIMEOUT, s.getRemoteSocketAddress(), authTimeoutMillis + " ms");
                    refuse(s, new RefusalNotice(RefusalNotice.Reason.AUTH_TIMEOUT, 0));
                }
            }, authTimeoutMillis, java.util.concurrent.TimeUnit.MILLISECONDS);
            Thread t = new Thread(() -> {
                try {
                    serve(s, deadline);
                } finally {
                    open.remove(s);
                    admission.closed(s);
                }
            }, "cohortd-conn-" + connections.incrementAndGet());
            t.setDaemon(true);
            t.start();
        }
    }

    /**
     * Closes a connection that has not authenticated (or has no place), saying why first. Any thread: the
     * connection's own thread, blocked reading it, ends with the close. The notice is a few bytes into an
     * empty send buffer (nothing was ever sent on a connection that did not authenticate), so the write does
     * not block; the output is shut before the close so that the notice goes out ahead of the end of stream.
     */
    private static void refuse(Socket s, RefusalNotice notice) {
        try {
            s.getOutputStream().write(notice.encode());
            s.shutdownOutput();
        } catch (IOException ignored) {
            // The peer is gone already: nothing to tell.
        }
        closeQuietly(s);
    }

    private void serve(Socket socket, java.util.concurrent.Future<?> deadline) {
        Connection c;
        try {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(IDLE_TIMEOUT_MILLIS);
            c = new Connection(new FrameStream(socket, auth, refusals).sendingNotices());
        } catch (IOException e) {
            closeQuietly(socket);
            return;
        }
        boolean admitted = false;
        try (FrameStream stream = c.stream()) {
            for (;;) {
                DaemonMessage m = stream.read();
                if (!admitted) {
                    ConnectionAdmission.Promotion p = admission.authenticated(socket);
                    if (p == ConnectionAdmission.Promotion.GONE) {
                        return; // shed or timed out while its frame was read: closed and told already
                    }
                    deadline.cancel(false);
                    if (p == ConnectionAdmission.Promotion.FULL) {
                        turnedAway.incrementAndGet();
                        refuse(socket, new RefusalNotice(RefusalNotice.Reason.BUSY, 0));
                        return;
                    }
                    admitted = true;
                }
                RequestHandler h = handlers.get(m.type());
                if (h == null) {
                    refusals.refuse(Refusal.UNEXPECTED, stream.remote(), m.type() + " from '"
                            + MessageAuthenticator.printable(m.sender()) + "' is not a request this daemon answers");
                    stream.write(MessageType.ERROR, MessageBody.empty().put("message", m.type() + " is not a request this daemon answers"));
                    continue;
                }
                MessageBody answer;
                try {
                    answer = h.handle(m, c);
                } catch (RequestRefusedException | MalformedMessageException e) {
                    stream.write(MessageType.ERROR, MessageBody.empty().put("message", e.getMessage()));
                    continue;
                } catch (RuntimeException e) { // a handler's bug or a limit: one ERROR line, never a dead thread
                    log.info("request " + m.type() + " from '" + MessageAuthenticator.printable(m.sender()) + "' failed: " + e);
                    stream.write(MessageType.ERROR, MessageBody.empty().put("message", m.type() + " failed on this daemon: " + e.getMessage()));
                    continue;
                }
                if (answer == RequestHandler.TAKEN) {
                    return;
                }
                SealedFrame sealed;
                try {
                    sealed = stream.sealAnswer(MessageType.OK, answer);
                } catch (RuntimeException e) { // an answer too long for one frame: say so rather than lose the thread
                    log.info("the answer to " + m.type() + " from '" + MessageAuthenticator.printable(m.sender())
                            + "' cannot be sent: " + e.getMessage());
                    stream.write(MessageType.ERROR, MessageBody.empty().put("message", m.type()
                            + " failed on this daemon: its answer does not fit one frame"));
                    continue;
                }
                stream.write(sealed);
            }
        } catch (EOFException | SocketTimeoutException | MalformedMessageException e) {
            // The peer is done, idle too long, or sent a frame already counted and logged.
        } catch (IOException e) {
            // Reset or closed under us: the peer is gone.
        } finally {
            c.onClose.forEach(Runnable::run);
        }
    }

    @Override
    public void close() {
        running = false;
        closeQuietly(server);
        Thread a = acceptor;
        if (a != null) {
            try {
                // The JDK closes a listening socket's descriptor only when the thread blocked in accept has
                // left it: wait, so that a connection attempt after close() is refused, not accepted and reset.
                a.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        deadlines.shutdownNow();
        open.forEach(RequestServer::closeQuietly);
    }

    private static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // Closing anyway.
        }
    }
}
