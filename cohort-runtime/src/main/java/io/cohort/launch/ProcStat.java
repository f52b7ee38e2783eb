package io.cohort.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A process's line of {@code /proc/PID/stat}, read the one safe way: the command name (field 2)
 * may hold spaces and parentheses, so fields are counted after its last ')'. Used for job control
 * (stopped? group leader? in the foreground?).
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
}
