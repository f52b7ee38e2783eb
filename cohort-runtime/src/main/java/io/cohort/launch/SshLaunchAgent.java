package io.cohort.launch;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs the io-manager on a remote host with {@code ssh} (PSE's remote shell): key-based login only
 * ({@code BatchMode}: a password prompt would hang a job), no terminal. ssh joins its arguments
 * into one line for the remote shell, so each is single-quoted here. The io-manager connects back
 * to the controller itself; if the ssh session dies the controller's connection says so.
 *
 * <p>A host that names this machine ({@code localhost}, its host name, or a name or address of one of
 * its interfaces or of loopback) is started here without ssh, as mpirun does: a hostfile of
 * {@code localhost slots=4} tries a job out on one machine, which may run no ssh server.
 */
public final class SshLaunchAgent implements LaunchAgent {
    @Override
    public List<String> command(String host, List<String> ioManagerCommand) {
        if (isThisMachine(host, HostName.local())) {
            return new LocalLaunchAgent().command(host, ioManagerCommand);
        }
        List<String> c = new ArrayList<>(List.of(LocalLaunchAgent.SETSID, "ssh", "-o", "BatchMode=yes", "-T", host, "--"));
        for (String word : ioManagerCommand) {
            c.add(shellQuote(word));
        }
        return c;
    }

    /**
     * Whether {@code host} names the machine called {@code self}: its exact name, {@code localhost},
     * or a name or address that resolves to a loopback address or to an address of one of this
     * machine's interfaces. A name that does not resolve is not this machine.
     */
    static boolean isThisMachine(String host, String self) {
        String h = host.toLowerCase(java.util.Locale.ROOT);
        if (h.equals(self.toLowerCase(java.util.Locale.ROOT)) || h.equals("localhost") || h.startsWith("localhost.")) {
            return true;
        }
        try {
            java.net.InetAddress a = java.net.InetAddress.getByName(host);
            return a.isLoopbackAddress() || a.isAnyLocalAddress() || java.net.NetworkInterface.getByInetAddress(a) != null;
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }

    /** 'word', with embedded quotes written as '\''. */
    static String shellQuote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    @Override
    public String startHint() {
        return "check that setsid and ssh are installed";
    }
}
