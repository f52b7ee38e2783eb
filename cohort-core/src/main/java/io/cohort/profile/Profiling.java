package io.cohort.profile;

import jdk.jfr.FlightRecorder;

/**
 * Where the library measures itself for the profiler: one gate in front of every span and event.
 *
 * <p>Three modes. <b>Off</b> (no profile, no Flight Recorder): every method here returns null or
 * does nothing after one volatile read. <b>Summary</b> ({@code cohort run --profile}, the default
 * mode): spans add to this peer's {@link Summary}, written when the peer exits; no event class is
 * loaded. <b>Events</b> ({@code --profile-mode=full}, or any Flight Recorder in the JVM): spans carry
 * Flight Recorder events and each event's own {@code isEnabled()} decides, call by call.
 *
 * <p>Why the gate: loading a subclass of {@code jdk.jfr.Event} registers it with the Flight Recorder,
 * which loads and generates a few hundred classes (up to a third of a second of a peer's start-up on a
 * small machine) even when nothing will ever record. So no event class is loaded until a Flight
 * Recorder exists: {@link ProfileRecording#start} started one, or {@link #refresh} saw one (a test's
 * {@code Recording}, {@code -XX:StartFlightRecording}, {@code jcmd JFR.start}); the world's creation
 * and the progress agent's rounds look. Threads: any.
 */
public final class Profiling {
    private static final int OFF = 0;
    private static final int SUMMARY = 1;
    private static final int EVENTS = 2;

    private static volatile int mode;
    /** Set if this runtime has no {@code jdk.jfr} module (a trimmed jlink image): nothing can record. */
    private static volatile boolean unavailable;
    private static volatile String application = "";

    private Profiling() {
    }

    /** Whether anything measures this peer (a summary profile, or a Flight Recorder). */
    public static boolean active() {
        return mode != OFF;
    }

    /** Looks again whether a Flight Recorder has started; cheap after the first look. Returns {@link #active()}. */
    public static boolean refresh() {
        if (mode == OFF && !unavailable) {
            try {
                if (FlightRecorder.isInitialized()) {
                    mode = EVENTS;
                }
            } catch (LinkageError e) {
                unavailable = true; // no jdk.jfr in this runtime: the program runs, unprofiled
            }
        }
        return mode != OFF;
    }

    static void recorderStarted() {
        mode = EVENTS;
    }

    static void summaryStarted() {
        mode = SUMMARY;
    }

    /**
     * For the training run of the peers' class-data-sharing archive only ({@code StartupTraining}):
     * runs {@code work} with the summary mode on, takes one method sample, writes the summary to a
     * temporary file and deletes it, then forgets what was recorded and turns measuring off again.
     * So the classes a profiled peer loads (the spans, the tables, the stack walker's, the writer's)
     * come from the archive: loading and verifying them from the jar was part of what
     * {@code --profile} added to every peer's start-up. Not for a program's use: it switches
     * profiling off for the whole JVM.
     */
    public static void trainSummary(Runnable work) throws java.io.IOException {
        if (mode != OFF) {
            throw new IllegalStateException("a profile is already running in this JVM");
        }
        mode = SUMMARY;
        try {
            work.run();
            StackSampler sampler = new StackSampler();
            sampler.sample();
            java.nio.file.Path file = java.nio.file.Files.createTempFile("cohort-training", SummaryFormat.EXTENSION);
            try {
                Summary.write(file, sampler, 0);
            } finally {
                java.nio.file.Files.deleteIfExists(file);
            }
        } finally {
            mode = OFF;
            Summary.clear();
        }
    }
    /**
     * The program's main class for {@link PeerInfoEvent}: as {@code PeerMain} was given it; without
     * {@code PeerMain} (a plain {@code java Main} run) the JVM's main class, or the empty string.
     */
    public static String application() {
        String a = application;
        if (a.isEmpty()) {
            String command = System.getProperty("sun.java.command", "").trim();
            int space = command.indexOf(' ');
            a = space < 0 ? command : command.substring(0, space);
        }
        return a;
    }

    public static void application(String mainClass) {
        application = mainClass == null ? "" : mainClass;
    }

    /**
     * What the launcher told this peer of its job (its {@code COHORT_SIZE}, {@code COHORT_JOB_ID},
     * {@code COHORT_HOST}; null where missing): a summary names its peer with them when the program
     * never called {@code Cohort.init()}, so that the file still reads as one of its job's. Set by
     * the peer's bootstrap before it starts the profile.
     */
    public static void launchedAs(String size, String jobId, String host) {
        Summary.launchedAs(size, jobId, host);
    }

    public static SendSpan startSend() {
        int m = mode;
        return m == OFF ? null : SendSpan.start(m == SUMMARY);
    }

    public static ReceiveSpan startReceive() {
        int m = mode;
        return m == OFF ? null : ReceiveSpan.start(m == SUMMARY);
    }

    /** The Receive of a nonblocking receive's message, an instant at the moment the program is handed it. */
    public static void receiveHandedOver(int communicator, int peer, int tag, long bytes, long sequence, String operation) {
        int m = mode;
        if (m == SUMMARY) {
            Summary.instant(Summary.Kind.RECEIVE, operation, communicator, peer, bytes);
        } else if (m == EVENTS) {
            ReceiveEvent.emit(communicator, peer, tag, bytes, sequence, operation);
        }
    }

    public static ProbeSpan startProbe() {
        int m = mode;
        return m == OFF ? null : ProbeSpan.start(m == SUMMARY);
    }

    /** A wait's span unless this thread is inside an enclosing wait already (see {@link WaitSpan}). */
    public static WaitSpan startWait() {
        int m = mode;
        return m == OFF ? null : WaitSpan.start(m == SUMMARY, false);
    }

    /** A wait's span whose thread's nested waits measure nothing until it is finished. */
    public static WaitSpan startEnclosingWait() {
        int m = mode;
        return m == OFF ? null : WaitSpan.start(m == SUMMARY, true);
    }

    /** Whether waits are measured at all (so a caller may skip working out whether a wait is the program's). */
    public static boolean waitsRecorded() {
        int m = mode;
        return m == SUMMARY || m == EVENTS && WaitEvent.enabled();
    }

    public static CollectiveSpan startCollective() {
        int m = mode;
        return m == OFF ? null : CollectiveSpan.start(m == SUMMARY);
    }

    public static RegionSpan startRegion() {
        int m = mode;
        return m == OFF ? null : RegionSpan.start(m == SUMMARY);
    }

    public static StallSpan startStall(String transport, int peer) {
        int m = mode;
        return m == OFF ? null : StallSpan.start(m == SUMMARY, transport, peer);
    }

    public static JobSpan startJob(int rank) {
        int m = mode;
        return m == OFF ? null : JobSpan.start(m == SUMMARY, rank);
    }

    /** Ends the job's time: the peer exits without closing its world. */
    public static void finishJobs() {
        int m = mode;
        if (m == SUMMARY) {
            Summary.jobFinished();
        } else if (m == EVENTS) {
            JobEvent.finishAll();
        }
    }

    public static void peerInfo(int rank, int size, String jobId, String host) {
        int m = mode;
        if (m == SUMMARY) {
            Summary.peerInfo(rank, size, jobId, host);
        } else if (m == EVENTS) {
            PeerInfoEvent.emit(rank, size, jobId, host);
        }
    }

    public static void nack(String transport, int peer, long count) {
        int m = mode;
        if (m == SUMMARY) {
            Summary.nack(transport, peer, count);
        } else if (m == EVENTS) {
            NackEvent.emit(transport, peer, count);
        }
    }

    public static void retransmission(String transport, int peer, long sequence, long bytes) {
        int m = mode;
        if (m == SUMMARY) {
            Summary.retransmission(transport, peer, bytes);
        } else if (m == EVENTS) {
            RetransmissionEvent.emit(transport, peer, sequence, bytes);
        }
    }

    /**
     * {@code count} {@code unit}s (datagram, connection, frame) that {@code transport} dropped for
     * {@code reason} over the job, reported once per transport and reason at its end
     * ({@code io.cohort.wireup.DropReport}); a later call for the same ones adds to them.
     */
    public static void dropped(String transport, String reason, String unit, long count) {
        int m = mode;
        if (count <= 0 || m == OFF) {
            return;
        }
        if (m == SUMMARY) {
            Summary.dropped(transport, reason, unit, count);
        } else if (m == EVENTS) {
            DroppedTrafficEvent.emit(transport, reason, unit, count);
        }
    }
}
