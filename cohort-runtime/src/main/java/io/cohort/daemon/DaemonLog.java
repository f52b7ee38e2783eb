package io.cohort.daemon;

import java.io.PrintStream;
import java.time.Clock;
import java.time.Instant;

/**
 * The daemon's log: one line per event on a stream (stderr; systemd's journal under the unit),
 * {@code 2025-01-02T03:04:05.678Z cohortd[member]: what happened}. Thread-safe (a line is one
 * {@code println}).
 */
public final class DaemonLog {
    private final PrintStream out;
    private final Clock clock;
    private volatile String name;

    public DaemonLog(String name, PrintStream out, Clock clock) {
        this.name = name;
        this.out = out;
        this.clock = clock;
    }

    /** Once the daemon knows which member it is. */
    void name(String member) {
        this.name = member;
    }

    public void info(String message) {
        out.println(Instant.ofEpochMilli(clock.millis()) + " cohortd[" + name + "]: " + message);
    }
}
