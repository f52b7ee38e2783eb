package io.cohort.launch;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs the io-manager on this host under {@code setsid}: a terminal's Ctrl-C then reaches only the
 * controller, which stops the job in order instead of every process dying at once.
 */
public final class LocalLaunchAgent implements LaunchAgent {
    public static final String SETSID = "setsid";

    @Override
    public List<String> command(String host, List<String> ioManagerCommand) {
        List<String> c = new ArrayList<>(ioManagerCommand.size() + 1);
        c.add(SETSID);
        c.addAll(ioManagerCommand);
        return c;
    }
}
