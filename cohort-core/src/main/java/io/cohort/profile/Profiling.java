package io.cohort.profile;

import jdk.jfr.FlightRecorder;

/**
 * Where the library records its events: one gate in front of every event class.
 *
 * <p>Why a gate: loading a subclass of {@code jdk.jfr.Event} registers it with the Flight Recorder,
 * which loads and generates a few hundred classes (up to a third of a second of a peer's start-up on a
 * small machine) even when nothing will ever record. So until a Flight Recorder exists in this JVM
 * every method here returns null or does nothing after one volatile read, and no event class is
 * loaded; once one does, the events' own {@code isEnabled()} decides, call by call.
 *
 * <p>A recorder exists once {@link PeerProfile#start} started {@code cohort run --profile}'s
 * recording, or once {@link #refresh} saw one (a test's {@code Recording},
 * {@code -XX:StartFlightRecording}, {@code jcmd JFR.start}): the world's creation and the progress
 * agent's rounds look. Threads: any.
 */
public final class Profiling {
    private static volatile boolean active;
    /** Set if this runtime has no {@code jdk.jfr} module (a trimmed jlink image): nothing can record. */
    private static volatile boolean unavailable;
    private static volatile String application = "";

    private Profiling() {
    }

    /** Whether a Flight Recorder exists in this JVM (so events may be wanted). */
    public static boolean active() {
        return active;
    }

    /** Looks again whether a Flight Recorder has started; cheap after the first look. Returns {@link #active()}. */
    public static boolean refresh() {
        if (!active && !unavailable) {
            try {
                if (FlightRecorder.isInitialized()) {
                    active = true;
                }
            } catch (LinkageError e) {
                unavailable = true; // no jdk.jfr in this runtime: the program runs, unprofiled
            }
        }
        return active;
    }

    static void recorderStarted() {
        active = true;
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

    public static SendEvent startSend() {
        return active ? SendEvent.startIfEnabled() : null;
    }

    public static ReceiveEvent startReceive() {
        return active ? ReceiveEvent.startIfEnabled() : null;
    }

    /** The Receive of a nonblocking receive's message, an instant at the moment the program is handed it. */
    public static void receiveHandedOver(int communicator, int peer, int tag, long bytes, long sequence, String operation) {
        if (active) {
            ReceiveEvent.emit(communicator, peer, tag, bytes, sequence, operation);
        }
    }

    public static ProbeEvent startProbe() {
        return active ? ProbeEvent.startIfEnabled() : null;
    }

    /** A Wait event unless this thread is inside a recorded wait already (see {@link WaitEvent}). */
    public static WaitEvent startWait() {
        return active ? WaitEvent.startIfEnabled() : null;
    }

    /** A Wait event whose thread's nested waits record nothing until it is finished. */
    public static WaitEvent startEnclosingWait() {
        return active ? WaitEvent.startEnclosingIfEnabled() : null;
    }

    public static boolean waitsRecorded() {
        return active && WaitEvent.enabled();
    }

    public static CollectiveEvent startCollective() {
        return active ? CollectiveEvent.startIfEnabled() : null;
    }

    public static RegionEvent startRegion() {
        return active ? RegionEvent.startIfEnabled() : null;
    }

    public static FlowControlStallEvent startStall(String transport, int peer) {
        return active ? FlowControlStallEvent.startIfEnabled(transport, peer) : null;
    }

    public static JobEvent startJob(int rank) {
        return active ? JobEvent.startIfEnabled(rank) : null;
    }

    /** Ends every open Job event: the peer exits without closing its world. */
    public static void finishJobs() {
        if (active) {
            JobEvent.finishAll();
        }
    }

    public static void peerInfo(int rank, int size, String jobId, String host) {
        if (active) {
            PeerInfoEvent.emit(rank, size, jobId, host);
        }
    }

    public static void nack(String transport, int peer, long count) {
        if (active) {
            NackEvent.emit(transport, peer, count);
        }
    }

    public static void retransmission(String transport, int peer, long sequence, long bytes) {
        if (active) {
            RetransmissionEvent.emit(transport, peer, sequence, bytes);
        }
    }
}
