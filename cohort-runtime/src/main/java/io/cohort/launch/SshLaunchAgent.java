package io.cohort.launch;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs the io-manager on a remote host with {@code ssh} (PSE's remote shell): key-based login only
 * ({@code BatchMode}: a password prompt would hang a job), no terminal. ssh joins its arguments
 * into one line for the remote shell, so each is single-quoted here. The io-manager connects back
 * to the controller itself; if the ssh session dies the controller's connection says so.
 *
 * <p>A host that names this machine ({@code localhost}, a loopback address, its host name, short or
 * full) is started here without ssh, as mpirun does: a hostfile of {@code localhost slots=4} tries a
 * job out on one machine, which may run no ssh server.
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

    /** Whether {@code host} names the machine called {@code self}: localhost, a loopback address, or its name. */
    static boolean isThisMachine(String host, String self) {
        String h = host.toLowerCase(java.util.Locale.ROOT);
        String s = self.toLowerCase(java.util.Locale.ROOT);
        if (h.equals("localhost") || h.startsWith("localhost.") || h.startsWith("127.") || h.equals("::1")) {
            return true;
        }
        return h.equals(s) || h.equals(shortName(s)) || shortName(h).equals(s);
    }

    private static String shortName(String name) {
        int dot = name.indexOf('.');
        return dot > 0 && !Character.isDigit(name.charAt(0)) ? name.substring(0, dot) : name;
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
