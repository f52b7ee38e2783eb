package io.cohort.wireup;

import io.cohort.engine.MachineMap;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This process's pid and its parent's, read from Linux's {@code /proc/self} where it exists and
 * from {@link ProcessHandle} elsewhere. On the start-up path of every peer {@code ProcessHandle}
 * is not free: initialising it builds the JDK's process-reaper thread pool and links its lambdas,
 * tens of milliseconds of a short peer's CPU on a loaded machine.
 */
final class ProcessInfo {
    private static final Path PROC_SELF = Path.of("/proc/self");
    private static final String PROC_SELF_STAT = "/proc/self/stat";
    private static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");
    private static final Path PROC_SELF_STATUS = Path.of("/proc/self/status");

    private ProcessInfo() {
    }

    /** This process's id. */
    static long pid() {
        try {
            // /proc/self is a symbolic link named after our pid.
            return Long.parseLong(Files.readSymbolicLink(PROC_SELF).toString());
        } catch (IOException | UnsupportedOperationException | NumberFormatException e) {
            return ProcessHandle.current().pid();
        }
    }

    /**
     * What tells this machine's kernel from others': Linux's boot id, which every network namespace
     * and container of one kernel shares (they share its cores too), else {@code host}.
     */
    static String machine(String host) {
        try {
            String id = Files.readString(BOOT_ID, StandardCharsets.US_ASCII).trim();
            return id.isEmpty() ? host : "boot:" + id;
        } catch (IOException | RuntimeException e) {
            return host;
        }
    }

    /**
     * The processors this process may run on, as Linux lists them ({@code Cpus_allowed_list} of
     * {@code /proc/self/status}: its affinity and cpuset, e.g. {@code 0-3,6}); empty where unknown.
     */
    static String allowedCpus() {
        try {
            for (String line : Files.readAllLines(PROC_SELF_STATUS, StandardCharsets.US_ASCII)) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    String list = line.substring("Cpus_allowed_list:".length()).trim();
                    return MachineMap.cpuSet(list) != null ? list : "";
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or no procfs: unknown
        }
        return "";
    }

    /**
     * The parent's process id, or -1 if it cannot be told. When a parent dies its children are
     * handed to another process, so a change of this value means the parent is gone; unlike a pid
     * liveness check, a recycled pid cannot fool it.
     */
    static long parentPid() {
        try (InputStream in = new FileInputStream(PROC_SELF_STAT)) {
            String stat = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so parse after the last ')'.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ", 3);
            return Long.parseLong(fields[1]);
        } catch (IOException | RuntimeException e) {
            return ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
        }
    }
}
