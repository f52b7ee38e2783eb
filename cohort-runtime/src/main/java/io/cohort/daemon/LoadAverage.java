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

    /** Three values; -1 for what this system does not tell. Any thread. */
    static double[] read() {
        try {
            return parse(Files.readString(source, StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            double one = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
            return new double[]{one < 0 ? -1 : one, -1, -1};
        }
    }
}
