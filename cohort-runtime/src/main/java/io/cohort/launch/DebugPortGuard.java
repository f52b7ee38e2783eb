package io.cohort.launch;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;

/**
 * In the io-manager, for one peer started with {@code --debug}: ends the peer as soon as its JDWP
 * agent listens a second time, which it does when its debugger detaches (jdb's {@code quit}, an
 * IDE's "disconnect"). A {@code server=y} agent cannot be told not to listen again, and JDWP has
 * no authentication: whoever connected next, from any address that reaches the port, would control
 * the JVM for the rest of the job. So the peer does not outlive its debugger.
 *
 * <p>Why here, and SIGKILL: the io-manager is the peer's parent and reads the agent's line from
 * the pipe the moment it is written, just after the agent's socket starts listening, so the port
 * is open only for that moment. A watch inside the peer could be suspended by whoever attached in
 * that moment (JDWP suspends every thread of the VM); the io-manager cannot be, and SIGKILL cannot
 * be caught or delayed. The peer's end is reported as its own (not as the launcher's stop), with
 * one line on its stderr that says why, so the job fails like one whose peer was killed.
 *
 * <p>Used by the peer's stdout pump thread only.
 */
final class DebugPortGuard {
    private final int rank;
    private final Runnable kill;
    private final Consumer<byte[]> sayOnStderr;
    private int announcements;

    DebugPortGuard(int rank, Runnable kill, Consumer<byte[]> sayOnStderr) {
        this.rank = rank;
        this.kill = kill;
        this.sayOnStderr = sayOnStderr;
    }

    /** A guard for a peer started with this command, or null if the peer is not debugged. */
    static DebugPortGuard of(int rank, List<String> command, Runnable kill, Consumer<byte[]> sayOnStderr) {
        return JdwpAgentLine.debugged(command) ? new DebugPortGuard(rank, kill, sayOnStderr) : null;
    }

    /** Sees each line of the peer's stdout before it is forwarded; ends the peer at the agent's second listen. */
    void stdoutLine(byte[] line) {
        if (JdwpAgentLine.parse(line) == null || ++announcements == 1) {
            return; // the first: the agent waits for the debugger the launcher announces
        }
        kill.run();
        if (announcements == 2) {
            sayOnStderr.accept(("cohort: rank " + rank + ": its debugger detached, so the peer was ended: its JDWP"
                    + " agent listens again after a detach, unauthenticated, for anyone who reaches the port")
                    .getBytes(StandardCharsets.UTF_8));
        }
    }
}
