package io.cohort.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A process's line of {@code /proc/PID/stat}, read the one safe way: the command name (field 2)
 * may hold spaces and parentheses, so fields are counted after its last ')'. Used for job control
 * (stopped? group leader? in the foreground?) and to say why a peer does not answer.
 */
final class ProcStat {
    /** Indexes into {@link #fields}: field 3 (state), 5 (process group) and 8 (the terminal's foreground group). */
    static final int STATE = 0;
    static final int PGRP = 2;
    static final int TPGID = 5;

    private ProcStat() {
    }

    /** The fields of a stat line from field 3 on (index 0 is field 3). */
    static String[] fields(String stat) {
        return stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    }

    /** The fields of {@code /proc/WHO/stat} ({@code WHO} a pid or "self"); null if it cannot be read. */
    static String[] of(String who) {
        try {
            return fields(Files.readString(Path.of("/proc", who, "stat")));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Why process {@code pid} of this machine cannot run its Java code, as a phrase for a list of
     * silent ranks ("is stopped ..."), from the state in its stat line, or where that is a sleep as
     * usual, from its threads' (a JVM's first thread only waits for the others: a thread stuck on a
     * disk shows there); null if it runs or sleeps as usual, is gone, or cannot be read.
     */
    static String describeIdle(long pid) {
        String[] f = pid > 0 ? of(Long.toString(pid)) : null;
        if (f == null) {
            return null;
        }
        String whole = describeState(f[STATE], pid);
        if (whole != null) {
            return whole;
        }
        try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            boolean diskSleep = tasks.map(t -> of(pid + "/task/" + t.getFileName()))
                    .anyMatch(t -> t != null && t[STATE].equals("D"));
            return diskSleep ? describeState("D", pid) : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** {@link #describeIdle} for a state letter already read. */
    static String describeState(String state, long pid) {
        return switch (state) {
            case "T" -> "is stopped (state T: SIGSTOP or SIGTSTP sent to its process); kill -CONT " + pid + " continues it";
            case "t" -> "is stopped by a tracer (state t: a debugger such as gdb, or strace, holds process " + pid + ")";
            case "D" -> "is in uninterruptible sleep (state D: a thread of process " + pid
                    + " waits for a disk, swap or a network file system)";
            case "Z", "X" -> "has ended (process " + pid + ", state " + state + "); its exit is on its way";
            default -> null;
        };
    }
}
