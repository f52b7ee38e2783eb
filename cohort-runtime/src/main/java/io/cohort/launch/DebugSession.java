package io.cohort.launch;

import io.cohort.launch.ControllerEvent.DebuggerWaiting;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Path;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Consumer;

/**
 * The controller's part in {@code --debug}. The chosen ranks start with a JDWP agent that listens on
 * an ephemeral port and keeps the JVM suspended; the agent's "Listening for transport dt_socket at
 * address: P" lines are taken out of the peer's stdout (every one: the agent prints another after a
 * debugger detaches, and the io-manager then ends the peer, {@link DebugPortGuard}), and the first is
 * replaced by the launcher's own line saying how to attach. Once every chosen rank listens,
 * {@link DebuggerWindows} opens the tmux session. The wire-up time-out does not apply (the
 * controller skips it, and the peers get {@link PeerCommandLines#DEBUG_WIREUP_TIMEOUT_SECONDS}): a
 * peer may sit at a breakpoint for as long as the user likes. The agent binds 127.0.0.1 when the peer
 * runs on this machine, else the address its host reached the launcher from (JDWP has no
 * authentication: anyone who reaches that port controls the JVM). Without {@code --debug} this passes
 * output through and does nothing else.
 *
 * <p>Threads: {@link #withoutListeningLine} runs on the io-managers' connection threads; it touches
 * only {@link #ports} (atomic) and posts {@link DebuggerWaiting} to the event thread. Everything
 * else runs on the controller's event thread (and {@link #close} at the end of its run, on the same
 * thread), which owns the rest of this state.
 */
final class DebugSession {
    private final JobSpec spec;
    private final Placement placement;
    private final String jobId;
    private final Consumer<String> printLine;
    private final Consumer<ControllerEvent> events;
    /** Per debugged rank, the port its JDWP agent reported (0: not yet); written by connection threads. */
    private final AtomicIntegerArray ports;
    /** Per debugged rank, the address its agent binds (set at LAUNCH). */
    private final String[] hosts;
    /** Debugged ranks whose agent listens, and its HOST:PORT. */
    private final TreeMap<Integer, String> addresses = new TreeMap<>();
    private DebuggerWindows windows;

    /**
     * @param printLine a line of the launcher's own on its stderr (any thread)
     * @param events    posts to the controller's event thread
     */
    DebugSession(JobSpec spec, Placement placement, String jobId, Consumer<String> printLine,
                 Consumer<ControllerEvent> events) {
        this.spec = spec;
        this.placement = placement;
        this.jobId = jobId;
        this.printLine = printLine;
        this.events = events;
        this.ports = new AtomicIntegerArray(spec.size());
        this.hosts = new String[spec.size()];
    }

    /** The address the debugged ranks of the io-manager on {@code ioManager} bind; null without --debug. */
    String bindAddress(ControlConnection ioManager) {
        return spec.debug() == null ? null : debugBindAddress(ioManager);
    }

    /** At LAUNCH: {@code rank}'s agent, if it is debugged, binds {@code host}. */
    void binds(int rank, String host) {
        if (spec.debug() != null && spec.debug().includes(rank)) {
            hosts[rank] = host;
        }
    }

    /** The address {@code rank}'s agent binds, or null if it is not debugged. */
    String agentHost(int rank) {
        return hosts[rank];
    }

    /**
     * The address a debugged peer's JDWP agent binds: loopback when the io-manager (so the peer) runs
     * on this machine, else the address its host reached us from, which is also where jdb reaches it.
     */
    private static String debugBindAddress(ControlConnection conn) {
        InetAddress a = conn.remoteAddress();
        boolean here;
        try {
            here = a == null || a.isLoopbackAddress() || NetworkInterface.getByInetAddress(a) != null;
        } catch (SocketException e) {
            here = false;
        }
        if (here) {
            return "127.0.0.1";
        }
        return a instanceof Inet6Address ? "[" + a.getHostAddress() + "]" : a.getHostAddress();
    }

    /**
     * A debugged rank's agent is listening: say how to attach; once all are, open the debugger
     * windows, unless the job is being stopped.
     */
    void waiting(int rank, int debugPort, boolean stopping) {
        if (addresses.containsKey(rank) || hosts[rank] == null) {
            return;
        }
        String where = hosts[rank] + ":" + debugPort;
        addresses.put(rank, where);
        printLine.accept("cohort: rank " + rank + " on " + placement.hostOf(rank) + " waits for a debugger: "
                + DebuggerWindows.attachCommand(where));
        if (addresses.size() == spec.debug().ranks().size() && !stopping) {
            Path tmux = spec.debug().tmux() ? DebuggerWindows.findTmux() : null;
            windows = new DebuggerWindows(jobId, tmux, spec.workingDirectory(), printLine);
            SortedMap<Integer, String> listening = new TreeMap<>(addresses);
            DebuggerWindows opened = windows;
            Thread t = new Thread(() -> opened.open(listening), "cohort-debugger-windows");
            t.setDaemon(true);
            t.start();
        }
    }

    /**
     * A line of output without a debugged peer's JDWP agent announcing its port, or null if nothing
     * else is left of it: the agent's lines are the launcher's business, not the program's output.
     * The first announces the port the launcher tells the user; any later one (the agent listens
     * again after its debugger detached, and the io-manager ends the peer for it) is dropped too.
     */
    byte[] withoutListeningLine(ControlConnection conn, int rank, int stream, byte[] line) {
        if (spec.debug() == null || !spec.debug().includes(rank) || stream != PeerProcess.STDOUT) {
            return line;
        }
        JdwpAgentLine.Listening l = JdwpAgentLine.parse(line);
        if (l == null) {
            return line;
        }
        if (ports.compareAndSet(rank, 0, l.port())) {
            events.accept(new DebuggerWaiting(conn, rank, l.port()));
        }
        return l.before().length == 0 ? null : l.before(); // a program's unfinished line the agent's was appended to
    }

    /** At the end of the job: no tmux session outlives it. */
    void close() {
        if (windows != null) {
            windows.close();
        }
    }
}
