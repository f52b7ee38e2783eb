package io.cohort.profile;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * This peer's profile in {@code cohort run --profile}'s default mode, mpiP's way: every measured call
 * is added to a cell per (kind, operation, algorithm, communicator, peer, size class) in memory, and
 * the cells are written once, as {@link SummaryFormat} text, when the peer exits. Nothing is written
 * per message and no Flight Recorder runs: a call costs a look-up of its operation and an array
 * probe in tables of the calling thread's own, without a lock, and two clock reads if it is one of
 * the calls timed ({@link #ALWAYS_TIMED}, {@link #TIME_EVERY}).
 *
 * <p>Call sites: finding the caller's frame is a stack walk on the calling thread, between two of its
 * messages. Walks made now and then never get compiled and cost 0.1-0.2 ms each on a small machine
 * (the first one far more); walking for every call over a millisecond, or for every operation every
 * 10 ms, cost a program of small messages a third of its time. So a thread walks for at most one
 * call of an operation per {@link #SITE_INTERVAL_NANOS} and one of any per {@link #WALK_GAP_NANOS}
 * (at most 10 walks a second; measured in a 4-peer job on 2 cores, a walk took 0.3 ms on average
 * and up to several ms, so 140 walks in 5 s cost a peer about 1%), and each call is credited to the site its
 * operation's latest walk found: systematic sampling, so each site's calls and time are estimates,
 * good where a site has many calls. The per-operation and per-peer totals are exact.
 *
 * <p>Threads: any thread may record; each has its own tables, which only it changes (see {@link Table}).
 */
public final class Summary {
    /** What kind of call a cell counts. */
    public enum Kind {
        SEND, RECEIVE, PROBE, WAIT, COLLECTIVE, REGION;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        public static Kind ofLabel(String label) {
            for (Kind k : values()) {
                if (k.label().equals(label)) {
                    return k;
                }
            }
            return null;
        }
    }

    /**
     * Every call of a kind is timed until a thread has made this many of that kind; after that, one
     * in {@link #TIME_EVERY}. A clock read costs about 30 ns on the virtual machines this runs on,
     * two per call were most of what a summary profile cost, and counts and bytes stay exact: only
     * times become estimates (each cell's timed calls scaled up to all of its calls).
     */
    public static final int ALWAYS_TIMED = 64;
    /** After {@link #ALWAYS_TIMED} calls of a kind, a thread times one call in this many (a power of two). */
    public static final int TIME_EVERY = 8;
    /** A span's start when its call is not timed. */
    static final long UNTIMED = Long.MIN_VALUE;

    /** A thread finds the call site of at most one call of an operation in this time... */
    public static final long SITE_INTERVAL_NANOS = 1_000_000_000;
    /** ...and of at most one call of any operation in this time. */
    public static final long WALK_GAP_NANOS = 100_000_000;

    private static final List<Table> TABLES = new CopyOnWriteArrayList<>();
    private static final ThreadLocal<Table> TABLE = new ThreadLocal<>() { // not withInitial: no lambda to link
        @Override
        protected Table initialValue() {
            Table t = new Table();
            TABLES.add(t);
            return t;
        }
    };
    private static final Map<ProtocolKey, long[]> PROTOCOL = new ConcurrentHashMap<>();
    /** Dropped traffic per transport, reason and unit: the count, added to under the array's lock. */
    private static final Map<DropKey, long[]> DROPPED = new ConcurrentHashMap<>();
    private static final Object JOB_LOCK = new Object();
    private static long jobStartNanos;
    private static long jobStartEpochNanos;
    private static long jobEndNanos = -1;
    private static boolean jobStarted;
    private static volatile String[] peerInfo;
    /** What the launcher told this peer: the job's size, id and host as given ({@link Profiling#launchedAs}), or null. */
    private static volatile String[] launched;

    private Summary() {
    }

    /** Forgets everything recorded: for tests, which share one JVM. */
    static void clear() {
        for (Table t : TABLES) {
            t.clear();
        }
        PROTOCOL.clear();
        DROPPED.clear();
        synchronized (JOB_LOCK) {
            jobStarted = false;
            jobEndNanos = -1;
        }
        peerInfo = null;
        launched = null;
    }

    /**
     * A last walk long enough ago that the next call walks: the call's end time is read before its
     * table or operation may be made, so "now minus the interval" would be too recent by a hair.
     */
    private static long neverWalked() {
        return System.nanoTime() - 2 * (SITE_INTERVAL_NANOS + WALK_GAP_NANOS);
    }

    /**
     * The start of a call of {@code kind} on this thread: the clock if this call is to be timed,
     * else {@link #UNTIMED} (see {@link #ALWAYS_TIMED}).
     */
    static long start(Kind kind) {
        int n = ++TABLE.get().calls[kind.ordinal()];
        return n <= ALWAYS_TIMED || (n & (TIME_EVERY - 1)) == 0 ? System.nanoTime() : UNTIMED;
    }

    /** Adds one call started at {@code start} ({@link #start}), ending now. */
    static void finish(Kind kind, String operation, String algorithm, int communicator, int peer, long bytes, long start) {
        if (start == UNTIMED) {
            call(kind, operation, algorithm, communicator, peer, bytes, -1, 0);
        } else {
            long end = System.nanoTime();
            call(kind, operation, algorithm, communicator, peer, bytes, end - start, end);
        }
    }

    /** Adds a call of no duration (a message handed over); reads the clock only where a timed call would. */
    static void instant(Kind kind, String operation, int communicator, int peer, long bytes) {
        long start = start(kind);
        call(kind, operation, "", communicator, peer, bytes, start == UNTIMED ? -1 : 0, start);
    }

    /** Adds one call that took {@code nanos} and ended now. {@code bytes} below 0: the call has no size. */
    static void call(Kind kind, String operation, String algorithm, int communicator, int peer, long bytes, long nanos) {
        call(kind, operation, algorithm, communicator, peer, bytes, nanos, System.nanoTime());
    }

    /**
     * Adds one call that took {@code nanos} and ended at {@code end} ({@link System#nanoTime()});
     * {@code nanos} below 0: a call that was not timed, counted without a time (and no walk).
     */
    static void call(Kind kind, String operation, String algorithm, int communicator, int peer, long bytes, long nanos,
                     long end) {
        Table t = TABLE.get();
        Op o = t.op(kind, operation == null ? "" : operation);
        if (nanos >= 0 && end - o.lastWalk >= SITE_INTERVAL_NANOS && end - t.lastWalk >= WALK_GAP_NANOS) {
            walk(t, o, end);
        }
        o.add(algorithm == null ? "" : algorithm, communicator, peer, bytes, nanos);
    }

    /** The rare part of a call, out of line so that the common part stays small enough to inline. */
    private static void walk(Table t, Op o, long end) {
        o.lastWalk = end;
        t.lastWalk = end;
        StackWalker.StackFrame f = CallSites.ofCurrentThread();
        if (f != null) {
            o.current = t.site(o.kind, o.operation, f);
        }
    }

    /**
     * All {@code calls}' time from the {@code timed} ones' {@code nanos}; without a timed call, the
     * operation's mean over its other cells ({@code meanNanos}) stands in.
     */
    static long estimate(long nanos, long calls, long timed, double meanNanos) {
        if (timed >= calls) {
            return nanos;
        }
        return timed > 0 ? Math.round((double) nanos * calls / timed) : Math.round(meanNanos * calls);
    }

    static void region(String name, long nanos) {
        call(Kind.REGION, name, "", -1, -1, -1, nanos);
    }

    static void nack(String transport, int peer, long count) {
        protocol(transport, peer, 0, count);
    }

    static void retransmission(String transport, int peer, long bytes) {
        long[] c = protocolCell(transport, peer);
        synchronized (c) {
            c[1]++;
            c[2] += Math.max(0, bytes);
        }
    }

    static void stall(String transport, int peer, long nanos) {
        long[] c = protocolCell(transport, peer);
        synchronized (c) {
            c[3]++;
            c[4] += nanos;
        }
    }

    static void dropped(String transport, String reason, String unit, long count) {
        DropKey k = new DropKey(transport, reason, unit);
        long[] c = DROPPED.get(k);
        if (c == null) {
            DROPPED.putIfAbsent(k, new long[1]);
            c = DROPPED.get(k);
        }
        synchronized (c) {
            c[0] += count;
        }
    }

    private static void protocol(String transport, int peer, int index, long n) {
        long[] c = protocolCell(transport, peer);
        synchronized (c) {
            c[index] += n;
        }
    }

    private static long[] protocolCell(String transport, int peer) {
        ProtocolKey k = new ProtocolKey(transport, peer);
        long[] c = PROTOCOL.get(k);
        if (c == null) {
            PROTOCOL.putIfAbsent(k, new long[5]);
            c = PROTOCOL.get(k);
        }
        return c;
    }

    static void jobStarted() {
        synchronized (JOB_LOCK) {
            if (!jobStarted) {
                jobStarted = true;
                jobStartNanos = System.nanoTime();
                java.time.Instant now = java.time.Instant.now();
                jobStartEpochNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
            }
        }
    }

    /** The job's time ends; the first call wins. */
    static void jobFinished() {
        synchronized (JOB_LOCK) {
            if (jobStarted && jobEndNanos < 0) {
                jobEndNanos = System.nanoTime();
            }
        }
    }

    /**
     * This process's id: the name of {@code /proc/self}, which is cheap; {@code ProcessHandle}'s first
     * use builds the JDK's process reaper, a thread pool, where that link does not exist.
     */
    private static long pid() {
        try {
            return Long.parseLong(Files.readSymbolicLink(Path.of("/proc/self")).toString());
        } catch (IOException | RuntimeException e) {
            return ProcessHandle.current().pid();
        }
    }

    static void launchedAs(String size, String jobId, String host) {
        launched = new String[] {size == null ? "" : size, jobId == null ? "" : jobId, host == null ? "" : host};
    }

    /** The job's size as the launcher gave it, or one more than {@code rank} where it is missing or not a number. */
    private static String launcherSize(String given, int rank) {
        try {
            int n = Integer.parseInt(given);
            return Integer.toString(n > rank ? n : rank + 1);
        } catch (NumberFormatException e) {
            return Integer.toString(rank + 1);
        }
    }

    static void peerInfo(int rank, int size, String jobId, String host) {
        peerInfo = new String[] {Integer.toString(rank), Integer.toString(size), jobId == null ? "" : jobId,
                host == null ? "" : host, Profiling.application(), Long.toString(pid())};
    }

    /**
     * Writes everything recorded so far to {@code file}, whole or not at all (a temporary file moved
     * into place). {@code sampler} (may be null) adds its method samples.
     */
    static void write(Path file, StackSampler sampler, int rankIfUnknown) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            w.write("# Cohort profile summary of one peer (cohort run --profile); read it with: cohort prof DIR\n");
            line(w, SummaryFormat.FORMAT, SummaryFormat.MAGIC, SummaryFormat.VERSION);
            String[] info = peerInfo;
            if (info == null) {
                // The program never called Cohort.init(): what the launcher told this peer, so that the
                // file still reads as one of its job's (a size of 0 would make the reader reject it).
                String[] l = launched != null ? launched : new String[] {"", "", ""};
                info = new String[] {Integer.toString(rankIfUnknown), launcherSize(l[0], rankIfUnknown), l[1], l[2],
                        Profiling.application(), Long.toString(pid())};
            }
            line(w, SummaryFormat.PEER, (Object[]) info);
            synchronized (JOB_LOCK) {
                if (jobStarted) {
                    boolean closed = jobEndNanos >= 0;
                    long end = closed ? jobEndNanos : System.nanoTime();
                    line(w, SummaryFormat.JOB, jobStartEpochNanos, end - jobStartNanos, closed ? 1 : 0);
                }
            }
            line(w, SummaryFormat.SITES, SITE_INTERVAL_NANOS);
            line(w, SummaryFormat.TIMING, ALWAYS_TIMED, TIME_EVERY);
            if (sampler != null) {
                sampler.writeTo(w);
            }
            for (Table t : TABLES) {
                t.writeTo(w);
            }
            List<Map.Entry<ProtocolKey, long[]>> protocol = new ArrayList<>(PROTOCOL.entrySet());
            for (Map.Entry<ProtocolKey, long[]> e : protocol) {
                long[] c = e.getValue();
                synchronized (c) {
                    line(w, SummaryFormat.PROTOCOL, e.getKey().transport, e.getKey().peer, c[0], c[1], c[2], c[3], c[4]);
                }
            }
            for (Map.Entry<DropKey, long[]> e : new ArrayList<>(DROPPED.entrySet())) {
                long[] c = e.getValue();
                synchronized (c) {
                    DropKey k = e.getKey();
                    line(w, SummaryFormat.DROPPED, k.transport, k.reason, k.unit, c[0]);
                }
            }
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    static void line(Writer w, String record, Object... fields) throws IOException {
        w.write(record);
        for (Object f : fields) {
            w.write('\t');
            w.write(f instanceof String s ? SummaryFormat.escape(s) : String.valueOf(f));
        }
        w.write('\n');
    }

    /**
     * Keys are classes with their own equals and hashCode, not records: a record's are linked through
     * an invokedynamic bootstrap that spins method handles, tens of milliseconds of a peer's CPU.
     */
    private static final class ProtocolKey {
        final String transport;
        final int peer;

        ProtocolKey(String transport, int peer) {
            this.transport = transport == null ? "" : transport;
            this.peer = peer;
        }

        @Override
        public int hashCode() {
            return 31 * transport.hashCode() + peer;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ProtocolKey k && k.peer == peer && k.transport.equals(transport);
        }
    }

    private static final class DropKey {
        final String transport;
        final String reason;
        final String unit;

        DropKey(String transport, String reason, String unit) {
            this.transport = transport == null ? "" : transport;
            this.reason = reason == null ? "" : reason;
            this.unit = unit == null ? "" : unit;
        }

        @Override
        public int hashCode() {
            return (31 * transport.hashCode() + reason.hashCode()) * 31 + unit.hashCode();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof DropKey k && k.transport.equals(transport) && k.reason.equals(reason) && k.unit.equals(unit);
        }
    }

    /**
     * One thread's cells, per kind and operation. Only the owning thread adds to them, without a
     * lock; the writer at exit reads them from another thread (the operations' maps are concurrent,
     * the cell arrays published through volatile fields), so a thread still running then may be
     * written a few calls short. Sites change under the table's lock, on walks only.
     */
    private static final class Table {
        @SuppressWarnings("unchecked")
        private final Map<String, Op>[] ops = new Map[Kind.values().length];
        private final Map<SiteKey, long[]> sites = new HashMap<>();
        /** Calls per kind started on the owning thread, for {@link #start}; only that thread touches it. */
        final int[] calls = new int[Kind.values().length];
        /** The operation each kind last called; only the owning thread touches it. */
        private final Op[] last = new Op[Kind.values().length];
        /** When the owning thread last walked its stack, for any operation; only that thread touches it. */
        long lastWalk = neverWalked();

        Table() {
            for (int i = 0; i < ops.length; i++) {
                ops[i] = new ConcurrentHashMap<>();
            }
        }

        /**
         * The operation's cells. The library names operations with constant strings and a thread
         * mostly calls one operation of a kind after another, so the last one of each kind is
         * checked by identity before the map is asked.
         */
        Op op(Kind kind, String operation) {
            int k = kind.ordinal();
            Op o = last[k];
            if (o != null && o.operation == operation) {
                return o;
            }
            Map<String, Op> m = ops[k];
            o = m.get(operation);
            if (o == null) {
                o = new Op(kind, operation);
                m.put(operation, o);
            }
            last[k] = o;
            return o;
        }

        double meanNanos(Kind kind, String operation) {
            Op o = ops[kind.ordinal()].get(operation);
            return o == null ? 0 : o.meanNanos();
        }

        /** The cell of a walked call's site: {calls, timed nanos, walks, timed calls}, its walks counted. */
        synchronized long[] site(Kind kind, String operation, StackWalker.StackFrame f) {
            SiteKey key = new SiteKey(kind, operation, f.getClassName(), f.getMethodName(), f.getLineNumber());
            long[] s = sites.get(key);
            if (s == null) {
                s = new long[4];
                sites.put(key, s);
            }
            s[2]++;
            return s;
        }

        synchronized void clear() {
            for (Map<String, Op> m : ops) {
                m.clear();
            }
            Arrays.fill(last, null);
            Arrays.fill(calls, 0);
            sites.clear();
            lastWalk = neverWalked();
        }

        void writeTo(Writer w) throws IOException {
            for (Map<String, Op> m : ops) {
                for (Op o : m.values()) {
                    o.writeTo(w);
                }
            }
            synchronized (this) {
                for (Map.Entry<SiteKey, long[]> e : sites.entrySet()) {
                    SiteKey k = e.getKey();
                    long[] s = e.getValue();
                    line(w, SummaryFormat.SITE, k.kind.label(), k.operation, k.className, k.method, k.line, s[0],
                            estimate(s[1], s[0], s[3], meanNanos(k.kind, k.operation)), s[2]);
                }
            }
        }
    }

    /**
     * One operation's cells on one thread, in an open-addressing table keyed by (algorithm,
     * communicator, peer, size class) packed into a long: a call costs a multiplication and an array
     * probe or two, and allocates nothing once its cell exists. Also the operation's call-site state:
     * each call is credited to the site its latest walk found (calls before the first walk wait for
     * it).
     */
    private static final class Op {
        final Kind kind;
        final String operation;
        long lastWalk = neverWalked();
        long[] current;
        long waitingCalls;
        long waitingNanos;
        long waitingTimed;
        private String[] algorithms = {""};
        private long[] keys = new long[16];
        private volatile Cell[] cells = new Cell[16];
        private int size;

        Op(Kind kind, String operation) {
            this.kind = kind;
            this.operation = operation;
        }

        void add(String algorithm, int communicator, int peer, long bytes, long nanos) {
            int alg = algorithm(algorithm);
            int sizeClass = SummaryFormat.sizeClass(bytes);
            long key = ((long) communicator << 40) ^ ((long) (peer + 1) << 16) ^ ((long) (sizeClass + 1) << 8) ^ alg;
            Cell c = find(key, alg, communicator, peer, sizeClass);
            c.count++;
            long timed = 0;
            if (nanos >= 0) {
                timed = 1;
                c.timed++;
                c.nanos += nanos;
                if (nanos > c.maxNanos) {
                    c.maxNanos = nanos;
                }
            } else {
                nanos = 0;
            }
            if (bytes >= 0) {
                c.bytes += bytes;
                if (bytes < c.minBytes) {
                    c.minBytes = bytes;
                }
                if (bytes > c.maxBytes) {
                    c.maxBytes = bytes;
                }
            }
            long[] site = current;
            if (site == null) {
                waitingCalls++;
                waitingNanos += nanos;
                waitingTimed += timed;
            } else {
                site[0] += 1 + waitingCalls;
                site[1] += nanos + waitingNanos;
                site[3] += timed + waitingTimed;
                waitingCalls = 0;
                waitingNanos = 0;
                waitingTimed = 0;
            }
        }

        private int algorithm(String a) {
            String[] as = algorithms;
            for (int i = 0; i < as.length; i++) {
                if (as[i] == a || as[i].equals(a)) {
                    return i;
                }
            }
            algorithms = Arrays.copyOf(as, as.length + 1);
            algorithms[as.length] = a;
            return as.length;
        }

        private static int slot(long key, int mask) {
            return (int) ((key * 0x9E3779B97F4A7C15L) >>> 40) & mask;
        }

        private Cell find(long key, int alg, int communicator, int peer, int sizeClass) {
            long[] k = keys;
            Cell[] cs = cells;
            int mask = k.length - 1;
            for (int i = slot(key, mask); ; i = (i + 1) & mask) {
                Cell c = cs[i];
                if (c == null) {
                    break;
                }
                if (k[i] == key && c.algorithmIndex == alg && c.communicator == communicator && c.peer == peer
                        && c.sizeClass == sizeClass) {
                    return c;
                }
            }
            if (2 * (size + 1) > k.length) {
                grow();
            }
            Cell c = new Cell(algorithms[alg], alg, communicator, peer, sizeClass);
            put(keys, cells, key, c);
            size++;
            return c;
        }

        private static void put(long[] k, Cell[] cs, long key, Cell c) {
            int mask = k.length - 1;
            int i = slot(key, mask);
            while (cs[i] != null) {
                i = (i + 1) & mask;
            }
            k[i] = key;
            cs[i] = c;
        }

        private void grow() {
            long[] k = new long[keys.length * 2];
            Cell[] cs = new Cell[k.length];
            long[] oldKeys = keys;
            Cell[] old = cells;
            for (int i = 0; i < old.length; i++) {
                if (old[i] != null) {
                    put(k, cs, oldKeys[i], old[i]);
                }
            }
            keys = k;
            cells = cs;
        }

        /** The mean time of this operation's timed calls, or 0 if none was timed. */
        double meanNanos() {
            long n = 0;
            long t = 0;
            for (Cell c : cells) {
                if (c != null) {
                    n += c.timed;
                    t += c.nanos;
                }
            }
            return n == 0 ? 0 : (double) t / n;
        }

        void writeTo(Writer w) throws IOException {
            double mean = meanNanos();
            for (Cell c : cells) {
                if (c != null) {
                    line(w, SummaryFormat.COMM, kind.label(), operation, c.algorithm, c.communicator, c.peer, c.sizeClass,
                            c.count, c.bytes, estimate(c.nanos, c.count, c.timed, mean), c.maxBytes < 0 ? -1 : c.minBytes,
                            c.maxBytes, c.maxNanos, c.timed);
                }
            }
        }
    }

    private static final class Cell {
        final String algorithm;
        final int algorithmIndex;
        final int communicator;
        final int peer;
        final int sizeClass;
        long count;
        /** The calls whose time was taken; {@link #nanos} and {@link #maxNanos} are theirs. */
        long timed;
        long bytes;
        long nanos;
        long maxNanos;
        long minBytes = Long.MAX_VALUE;
        long maxBytes = -1;

        Cell(String algorithm, int algorithmIndex, int communicator, int peer, int sizeClass) {
            this.algorithm = algorithm;
            this.algorithmIndex = algorithmIndex;
            this.communicator = communicator;
            this.peer = peer;
            this.sizeClass = sizeClass;
        }
    }

    private static final class SiteKey {
        final Kind kind;
        final String operation;
        final String className;
        final String method;
        final int line;

        SiteKey(Kind kind, String operation, String className, String method, int line) {
            this.kind = kind;
            this.operation = operation;
            this.className = className;
            this.method = method;
            this.line = line;
        }

        @Override
        public int hashCode() {
            return (((kind.ordinal() * 31 + operation.hashCode()) * 31 + className.hashCode()) * 31 + method.hashCode()) * 31 + line;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof SiteKey k && k.kind == kind && k.line == line && k.operation.equals(operation)
                    && k.className.equals(className) && k.method.equals(method);
        }
    }
}
