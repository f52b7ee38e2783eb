package io.cohort.launch;

import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the io-manager on this host under {@code setsid}: a terminal's Ctrl-C then reaches only the
 * controller, which stops the job in order instead of every process dying at once. With several
 * {@code --hosts} every io-manager runs here: the host names then only group the peers (shared
 * memory within a group, TCP between groups), which is how a multi-host job is tested anywhere.
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

    /** The io-manager started before the command line was parsed, if there is one; else a new one. */
    @Override
    public Process start(String host, List<String> ioManagerCommand) throws IOException {
        Process early = EarlyIoManager.takeOver(ioManagerCommand);
        return early != null ? early : LaunchAgent.super.start(host, ioManagerCommand);
    }

    /** Every "host" is this machine: the rendezvous stays on loopback. */
    @Override
    public InetAddress address(String host) {
        return InetAddress.getLoopbackAddress();
    }
}
