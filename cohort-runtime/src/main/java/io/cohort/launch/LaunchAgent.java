package io.cohort.launch;

import java.io.IOException;
import java.util.List;

/**
 * Starts an io-manager on a member host. The local agent runs it as a child in its own session; a
 * remote agent (ssh, {@code ip netns exec}, srun) will prefix the same command with its own. The
 * io-manager's standard error is the controller's, so its start-up failures reach the user.
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
}
