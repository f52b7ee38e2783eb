package io.cohort.profile;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;

/**
 * Runs code under an in-process Flight Recorder recording and hands back the Cohort events it
 * recorded, in start-time order: the profiler's capture side seen as the reader will see it.
 */
public final class EventCapture {
    /** Every event of the contract. */
    public static final List<String> COHORT_EVENTS = List.of(SendEvent.NAME, ReceiveEvent.NAME, ProbeEvent.NAME,
            WaitEvent.NAME, CollectiveEvent.NAME, RegionEvent.NAME, PeerInfoEvent.NAME, JobEvent.NAME, NackEvent.NAME,
            RetransmissionEvent.NAME, FlowControlStallEvent.NAME, DroppedTrafficEvent.NAME);

    /** The code to run while recording. */
    @FunctionalInterface
    public interface Body {
        void run() throws Exception;
    }

    private EventCapture() {
    }

    /** Runs {@code body} with every Cohort event on (stack traces, no threshold); returns those events. */
    public static List<RecordedEvent> record(Body body) throws Exception {
        return record(true, body);
    }

    /**
     * Runs {@code body} under a recording that asks for Cohort's events ({@code cohort} true) or only
     * for some of the JDK's (false); returns the Cohort events the file holds.
     */
    public static List<RecordedEvent> record(boolean cohort, Body body) throws Exception {
        Path file = Files.createTempFile("cohort-events", ".jfr");
        try (Recording r = new Recording()) {
            if (cohort) {
                for (String name : COHORT_EVENTS) {
                    r.enable(name).withStackTrace().withThreshold(Duration.ZERO);
                }
            } else {
                r.enable("jdk.ThreadStart");
                r.enable("jdk.JavaMonitorEnter").withThreshold(Duration.ZERO);
            }
            r.start();
            body.run();
            r.stop();
            r.dump(file);
            return RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().startsWith("io.cohort."))
                    .sorted(Comparator.comparing(RecordedEvent::getStartTime))
                    .toList();
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** The events called {@code name}. */
    public static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
        return events.stream().filter(e -> e.getEventType().getName().equals(name)).toList();
    }

    /** The rank of the {@code LocalCohort} peer whose thread committed {@code e} ({@code cohort-local-<rank>}), else -1. */
    public static int rankOf(RecordedEvent e) {
        RecordedThread t = e.getThread();
        String name = t == null ? null : t.getJavaName();
        if (name == null || !name.startsWith("cohort-local-")) {
            return -1;
        }
        return Integer.parseInt(name.substring("cohort-local-".length()));
    }
}
