package io.cohort.systest;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The TCP sockets of this machine's network namespace as Linux lists them in {@code /proc/net/tcp} and
 * {@code tcp6}, matched to processes through the socket inodes in {@code /proc/PID/fd}: which process
 * holds a port, and which ports a process listens on. No ss(1) needed.
 */
final class TcpSockets {
    private static final String LISTEN = "0A";
    private static final String ESTABLISHED = "01";

    /** One line of /proc/net/tcp{,6}: the local port, the state (hex, as the kernel writes it), the inode. */
    record Entry(int localPort, String state, String inode) {
    }

    private TcpSockets() {
    }

    static List<Entry> all() throws IOException {
        List<Entry> entries = new ArrayList<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path p = Path.of(table);
            if (!Files.isReadable(p)) {
                continue; // no IPv6 on this kernel
            }
            List<String> lines = Files.readAllLines(p);
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                String local = f[1];
                entries.add(new Entry(Integer.parseInt(local.substring(local.indexOf(':') + 1), 16), f[3], f[9]));
            }
        }
        return entries;
    }

    /** The socket inodes process {@code pid} has open (empty once it is gone). */
    static Set<String> inodesOf(long pid) {
        Set<String> inodes = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring("socket:[".length(), target.length() - 1));
                    }
                } catch (IOException e) {
                    // Closed while we looked.
                }
            }
        } catch (IOException e) {
            // Gone (or not ours to read).
        }
        return inodes;
    }

    /** The ports process {@code pid} listens on (TCP, IPv4 and IPv6). */
    static List<Integer> listeningPorts(long pid) throws IOException {
        Set<String> mine = inodesOf(pid);
        return all().stream().filter(e -> e.state().equals(LISTEN) && mine.contains(e.inode())).map(Entry::localPort).toList();
    }

    /**
     * The process that has an established connection whose local end is {@code port} (the accepting
     * side of a connection to that port), or -1. Looks only at processes of this user.
     */
    static long acceptorOf(int port) throws IOException {
        Set<String> inodes = new HashSet<>();
        for (Entry e : all()) {
            if (e.localPort() == port && e.state().equals(ESTABLISHED)) {
                inodes.add(e.inode());
            }
        }
        if (inodes.isEmpty()) {
            return -1;
        }
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path proc : procs) {
                long pid = Long.parseLong(proc.getFileName().toString());
                if (inodesOf(pid).stream().anyMatch(inodes::contains)) {
                    return pid;
                }
            }
        }
        return -1;
    }
}
