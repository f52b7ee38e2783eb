package io.cohort.launch;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the io-manager inside the Linux network namespace named after the host
 * ({@code setsid ip netns exec HOST ...}), as the hosts of {@code scripts/cluster-in-a-box} are.
 * {@code ip netns exec} replaces itself with the command, so the process the controller holds is
 * the io-manager's JVM. Namespaces share this machine's file system, so the same java and
 * distribution paths work. Needs root (or CAP_SYS_ADMIN) and iproute2.
 */
public final class NetnsLaunchAgent implements LaunchAgent {
    /** Where {@code ip netns add} mounts the namespaces it names. */
    static final Path NETNS_DIR = Path.of("/run/netns");

    @Override
    public List<String> command(String host, List<String> ioManagerCommand) {
        List<String> c = new ArrayList<>(ioManagerCommand.size() + 5);
        c.addAll(List.of(LocalLaunchAgent.SETSID, "ip", "netns", "exec", host));
        c.addAll(ioManagerCommand);
        return c;
    }

    /** The first global IPv4 address inside the namespace ({@code ip -n HOST -4 -o addr show scope global}). */
    @Override
    public InetAddress address(String host) throws IOException {
        if (!Files.exists(NETNS_DIR.resolve(host))) {
            throw new IOException("there is no network namespace named " + host + " ('ip netns list' shows them); "
                    + "--launch-agent netns runs each io-manager in the namespace named after its host");
        }
        Process p;
        try {
            p = new ProcessBuilder("ip", "-n", host, "-4", "-o", "addr", "show", "scope", "global")
                    .redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IOException("cannot run 'ip' to find the address of host " + host + " (" + e.getMessage()
                    + "); install iproute2", e);
        }
        String out;
        try (var in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while asking 'ip' for the address of host " + host, e);
        }
        // "2: eth0    inet 10.213.7.1/24 brd 10.213.7.255 scope global eth0\ ..."
        for (String line : out.split("\n")) {
            String[] words = line.trim().split("\\s+");
            for (int i = 0; i + 1 < words.length; i++) {
                if (words[i].equals("inet")) {
                    String a = words[i + 1];
                    int slash = a.indexOf('/');
                    return InetAddress.getByName(slash < 0 ? a : a.substring(0, slash));
                }
            }
        }
        throw new IOException("network namespace " + host + " has no global IPv4 address"
                + (out.isBlank() ? "" : " ('ip' said: " + out.strip().replaceAll("\\s+", " ") + ")")
                + "; give it one, or give --controller-address");
    }

    @Override
    public String startHint() {
        return "check that setsid, ip (iproute2) and java are installed and that this runs as root";
    }
}
