package io.cohort.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether the launcher may read its terminal: only while its process group is the terminal's
 * foreground group. A background process that reads its terminal is stopped by SIGTTIN (or, with
 * SIGTTIN ignored, gets an I/O error), so a job put in the background ({@code bg}, or started with
 * {@code &}) must leave its terminal alone until {@code fg} brings it back, as Open MPI's mpirun
 * does. Linux's /proc tells both facts; where it cannot, the answer is "read as usual".
 */
final class Foreground {
    private Foreground() {
    }

    /** Whether this process's standard input is a terminal. */
    static boolean stdinIsTerminal() {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/0")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.startsWith("/dev/console");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Whether this process's group is its terminal's foreground group; true if it has no terminal or /proc cannot tell. */
    static boolean inForeground() {
        String[] f = ProcStat.of("self");
        try {
            return f == null || inForeground(f);
        } catch (RuntimeException e) {
            return true;
        }
    }

    /** From a /proc/PID/stat line: pgrp is field 5 and tpgid (the terminal's foreground group, -1 if none) field 8. */
    static boolean inForeground(String stat) {
        return inForeground(ProcStat.fields(stat));
    }

    private static boolean inForeground(String[] f) {
        long pgrp = Long.parseLong(f[ProcStat.PGRP]);
        long tpgid = Long.parseLong(f[ProcStat.TPGID]);
        return tpgid <= 0 || tpgid == pgrp;
    }
}
