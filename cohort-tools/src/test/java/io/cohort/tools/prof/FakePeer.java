package io.cohort.tools.prof;

import jdk.jfr.Recording;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * One simulated peer of a profiled job, as a test fixture: a tiny "library" (its package starts with
 * {@code io.cohort.}, so its frames are skipped for call sites) that records the contract's events
 * for whatever a user program in another package calls. Each operation lasts a few tens of
 * microseconds of real time, spun, so durations are never zero.
 */
public final class FakePeer {
    static final String JOB_ID = "c0ffee01";
    private static final String[] ENABLED = {ProfileEvents.SEND, ProfileEvents.RECEIVE, ProfileEvents.PROBE,
            ProfileEvents.WAIT, ProfileEvents.COLLECTIVE, ProfileEvents.REGION, ProfileEvents.PEER_INFO,
            ProfileEvents.JOB, ProfileEvents.NACK, ProfileEvents.RETRANSMISSION, ProfileEvents.FLOW_CONTROL_STALL,
            ProfileEvents.DROPPED_TRAFFIC};
    /** Operations longer than this sleep through most of their time; a sleep overshoots by some tens of microseconds. */
    private static final long PARK_ABOVE_NANOS = 300_000;

    private final int rank;
    private final int size;
    private final long[] sent;
    private final long[] received;

    private FakePeer(int rank, int size) {
        this.rank = rank;
        this.size = size;
        this.sent = new long[size];
        this.received = new long[size];
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return size;
    }

    /** Options of one simulated peer's recording. */
    public record Options(String application, String host, boolean closeJob, boolean sampleMethods, boolean peerInfo, String jobId) {
        public static Options of(String application, String host) {
            return new Options(application, host, true, false, true, JOB_ID);
        }

        /** The peer never reaches the end of the job (no {@code io.cohort.Job} event), as if it crashed. */
        public Options crashed() {
            return new Options(application, host, false, sampleMethods, peerInfo, jobId);
        }

        public Options sampled() {
            return new Options(application, host, closeJob, true, peerInfo, jobId);
        }

        public Options withoutPeerInfo() {
            return new Options(application, host, closeJob, sampleMethods, false, jobId);
        }

        public Options job(String id) {
            return new Options(application, host, closeJob, sampleMethods, peerInfo, id);
        }
    }

    /**
     * Runs {@code program} as rank {@code rank} of {@code size} under a recording of its own, and dumps
     * it to {@code dir/<application>.prof.<rank>.jfr}, as a profiled peer would.
     */
    public static Path record(Path dir, int rank, int size, Options o, Consumer<FakePeer> program) throws IOException {
        return record(dir, rank, size, o, () -> {
        }, program);
    }

    /**
     * As {@link #record(Path, int, int, Options, Consumer)}, running {@code beforeInit} once the recording
     * has started but before the peer's first event (where a peer process would wait for the rest of its
     * job to be ready).
     */
    public static Path record(Path dir, int rank, int size, Options o, Runnable beforeInit, Consumer<FakePeer> program)
            throws IOException {
        Path file = dir.resolve(o.application() + ".prof." + rank + ".jfr");
        try (Recording r = new Recording()) {
            for (String e : ENABLED) {
                r.enable(e).withStackTrace().withThreshold(Duration.ZERO);
            }
            r.start();
            loadEventClasses();
            beforeInit.run();
            // Methods are sampled from the peer's program on, not while it waited for its start.
            if (o.sampleMethods()) {
                r.enable(ProfileEvents.EXECUTION_SAMPLE).withPeriod(Duration.ofMillis(10));
            }
            if (o.peerInfo()) {
                FixtureEvents.PeerInfo info = new FixtureEvents.PeerInfo();
                info.rank = rank;
                info.size = size;
                info.jobId = o.jobId();
                info.host = o.host();
                info.application = o.application();
                info.pid = ProcessHandle.current().pid();
                info.commit();
            }
            FixtureEvents.Job job = new FixtureEvents.Job();
            job.begin();
            job.rank = rank;
            program.accept(new FakePeer(rank, size));
            if (o.closeJob()) {
                job.end();
                job.commit();
            }
            r.stop();
            r.dump(file);
        }
        return file;
    }

    /**
     * Loads every event class now, while nothing is timed: the first use of a class of events (loading
     * it, JFR instrumenting it) is slow on a busy machine and would otherwise stretch the first operation.
     */
    private static void loadEventClasses() {
        for (jdk.jfr.Event e : new jdk.jfr.Event[] {new FixtureEvents.Send(), new FixtureEvents.Receive(), new FixtureEvents.Probe(),
                new FixtureEvents.Wait(), new FixtureEvents.Collective(), new FixtureEvents.Region(), new FixtureEvents.PeerInfo(),
                new FixtureEvents.Job(), new FixtureEvents.Nack(), new FixtureEvents.Retransmission(), new FixtureEvents.FlowControlStall(),
                new FixtureEvents.DroppedTraffic()}) {
            e.isEnabled();
        }
    }

    public void send(int to, int tag, long bytes) {
        send(to, tag, bytes, "send", 20);
    }

    /** A send named {@code operation} (e.g. {@code isend}) that lasts about {@code micros}. */
    public void send(int to, int tag, long bytes, String operation, long micros) {
        FixtureEvents.Send e = new FixtureEvents.Send();
        e.begin();
        spin(micros);
        e.peer = to;
        e.tag = tag;
        e.bytes = bytes;
        e.sequence = sent[to]++;
        e.operation = operation;
        e.end();
        e.commit();
    }

    /** A receive from {@code from}: FIFO per pair, so the k-th message from a peer has its sequence k. */
    public void recv(int from, int tag, long bytes) {
        recv(from, tag, bytes, "recv", 40);
    }

    public void recv(int from, int tag, long bytes, String operation, long micros) {
        FixtureEvents.Receive e = new FixtureEvents.Receive();
        e.begin();
        spin(micros);
        e.peer = from;
        e.tag = tag;
        e.bytes = bytes;
        e.sequence = received[from]++;
        e.operation = operation;
        e.end();
        e.commit();
    }

    public void probe(int from) {
        FixtureEvents.Probe e = new FixtureEvents.Probe();
        e.begin();
        spin(10);
        e.peer = from;
        e.tag = -1;
        e.found = true;
        e.end();
        e.commit();
    }

    public void waitAll(int requests) {
        waitAll(requests, 10);
    }

    public void waitAll(int requests, long micros) {
        FixtureEvents.Wait e = new FixtureEvents.Wait();
        e.begin();
        spin(micros);
        e.operation = "waitAll";
        e.requests = requests;
        e.end();
        e.commit();
    }

    public void collective(String operation, long bytes) {
        collective(operation, bytes, 60);
    }

    public void collective(String operation, long bytes, long micros) {
        FixtureEvents.Collective e = new FixtureEvents.Collective();
        e.begin();
        spin(micros);
        e.operation = operation;
        e.algorithm = "recursive-doubling";
        e.root = -1;
        e.bytes = bytes;
        e.size = size;
        e.end();
        e.commit();
    }

    public void region(String name, Runnable body) {
        FixtureEvents.Region e = new FixtureEvents.Region();
        e.begin();
        body.run();
        e.name = name;
        e.end();
        e.commit();
    }

    /** What a transport dropped over the job for one reason, as a peer reports it at its end. */
    public void dropped(String transport, String reason, String unit, long count) {
        FixtureEvents.DroppedTraffic d = new FixtureEvents.DroppedTraffic();
        d.transport = transport;
        d.reason = reason;
        d.unit = unit;
        d.count = count;
        d.commit();
    }

    public void protocolTrouble(String transport, int peer) {
        FixtureEvents.Nack n = new FixtureEvents.Nack();
        n.transport = transport;
        n.peer = peer;
        n.count = 2;
        n.commit();
        FixtureEvents.Retransmission r = new FixtureEvents.Retransmission();
        r.transport = transport;
        r.peer = peer;
        r.sequence = 7;
        r.bytes = 1400;
        r.commit();
        FixtureEvents.FlowControlStall s = new FixtureEvents.FlowControlStall();
        s.begin();
        spin(30);
        s.transport = transport;
        s.peer = peer;
        s.end();
        s.commit();
    }

    /**
     * Lasts {@code micros} of real time. Long stretches sleep for most of it, so that the peer processes
     * of a demo running at once leave each other the CPU; the end is spun for its precision.
     */
    private static void spin(long micros) {
        long end = System.nanoTime() + micros * 1000;
        long left;
        while ((left = end - System.nanoTime()) > PARK_ABOVE_NANOS) {
            LockSupport.parkNanos(left - PARK_ABOVE_NANOS / 2);
        }
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }
}
