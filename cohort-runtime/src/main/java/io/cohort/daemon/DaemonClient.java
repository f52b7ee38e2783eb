package io.cohort.daemon;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.Member;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Authenticated requests to daemons, for the CLI, the launcher and the daemons themselves: one TCP
 * connection per request (or held open, for {@link #registerJob}), with connect and read time-outs.
 * Responses are checked like any daemon message (MAC, skew, replay).
 *
 * <p>Thread-safe: any thread may call any method.
 */
public final class DaemonClient {
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(2);
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(5);

    private final MessageAuthenticator auth;
    private final RefusalLog refusals;
    private final int connectMillis;
    private final int readMillis;
    private final InetSocketAddress bindAddress;

    /** A client that signs as {@code senderName} (a member's name, or {@code user@host} for the CLI). */
    public DaemonClient(ClusterKey key, String senderName, ClusterDb db) {
        this(new MessageAuthenticator(key, senderName, Clock.systemUTC(), db.daemon().maxSkew().toMillis(),
                        new ReplayGuard(db.daemon().maxSkew().toMillis(), 10_000)),
                // A command reports a refused answer in its own one line (describe); no daemon-style log line.
                new RefusalLog(new DaemonLog(senderName, new java.io.PrintStream(java.io.OutputStream.nullOutputStream()),
                        Clock.systemUTC())), DEFAULT_CONNECT_TIMEOUT,
                DEFAULT_READ_TIMEOUT, null);
    }

    DaemonClient(MessageAuthenticator auth, RefusalLog refusals, Duration connect, Duration read, InetSocketAddress bindAddress) {
        this.auth = auth;
        this.refusals = refusals;
        this.connectMillis = (int) connect.toMillis();
        this.readMillis = (int) read.toMillis();
        this.bindAddress = bindAddress;
    }

    /** A daemon's request address: its member's address and the cluster's daemon port. */
    public static InetSocketAddress addressOf(ClusterDb db, String member) {
        Member m = db.member(member).orElseThrow(() -> new IllegalArgumentException("no member " + member));
        return new InetSocketAddress(m.address(), db.daemon().port());
    }

    /**
     * Sends one request and returns the body of the OK. A daemon's ERROR is a {@link RequestRefusedException};
     * anything else that goes wrong is an {@link IOException} whose message {@link #describe} turns into words.
     */
    public MessageBody request(ClusterDb db, String member, MessageType type, MessageBody body) throws IOException, RequestRefusedException {
        return request(member, addressOf(db, member), type, body);
    }

    /** As {@link #request(ClusterDb, String, MessageType, MessageBody)}, to {@code member}'s daemon at {@code to}. */
    public MessageBody request(String member, InetSocketAddress to, MessageType type, MessageBody body) throws IOException, RequestRefusedException {
        return withOneRetry(() -> {
            try (FrameStream s = open(member, to)) {
                s.write(type, body);
                return answer(s.read());
            }
        });
    }

    /** The longest a client waits for its clock to pass a restarted daemon's start before asking again. */
    static final long MAX_START_WAIT_MILLIS = 5000;
    /** The pause before asking again a daemon that shed the connection (busy, or a flood's victim). */
    static final long BUSY_RETRY_MILLIS = 200;

    /** One attempt at a request: connect, send, read the answer. */
    @FunctionalInterface
    interface Attempt<T> {
        T run() throws IOException, RequestRefusedException;
    }

    /**
     * Runs {@code attempt}, and once more when the daemon closed it with a notice that a second attempt can
     * get past: {@code BUSY} (a flood shed the connection before it was read), after {@value #BUSY_RETRY_MILLIS}
     * ms; {@code PREDATES_START} (the daemon restarted a moment ago and this clock is behind its own), once
     * this clock has passed its start, if that is within {@value #MAX_START_WAIT_MILLIS} ms. Neither notice
     * means the request was applied, and the second attempt is sealed afresh (a new nonce and time).
     */
    static <T> T withOneRetry(Attempt<T> attempt) throws IOException, RequestRefusedException {
        try {
            return attempt.run();
        } catch (RefusalNoticeException e) {
            RefusalNotice n = e.notice();
            long wait = switch (n.reason()) {
                case BUSY -> BUSY_RETRY_MILLIS;
                case PREDATES_START -> n.retryAfterMillis() <= MAX_START_WAIT_MILLIS ? n.retryAfterMillis() : -1;
                default -> -1;
            };
            if (wait < 0) {
                throw e;
            }
            try {
                Thread.sleep(wait); // waiting out a time the daemon named: there is no event to wait on
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw e;
            }
            return attempt.run();
        }
    }

    /** A connection to {@code member}'s daemon at {@code to}: what is sent is sealed for it, what comes back must be from it. */
    FrameStream open(String member, InetSocketAddress to) throws IOException {
        if (to.isUnresolved()) {
            throw new UnknownHostException(to.getHostString());
        }
        Socket socket = new Socket();
        try {
            if (bindAddress != null) {
                socket.bind(bindAddress);
            }
            socket.connect(to, connectMillis);
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(readMillis);
            return new FrameStream(socket, auth, refusals, member).acceptingLongAnswers().readingNotices();
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    static MessageBody answer(DaemonMessage reply) throws RequestRefusedException, IOException {
        if (reply.type() == MessageType.ERROR) {
            throw new RequestRefusedException(reply.body().get("message", "the daemon refused the request"));
        }
        if (reply.type() != MessageType.OK) {
            throw new IOException("answered with " + reply.type() + " instead of OK");
        }
        return reply.body();
    }

    /** How long an answer from a later load server waits for an earlier one that has not answered yet. */
    static final long STATUS_GRACE_MILLIS = 250;

    /**
     * The cluster table from the load servers, asked all at once. The first load server in the database's
     * order that answers is preferred (so the view is the same from call to call), but a load server that
     * hangs (it accepts connections and never answers) costs only {@value #STATUS_GRACE_MILLIS} ms once a
     * later one has answered, not its read time-out. Only when none answers is the result a failure
     * naming each.
     */
    public StatusTable status(ClusterDb db) throws ClusterUnreachableException {
        List<String> servers = db.loadServers();
        if (servers.isEmpty()) {
            throw new ClusterUnreachableException("no load server of cluster " + db.name() + " answered: the database names none");
        }
        int n = servers.size();
        java.util.concurrent.BlockingQueue<Object[]> answers = new java.util.concurrent.LinkedBlockingQueue<>();
        for (int i = 0; i < n; i++) {
            int index = i;
            String server = servers.get(i);
            Thread t = new Thread(() -> {
                Object a;
                try {
                    a = StatusTable.fromBody(request(db, server, MessageType.STATUS, MessageBody.empty()));
                } catch (IOException | RequestRefusedException | RuntimeException e) {
                    a = server + " (" + describe(e) + ")";
                }
                answers.add(new Object[] {index, a});
            }, "cohort-status-" + server);
            t.setDaemon(true);
            t.start();
        }
        Object[] results = new Object[n];
        long graceEnds = Long.MAX_VALUE;
        try {
            for (int received = 0; received < n; ) {
                long wait = graceEnds == Long.MAX_VALUE ? Long.MAX_VALUE : graceEnds - System.nanoTime();
                Object[] a = wait == Long.MAX_VALUE ? answers.take()
                        : answers.poll(Math.max(0, wait), java.util.concurrent.TimeUnit.NANOSECONDS);
                if (a != null) {
                    results[(int) a[0]] = a[1];
                    received++;
                    if (a[1] instanceof StatusTable && graceEnds == Long.MAX_VALUE) {
                        graceEnds = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(STATUS_GRACE_MILLIS);
                    }
                }
                StatusTable preferred = preferred(results, a == null);
                if (preferred != null) {
                    return preferred;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterUnreachableException("interrupted while asking the load servers of cluster " + db.name());
        }
        List<String> failures = new ArrayList<>();
        for (Object r : results) {
            failures.add((String) r);
        }
        throw new ClusterUnreachableException("no load server of cluster " + db.name() + " answered: "
                + String.join(", ", failures) + "; " + advice(failures));
    }

    /**
     * The first answer in the database's order whose earlier servers all failed; after the grace period,
     * the first answer there is at all.
     */
    private static StatusTable preferred(Object[] results, boolean graceOver) {
        for (Object r : results) {
            if (r instanceof StatusTable t) {
                return t;
            }
            if (r == null && !graceOver) {
                return null; // an earlier server may still answer
            }
        }
        return null;
    }

    /**
     * Registers job {@code jobId} of {@code user} with a member's daemon: the job counts as active there
     * until the registration is closed (explicitly, or because this process died and its connection closed).
     */
    public JobRegistration registerJob(ClusterDb db, String member, String jobId, String user) throws IOException, RequestRefusedException {
        return registerJob(db, member, jobId, user, null);
    }

    /**
     * As {@link #registerJob(ClusterDb, String, String, String)}, for a job in {@code partition}: the daemon
     * checks the user against the partition's access list in its own database, and later SCHEDULE requests
     * on this registration get that partition's scheduling.
     */
    public JobRegistration registerJob(ClusterDb db, String member, String jobId, String user, String partition)
            throws IOException, RequestRefusedException {
        return registerJob(db, member, jobId, user, partition, notice -> {
        });
    }

    /**
     * As {@link #registerJob(ClusterDb, String, String, String, String)}; {@code notices} hears, in a
     * sentence each, when the registration was lost and renewed or given up (see {@link JobRegistration}).
     */
    public JobRegistration registerJob(ClusterDb db, String member, String jobId, String user, String partition,
                                       java.util.function.Consumer<String> notices) throws IOException, RequestRefusedException {
        JobRegistration r = new JobRegistration(this, db, member, jobId, user, partition, notices);
        r.start(r.connect());
        return r;
    }

    /**
     * A held job registration; {@link #close} releases the job (JOB_RELEASE, then the connection closes).
     *
     * <p>The job counts on the member while the connection lives. If the daemon closes it while the
     * job runs (it was restarted, or its host was unreachable long enough for TCP keepalive to end the
     * connection), a reader thread notices and registers the job again, every
     * {@link #RENEW_INTERVAL_MILLIS} ms until it succeeds or the registration is closed. A daemon that
     * refuses for {@link #RENEW_REFUSED_MILLIS} ms (its partition no longer admits the user, say) is
     * given up: the job runs on, uncounted there. Before, a restarted daemon forgot the job, and new
     * jobs could be placed on its slots.
     */
    public static final class JobRegistration implements AutoCloseable {
        /** Between attempts to register again with a daemon that dropped the registration. */
        static final long RENEW_INTERVAL_MILLIS = 2000;
        /**
         * How long refusals are retried: the old connection may still be open at a daemon that did not
         * notice it die (TCP keepalive ends it within about 11 s), and it refuses the same job twice.
         */
        static final long RENEW_REFUSED_MILLIS = 30_000;

        private final DaemonClient client;
        private final ClusterDb db;
        private final String member;
        private final String jobId;
        private final String user;
        private final String partition;
        private final java.util.function.Consumer<String> notices;
        private final Object lock = new Object();
        /** The connection the job is registered on; null while it is being renewed. Guarded by lock. */
        private Link link;
        private volatile boolean closed;

        /** One registered connection and the answers its reader thread took off it. */
        private record Link(FrameStream stream, java.util.concurrent.BlockingQueue<Object> answers) {
        }

        private JobRegistration(DaemonClient client, ClusterDb db, String member, String jobId, String user, String partition,
                                java.util.function.Consumer<String> notices) {
            this.client = client;
            this.db = db;
            this.member = member;
            this.jobId = jobId;
            this.user = user;
            this.partition = partition;
            this.notices = notices;
        }

        public String jobId() {
            return jobId;
        }

        /** Opens a connection and registers the job on it. */
        private FrameStream connect() throws IOException, RequestRefusedException {
            return withOneRetry(this::connectOnce);
        }

        private FrameStream connectOnce() throws IOException, RequestRefusedException {
            FrameStream s = client.open(member, addressOf(db, member));
            try {
                MessageBody body = MessageBody.empty().put("job", jobId).put("user", user);
                if (partition != null) {
                    body.put("partition", partition);
                }
                s.write(MessageType.JOB_REGISTER, body);
                answer(s.read());
                s.socket().setSoTimeout(0); // the reader waits for as long as the job runs
                io.cohort.transport.tcp.KeepAlive.on(s.socket()); // a host that died ends the connection too
                return s;
            } catch (IOException | RequestRefusedException | RuntimeException e) {
                s.close();
                throw e;
            }
        }

        /** Holds the registration made on {@code s}, unless it was closed meanwhile (then {@code s} is closed, releasing it). */
        private boolean start(FrameStream s) {
            Link l = new Link(s, new java.util.concurrent.LinkedBlockingQueue<>());
            synchronized (lock) {
                if (closed) {
                    s.close();
                    return false;
                }
                link = l;
            }
            Thread t = new Thread(() -> readAnswers(l), "cohort-registration-" + member);
            t.setDaemon(true);
            t.start();
            return true;
        }

        /** The reader thread: answers to the waiting request; at the end of the connection, renews it. */
        private void readAnswers(Link l) {
            IOException end;
            try {
                for (;;) {
                    l.answers.add(l.stream.read());
                }
            } catch (IOException e) {
                end = e;
            }
            l.answers.add(end); // a request waiting for its answer fails now
            l.stream.close();
            synchronized (lock) {
                if (link == l) {
                    link = null;
                }
            }
            if (!closed) {
                renew(end);
            }
        }

        private void renew(IOException why) {
            // End of stream here is the daemon closing a connection it had accepted (it stopped), not a refusal.
            String how = why instanceof EOFException ? "it closed the connection" : describe(why);
            notices.accept("the daemon of " + member + " dropped job " + jobId + "'s registration (" + how
                    + "); registering it again");
            long refusedSince = 0;
            while (!closed) {
                synchronized (lock) {
                    try {
                        lock.wait(RENEW_INTERVAL_MILLIS); // woken by close()
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (closed) {
                    return;
                }
                try {
                    if (start(connect())) {
                        notices.accept("job " + jobId + " is registered again with the daemon of " + member);
                    }
                    return;
                } catch (RequestRefusedException e) {
                    long now = System.nanoTime();
                    if (refusedSince == 0) {
                        refusedSince = now;
                    } else if (now - refusedSince > RENEW_REFUSED_MILLIS * 1_000_000L) {
                        notices.accept("the daemon of " + member + " keeps refusing job " + jobId + " (" + e.getMessage()
                                + "); the job runs on, but that member does not count it");
                        return;
                    }
                } catch (IOException | RuntimeException e) {
                    refusedSince = 0; // not up yet: keep trying while the job runs
                }
            }
        }

        /**
         * Asks the daemon to schedule peer process {@code pid} of this job as the partition it registered
         * with allows; returns what it granted ("nice 0", "fifo 10").
         */
        public synchronized String schedule(long pid, io.cohort.cluster.SchedulingRequest request)
                throws IOException, RequestRefusedException {
            Link l;
            synchronized (lock) {
                l = link;
            }
            if (l == null) {
                throw new IOException("the daemon of " + member + " dropped the job's registration; it is being renewed");
            }
            l.answers.removeIf(a -> a instanceof DaemonMessage); // late answers to requests that timed out
            l.stream.write(MessageType.SCHEDULE, MessageBody.empty().put("job", jobId).put("pid", pid)
                    .put("policy", request.policy().name().toLowerCase(java.util.Locale.ROOT)).put("nice", request.nice())
                    .put("rt", request.rtPriority()));
            return answer(awaitAnswer(l)).get("granted", "");
        }

        private DaemonMessage awaitAnswer(Link l) throws IOException {
            Object a;
            try {
                a = l.answers.poll(client.readMillis, java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while waiting for the daemon of " + member);
            }
            if (a == null) {
                throw new SocketTimeoutException("no answer within " + client.readMillis + " ms");
            }
            if (a instanceof IOException e) {
                throw e;
            }
            return (DaemonMessage) a;
        }

        @Override
        public synchronized void close() {
            Link l;
            synchronized (lock) {
                closed = true;
                l = link;
                link = null;
                lock.notifyAll(); // a renewal in progress stops
            }
            if (l == null) {
                return;
            }
            try (FrameStream s = l.stream) {
                s.write(MessageType.JOB_RELEASE, MessageBody.empty().put("job", jobId));
                awaitAnswer(l);
            } catch (IOException | RuntimeException ignored) {
                // The daemon releases the job when the connection closes anyway.
            }
        }
    }

    /**
     * A failure in a few words: "connection refused", "no route to host", and, when the daemon took the
     * connection and then did not answer, whether it was busy or flooded (shed the connection, no answer in
     * time) or refused the request itself (a different cluster key, clocks apart), as its
     * {@link RefusalNotice} says.
     */
    public static String describe(Exception e) {
        if (e instanceof RefusalNoticeException n) {
            return describe(n.notice());
        }
        if (e instanceof ConnectException) {
            return "connection refused";
        }
        if (e instanceof SocketTimeoutException) {
            if (e.getMessage() != null && e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("connect")) {
                return "no answer to the connection attempt in time";
            }
            return "no answer in time: the daemon is " + BUSY_WORDS + ", or hangs";
        }
        if (e instanceof NoRouteToHostException) {
            return "no route to host";
        }
        if (e instanceof UnknownHostException) {
            return "unknown host " + e.getMessage();
        }
        if (e instanceof EOFException || (e instanceof java.net.SocketException && "Connection reset".equals(e.getMessage()))) {
            // A daemon of this version says why it closes; one that says nothing is stopping, or is an older
            // daemon (which closed so on a different cluster key or clock skew too), or the notice was lost.
            return "closed the connection without an answer: the daemon is " + BUSY_WORDS + ", or stopping";
        }
        if (e instanceof MalformedMessageException m) {
            Refusal r = m.refusal();
            if (r == Refusal.MALFORMED || r == Refusal.FOREIGN) {
                return "answered with something that is not a cohortd frame: " + m.getMessage()
                        + "; is daemon.port another service's?";
            }
            if (r == Refusal.BAD_MAC) {
                return "answered under a different cluster key (" + m.getMessage() + ")";
            }
            if (r == Refusal.SLOW) {
                return "answered too slowly (" + m.getMessage() + "); is the link to it congested?";
            }
            if (r == Refusal.UNEXPECTED) {
                return "answered as someone else (" + m.getMessage() + "); check that member's address in the database";
            }
            if (r == Refusal.STALE) {
                return "answered with a timestamp further from this clock than daemon.max_skew; synchronise the clocks"
                        + " (NTP)";
            }
            return "answered with a message that is not valid: " + m.getMessage();
        }
        if (e instanceof RequestRefusedException) {
            return "refused: " + e.getMessage();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** The words every description of a busy or flooded daemon has ({@link #describe}). */
    static final String BUSY_WORDS = "busy or flooded";

    /**
     * What to do when no daemon took a request, given each one's failure ({@link #describe}d): wait, when
     * each was busy or flooded; otherwise check the daemons and the key.
     */
    public static String advice(java.util.Collection<String> failures) {
        return !failures.isEmpty() && failures.stream().allMatch(f -> f.contains(BUSY_WORDS))
                ? "try again in a few seconds; the daemons' logs name who floods them"
                : "check that their cohortd runs and has the same cluster key";
    }

    /** What a daemon's notice means, in the words {@code cohort} prints (docs/cluster.md lists them). */
    static String describe(RefusalNotice n) {
        return switch (n.reason()) {
            case BUSY -> "the daemon is " + BUSY_WORDS + ": it closed the connection before reading the request"
                    + " (too many connections waiting to authenticate, or every place taken)";
            case AUTH_TIMEOUT -> "the daemon is " + BUSY_WORDS + ": the request did not reach it within daemon.auth_timeout";
            case BAD_MAC -> "refused the request: wrong cluster key (its MAC does not verify with the daemon's key)";
            case STALE -> "refused the request: clock skew (its timestamp is further from the daemon's clock than"
                    + " daemon.max_skew); synchronise the clocks (NTP)";
            case REPLAYED -> "refused the request as a replay of an earlier one";
            case PREDATES_START -> "refused the request: clock skew (it is time-stamped " + n.retryAfterMillis()
                    + " ms before the daemon started, which a replay from before a restart is too); synchronise the"
                    + " clocks (NTP)";
        };
    }
}
