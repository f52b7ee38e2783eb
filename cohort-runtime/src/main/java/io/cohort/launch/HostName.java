package io.cohort.launch;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** This host's name, without a DNS lookup when Linux can tell us (a slow resolver must not slow start-up). */
public final class HostName {
    private static volatile String cached;

    private HostName() {
    }

    public static String local() {
        String h = cached;
        if (h == null) {
            h = lookup();
            cached = h;
        }
        return h;
    }

    private static String lookup() {
        try {
            String s = new String(Files.readAllBytes(Path.of("/proc/sys/kernel/hostname")), StandardCharsets.UTF_8).trim();
            if (!s.isEmpty()) {
                return s;
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux: ask the JDK.
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }
}
