package io.cohort.launch;

import java.io.IOException;
import java.net.InetAddress;
import java.util.List;

/**
 * Starts an io-manager on a member host: {@code local} (a child of the controller),
 * {@code netns} ({@code ip netns exec HOST}), {@code ssh} ({@code ssh HOST}) or a template of the
 * user's ({@link LaunchAgents#parse}). Every agent runs its command under {@code setsid}, so a
 * terminal's Ctrl-C reaches only the controller, which stops the job in order. The io-manager's
 * standard error is the controller's, so its (and the agent's) start-up failures reach the user.
 *
 * <p>Agents assume what PSE assumed of a cluster: the java binary, the distribution and the working
 * directory have the same paths on every host (a shared file system; namespaces share this one).
 */
public interface LaunchAgent {
    /** The full command line that runs {@code ioManagerCommand} on {@code host}. */
    List<String> command(String host, List<String> ioManagerCommand);

    /** Starts it. */
    default Process start(String host, List<String> ioManagerCommand) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command(host, ioManagerCommand));
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        return pb.start();
    }

    /**
     * An address of {@code host} as this machine reaches it; the controller binds its rendezvous
     * socket on the local address that routes there. The default asks the resolver.
     *
     * @throws IOException with a sentence saying why the host cannot be found
     */
    default InetAddress address(String host) throws IOException {
        try {
            return InetAddress.getByName(host);
        } catch (java.net.UnknownHostException e) {
            throw new IOException("host " + host + " does not resolve to an address; give --controller-address "
                    + "with an address of this machine that it reaches", e);
        }
    }

    /** What to check when the agent itself cannot be started, e.g. "check that setsid and java are installed". */
    default String startHint() {
        return "check that setsid and java are installed";
    }
}
