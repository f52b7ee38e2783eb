package io.cohort.daemon;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The system's 1, 5 and 15-minute load averages: {@code /proc/loadavg}, or the JVM's 1-minute figure elsewhere. */
final class LoadAverage {
    private static final Path PROC = Path.of("/proc/loadavg");

    private LoadAverage() {
    }

    /** Three values; -1 for what this system does not tell. Any thread. */
    static double[] read() {
        try {
            String[] w = Files.readString(PROC, StandardCharsets.US_ASCII).trim().split("\\s+");
            return new double[]{Double.parseDouble(w[0]), Double.parseDouble(w[1]), Double.parseDouble(w[2])};
        } catch (IOException | RuntimeException e) {
            double one = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
            return new double[]{one < 0 ? -1 : one, -1, -1};
        }
    }
}
