package io.cohort.launch;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs the io-manager on a remote host with {@code ssh} (PSE's remote shell): key-based login only
 * ({@code BatchMode}: a password prompt would hang a job), no terminal. ssh joins its arguments
 * into one line for the remote shell, so each is single-quoted here. The io-manager connects back
 * to the controller itself; if the ssh session dies the controller's connection says so.
 */
public final class SshLaunchAgent implements LaunchAgent {
    @Override
    public List<String> command(String host, List<String> ioManagerCommand) {
        List<String> c = new ArrayList<>(List.of(LocalLaunchAgent.SETSID, "ssh", "-o", "BatchMode=yes", "-T", host, "--"));
        for (String word : ioManagerCommand) {
            c.add(shellQuote(word));
        }
        return c;
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
