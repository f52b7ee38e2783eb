package io.cohort.bench;

import org.HdrHistogram.Histogram;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.Receiver;
import org.jgroups.View;
import org.jgroups.protocols.pbcast.NAKACK2;
import org.jgroups.util.NameCache;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.zip.CRC32C;

/**
 * The JGroups baseline of the PCODE paper's all-to-all broadcast, one process per host: in each round
 * every member multicasts one message of S bytes, then waits for the round's message of each of the
 * N-1 others; "time per call" is the round time over N (a multicast plus N-1 requests are N calls), as
 * in {@link AllToAllBroadcastBenchmark}. The exchange does not use Cohort: it runs over a
 * {@link JChannel} with, in essence, JGroups' udp.xml ({@code jgroups-alltoall.xml}: IP multicast, PING,
 * NAKACK2 as the reliable multicast, UNICAST3, STABLE, GMS, MFC/UFC, FRAG2). A benchmark, not a test.
 *
 * <p>Cohort's launcher only starts the N processes, e.g. {@code cohort run -n 4 --hosts cib1,cib2,cib3,cib4
 * -cp BENCH_CP io.cohort.bench.JGroupsAllToAll --sizes 20,1024 --rounds 1000}; each reads
 * {@code COHORT_RANK}, {@code COHORT_SIZE} and {@code COHORT_JOB_ID}. The job id gives the cluster name,
 * the multicast group (239.255.x.y) and port, so two jobs never mix. It binds to the host's one
 * non-loopback IPv4 address (a site-local one if there are several) or to
 * {@code -Dcohort.bench.jgroups.bind=ADDR} (127.0.0.1 for N processes on loopback).
 *
 * <p>The members wait for a view of N and pass a barrier (each multicasts READY and waits for N-1),
 * then run, per size, W warm-up rounds (max(500, R), as AllToAllJob, unless --warmup W) and R timed rounds
 * ({@code System.nanoTime}, into an HdrHistogram). A message is a 12-byte header (sender rank, sequence number over the run, size) and a
 * body that is a function of the three; the body's CRC32C must match one computed in advance and each
 * sender's sequence numbers must follow each other (NAKACK2 keeps each sender's order), so a wrong or
 * lost message fails the run. Messages of later rounds from faster members are counted on arrival,
 * our own multicasts coming back are ignored, and the main thread sleeps until the receiving thread
 * wakes it. A final barrier keeps every member in the group until all have had everything.
 *
 * <p>Output, one line per size (the driver keeps rank 0's): {@code alltoall impl=jgroups n=N size=S
 * rounds=R median_us=X p99_us=Y samples=K rank=RANK xmit_requests=A xmit_responses=B}, A and B being
 * the NAKACK2 retransmission requests and responses this member sent during that size, warm-up
 * included. Any failure: one line on stderr, exit code 1.
 *
 * <p>Usage: {@code JGroupsAllToAll [--sizes 20,256,1024,8192] [--rounds 1000] [--warmup W]}; the JIT
 * is still warming up after hundreds of rounds, so the first size gains from a larger W. Properties:
 * {@code cohort.bench.jgroups.bind}; {@code cohort.bench.jgroups.timeout}, the seconds to wait for the
 * view or any one message (60); {@code cohort.bench.jgroups.config}, another stack file. Under loss,
 * NAKACK2 as shipped can stall: a receiver learns of a lost last message only from a later one, and
 * while every member waits none comes but one resend of the highest sequence number; if that is lost
 * too, the round waits for STABLE (tens of seconds). {@code resend_last_seqno_max_times} avoids it.
 */
public final class JGroupsAllToAll {
    private static final int HEADER = 12; // sender rank, sequence number, size (or -barrier for READY)
    private static final int START = 1;
    private static final int END = 2;
    /** Held so that the level set on it stays (JUL keeps loggers weakly); JGroups logs through JUL. */
    private static final Logger JGROUPS_LOG = Logger.getLogger("org.jgroups");

    private final int rank;
    private final int n;
    private final int[] sizes;
    private final int rounds;
    private final int warmup;
    private final long timeoutNanos;
    private final Thread main = Thread.currentThread();
    /** Expected body CRC32C per size index, sender and sequence number mod 256. */
    private final int[][][] crcs;
    /** Per sender: how many of its data messages arrived, i.e. the sequence number expected next. */
    private final AtomicIntegerArray next;
    /** Per barrier (START, END) and sender: 1 once its READY arrived. */
    private final AtomicIntegerArray ready;
    private volatile boolean[] inView;
    private volatile String failure;
    private JChannel channel;

    private JGroupsAllToAll(int rank, int n, int[] sizes, int rounds, int warmup, long timeoutNanos) {
        this.rank = rank;
        this.n = n;
        this.sizes = sizes;
        this.rounds = rounds;
        this.warmup = warmup;
        this.timeoutNanos = timeoutNanos;
        this.next = new AtomicIntegerArray(n);
        this.ready = new AtomicIntegerArray(3 * n);
        this.inView = new boolean[n];
        this.crcs = new int[sizes.length][n][256];
        for (int s = 0; s < sizes.length; s++) {
            byte[] body = new byte[sizes[s] - HEADER];
            for (int q = 0; q < n; q++) {
                for (int k = 0; k < 256; k++) {
                    fill(body, 0, q, sizes[s], k);
                    crcs[s][q][k] = crc32c(ByteBuffer.wrap(body));
                }
            }
        }
    }

    public static void main(String[] args) {
        System.setProperty("java.net.preferIPv4Stack", "true"); // before any networking class loads
        JGROUPS_LOG.setLevel(Level.WARNING);
        try {
            int rank = Integer.parseInt(env("COHORT_RANK"));
            int n = Integer.parseInt(env("COHORT_SIZE"));
            String job = env("COHORT_JOB_ID");
            int rounds = 1000;
            int warmup = -1;
            int[] sizes = {20, 256, 1024, 8192};
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                    case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                    case "--sizes" -> sizes = Arrays.stream(args[++i].split(",")).mapToInt(x -> Integer.parseInt(x.trim())).toArray();
                    default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'; see the class javadoc");
                }
            }
            if (n < 2 || rank < 0 || rank >= n || rounds < 1 || Arrays.stream(sizes).anyMatch(x -> x < HEADER + 4)) {
                throw new IllegalArgumentException("need COHORT_SIZE >= 2, 0 <= COHORT_RANK < COHORT_SIZE, --rounds >= 1, sizes >= " + (HEADER + 4));
            }
            long timeout = TimeUnit.SECONDS.toNanos(Long.getLong("cohort.bench.jgroups.timeout", 60));
            warmup = warmup >= 0 ? warmup : Math.max(500, rounds);
            JGroupsAllToAll bench = new JGroupsAllToAll(rank, n, sizes, rounds, warmup, timeout);
            bench.connect(job);
            for (String line : bench.run()) {
                System.out.println(line);
            }
            System.out.flush();
            bench.channel.close();
            System.exit(0);
        } catch (Throwable e) {
            boolean ours = e instanceof IllegalStateException || e instanceof IllegalArgumentException;
            System.err.println("JGroupsAllToAll rank " + System.getenv("COHORT_RANK") + ": " + (ours ? e.getMessage() : e));
            System.exit(1);
        }
    }

    private static String env(String name) {
        String v = System.getenv(name);
        if (v == null || v.isBlank()) {
            throw new IllegalStateException(name + " is not set (start with 'cohort run', or set COHORT_RANK, COHORT_SIZE, COHORT_JOB_ID)");
        }
        return v;
    }

    /** Picks the stack's parameters from the job id and the host, and joins the job's group. */
    private void connect(String job) throws Exception {
        int h = crc32c(ByteBuffer.wrap(job.getBytes(StandardCharsets.UTF_8)));
        System.setProperty("cohort.bench.jgroups.mcast_addr", "239.255." + ((h >>> 8) & 255) + "." + (h & 255));
        System.setProperty("cohort.bench.jgroups.mcast_port", Integer.toString(20000 + (h >>> 16) % 10000));
        if (System.getProperty("cohort.bench.jgroups.bind") == null) {
            System.setProperty("cohort.bench.jgroups.bind", hostAddress());
        }
        channel = new JChannel(System.getProperty("cohort.bench.jgroups.config", "jgroups-alltoall.xml")).name("rank-" + rank);
        channel.setReceiver(new Receiver() {
            @Override
            public void receive(Message msg) {
                onMessage(msg);
            }

            @Override
            public void viewAccepted(View view) {
                boolean[] present = new boolean[n];
                for (Address a : view.getMembers()) {
                    int q = rankOf(a);
                    if (q >= 0 && q < n) {
                        present[q] = true;
                    }
                }
                inView = present;
                LockSupport.unpark(main);
            }
        });
        channel.connect("cohort-alltoall-" + job);
        await(() -> channel.getView().size() >= n && allTrue(inView), () -> "a view of " + n + " members; view is "
                + channel.getView() + ", missing ranks " + missing(inView));
        if (channel.getView().size() != n) {
            throw new IllegalStateException("view has " + channel.getView().size() + " members, expected " + n + ": " + channel.getView());
        }
    }

    /** The host's non-loopback IPv4 address (the only one in a network namespace; else a site-local one). */
    private static String hostAddress() throws Exception {
        List<InetAddress> found = new ArrayList<>();
        for (NetworkInterface nif : NetworkInterface.networkInterfaces().toList()) {
            if (nif.isUp() && !nif.isLoopback()) {
                nif.inetAddresses().filter(a -> a instanceof Inet4Address).forEach(found::add);
            }
        }
        if (found.isEmpty()) {
            throw new IllegalStateException("no non-loopback IPv4 address; set -Dcohort.bench.jgroups.bind=127.0.0.1 for loopback");
        }
        return found.stream().filter(InetAddress::isSiteLocalAddress).findFirst().orElse(found.get(0)).getHostAddress();
    }

    private static int rankOf(Address a) {
        String name = NameCache.get(a);
        return name != null && name.startsWith("rank-") ? Integer.parseInt(name.substring(5)) : -1;
    }

    /** On a JGroups thread: checks a message and counts it; a bad one is kept as the run's failure. */
    private void onMessage(Message msg) {
        ByteBuffer b = ByteBuffer.wrap(msg.getArray(), msg.getOffset(), msg.getLength());
        int from = b.getInt();
        int seq = b.getInt();
        int size = b.getInt();
        if (from == rank) {
            return; // our own multicast, delivered back to us
        }
        if (from < 0 || from >= n) {
            failure = "message from unknown rank " + from + " (" + msg.getSrc() + ")";
        } else if (size < 0) {
            ready.set(-size * n + from, 1); // READY of barrier -size
        } else if (seq != next.get(from)) {
            failure = "from rank " + from + ": message " + seq + " where " + next.get(from) + " was due (lost or reordered)";
        } else if (seq / (warmup + rounds) >= sizes.length || size != sizes[seq / (warmup + rounds)] || msg.getLength() != size) {
            failure = "from rank " + from + ": message " + seq + " has " + msg.getLength() + " bytes, header size " + size;
        } else if (crc32c(b) != crcs[seq / (warmup + rounds)][from][seq & 255]) {
            failure = "from rank " + from + ": message " + seq + " (size " + size + ") has wrong content";
        } else {
            next.set(from, seq + 1);
        }
        LockSupport.unpark(main);
    }

    /** Runs every size; returns the result lines. */
    private List<String> run() throws Exception {
        barrier(START);
        NAKACK2 nakack = channel.getProtocolStack().findProtocol(NAKACK2.class);
        List<String> lines = new ArrayList<>();
        int seq = 0;
        for (int s = 0; s < sizes.length; s++) {
            int size = sizes[s];
            Histogram perCall = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
            long requests = nakack.getXmitRequestsSent();
            long responses = nakack.getXmitResponsesSent();
            for (int round = 0; round < warmup + rounds; round++, seq++) {
                long start = System.nanoTime();
                byte[] m = new byte[size]; // fresh: NAKACK2 keeps it for retransmission
                ByteBuffer.wrap(m).putInt(rank).putInt(seq).putInt(size);
                fill(m, HEADER, rank, size, seq & 255);
                channel.send(new BytesMessage(null, m));
                int want = seq;
                await(() -> allTrue(arrived(want)), () -> "message " + want + " (size " + size + ") from ranks " + missing(arrived(want)));
                if (round >= warmup) {
                    perCall.recordValue(Math.max(1, (System.nanoTime() - start) / n));
                }
            }
            lines.add(String.format(Locale.ROOT, "alltoall impl=jgroups n=%d size=%d rounds=%d median_us=%.2f p99_us=%.2f samples=%d"
                    + " rank=%d xmit_requests=%d xmit_responses=%d", n, size, rounds, perCall.getValueAtPercentile(50) / 1000.0,
                    perCall.getValueAtPercentile(99) / 1000.0, perCall.getTotalCount(), rank,
                    nakack.getXmitRequestsSent() - requests, nakack.getXmitResponsesSent() - responses));
        }
        barrier(END);
        return lines;
    }

    /** Writes, from off to the end of b, the body of sender q's message number seq (mod 256) of this size. */
    private static void fill(byte[] b, int off, int q, int size, int seqMod256) {
        int seed = q * 31 + size * 7 + seqMod256 * 13;
        for (int i = off; i < b.length; i++) {
            b[i] = (byte) (seed + i - off);
        }
    }

    /** Per rank: whether its message number seq has arrived (true for ourselves). */
    private boolean[] arrived(int seq) {
        boolean[] t = new boolean[n];
        for (int q = 0; q < n; q++) {
            t[q] = q == rank || next.get(q) > seq;
        }
        return t;
    }

    /**
     * Multicasts READY for this barrier and waits for the others' READY. At END a member that has left
     * the view counts as ready: it leaves only after END, when every member has had all the data.
     */
    private void barrier(int id) throws Exception {
        channel.send(new BytesMessage(null, ByteBuffer.allocate(HEADER).putInt(rank).putInt(0).putInt(-id).array()));
        boolean[] arrived = new boolean[n];
        await(() -> {
            boolean[] present = inView;
            for (int q = 0; q < n; q++) {
                arrived[q] = q == rank || ready.get(id * n + q) == 1 || (id == END && !present[q]);
            }
            return allTrue(arrived);
        }, () -> "READY of barrier " + (id == START ? "start" : "end") + " from ranks " + missing(arrived));
    }

    private static int crc32c(ByteBuffer b) {
        CRC32C crc = new CRC32C();
        crc.update(b);
        return (int) crc.getValue();
    }

    private static boolean allTrue(boolean[] a) {
        for (boolean x : a) {
            if (!x) {
                return false;
            }
        }
        return true;
    }

    private static List<Integer> missing(boolean[] a) {
        List<Integer> t = new ArrayList<>();
        for (int q = 0; q < a.length; q++) {
            if (!a[q]) {
                t.add(q);
            }
        }
        return t;
    }

    /** Sleeps until done, woken by the receiver; fails on a bad message or after the time-out. */
    private void await(BooleanSupplier done, Supplier<String> what) {
        long deadline = System.nanoTime() + timeoutNanos;
        while (!done.getAsBoolean()) {
            if (failure != null) {
                throw new IllegalStateException(failure);
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("timed out after " + TimeUnit.NANOSECONDS.toSeconds(timeoutNanos) + " s waiting for " + what.get());
            }
            LockSupport.parkNanos(this, 1_000_000);
        }
        if (failure != null) {
            throw new IllegalStateException(failure);
        }
    }
}
