package io.cohort.daemon;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The system's 1, 5 and 15-minute load averages: {@code /proc/loadavg} (or a file in its format given
 * with {@code cohort daemon --loadavg FILE}), or the JVM's 1-minute figure where there is no such file.
 * The file option is for members that share one kernel (containers, network namespaces), whose
 * {@code /proc/loadavg} is the host's: there a per-member figure has to come from elsewhere.
 */
public final class LoadAverage {
    private static final Path PROC = Path.of("/proc/loadavg");
    private static volatile Path source = PROC;

    private LoadAverage() {
    }

    /** Reads the load from {@code file} (same format as /proc/loadavg) from now on; set once at the daemon's start. */
    public static void source(Path file) {
        source = file;
    }

    /**
     * Checks that {@code file} reads as /proc/loadavg does (three load averages first); throws
     * {@link IllegalArgumentException} with a sentence if not. A daemon checks its --loadavg at start.
     */
    public static void check(Path file) {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new IllegalArgumentException(file + " is not a readable file");
        }
        try {
            parse(Files.readString(file, StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(file + " does not start with three load averages as /proc/loadavg"
                    + " does (such as '0.52 0.58 0.59 1/123 4567')");
        }
    }

    private static double[] parse(String text) {
        String[] w = text.trim().split("\\s+");
        double[] v = {Double.parseDouble(w[0]), Double.parseDouble(w[1]), Double.parseDouble(w[2])};
        for (double d : v) {
            if (!(d >= 0) || Double.isInfinite(d)) {
                throw new NumberFormatException("not a load average: " + d);
            }
        }
        return v;
    }

    /** Why the last {@link #read} of a --loadavg file found no load, or null if it found one. */
    private static volatile String problem;

    /**
     * Three values; -1 for what this system does not tell. A --loadavg file that has gone bad gives
     * -1 for all three (unknown, and {@link #problem()} says why): the JVM's figure would be the
     * shared kernel's, the very figure the file is there to replace. Any thread.
     */
    static double[] read() {
        Path from = source;
        try {
            double[] v = parse(Files.readString(from, StandardCharsets.US_ASCII));
            problem = null;
            return v;
        } catch (IOException | RuntimeException e) {
            if (!from.equals(PROC)) {
                problem = "the load file " + from + " no longer reads as /proc/loadavg does ("
                        + (e instanceof java.nio.file.NoSuchFileException ? "it is gone" : e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : ": " + e.getMessage())) + "); the load is reported as unknown";
                return new double[]{-1, -1, -1};
            }
            double one = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
            return new double[]{one < 0 ? -1 : one, -1, -1};
        }
    }

    /** Why the last read of the --loadavg file found no load; null if it found one (or there is no such file). */
    static String problem() {
        return problem;
    }
}
