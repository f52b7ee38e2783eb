package io.cohort.launch;

import io.cohort.auth.JobSecret;
import io.cohort.launch.ControllerEvent.IoManagerExited;
import io.cohort.launch.ControllerEvent.IoManagerHello;
import io.cohort.launch.ControllerEvent.PeerHello;
import io.cohort.wireup.ControlFrame;
import io.cohort.wireup.ControlMessageType;
import io.cohort.wireup.PeerRecord;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The job's rendezvous: who has joined it and how. Starts one io-manager per host, gives each its
 * LAUNCH when it says hello, pumps stdin once every host has launched, takes the peers' hellos and
 * sends the PEER_TABLE once all ranks are in, tells the peers of one another's exits, and writes off
 * an io-manager the controller gives up on. (The address the peers reach it at is {@link Rendezvous}'s
 * choice.)
 *
 * <p>Owned by the controller's event thread: every method runs there, and this class alone writes
 * the {@link IoManagerLink}s and the peers' records and connections. It decides nothing about the
 * job's status: where a hello shows the job cannot start, it says so, and the controller stops it.
 */
final class JobRendezvous {
    /** At the end, how long to wait for the agent processes of written-off io-managers to die. */
    private static final long REAP_MILLIS = 2000;

    private final JobSpec spec;
    private final HostPlan plan;
    private final Placement placement;
    private final String jobId;
    private final JobSecret secret;
    private final ExitTracker tracker;
    private final JobClock clock;
    private final PeerCommandLines commandLines;
    private final DebugSession debug;
    private final InputStream stdin;
    private final Consumer<String> printLine;
    private final Consumer<ControllerEvent> events;
    private final List<IoManagerLink> links = new ArrayList<>();
    private final List<IoManagerLink> linksView = Collections.unmodifiableList(links);
    private final Map<ControlConnection, Integer> peerRanks = new HashMap<>();
    private final ControlConnection[] peerConnections;
    private final PeerRecord[] records;
    /** Ranks whose control connection has closed. */
    private final boolean[] peerLeft;
    private Rendezvous address;
    private int port;
    private int hellos;
    private long firstHelloNanos;
    private boolean tableSent;
    private long launchNanos;
    private long launchSentNanos;

    /**
     * @param printLine a line of the launcher's own on its stderr (any thread)
     * @param events    posts to the controller's event thread
     */
    JobRendezvous(JobSpec spec, HostPlan plan, String jobId, JobSecret secret, ExitTracker tracker, JobClock clock,
                  PeerCommandLines commandLines, DebugSession debug, InputStream stdin, Consumer<String> printLine,
                  Consumer<ControllerEvent> events) {
        this.spec = spec;
        this.plan = plan;
        this.placement = plan.placement();
        this.jobId = jobId;
        this.secret = secret;
        this.tracker = tracker;
        this.clock = clock;
        this.commandLines = commandLines;
        this.debug = debug;
        this.stdin = stdin;
        this.printLine = printLine;
        this.events = events;
        this.peerLeft = new boolean[spec.size()];
        this.peerConnections = new ControlConnection[spec.size()];
        this.records = new PeerRecord[spec.size()];
        for (int h = 0; h < placement.hosts().size(); h++) {
            links.add(new IoManagerLink(placement.hosts().get(h), placement.ranksOn(h)));
        }
    }

    /**
     * Starts one io-manager per host through the plan's agent, telling each the address of the
     * rendezvous that reaches it ({@code address} with the bound {@code port}).
     *
     * @throws LaunchException if an agent cannot even be started (those already started are killed)
     */
    void startIoManagers(Rendezvous address, int port) throws LaunchException {
        this.address = address;
        this.port = port;
        if (spec.verbose()) {
            printLine.accept("cohort: job " + jobId + ": " + spec.size() + (spec.size() == 1 ? " peer on " : " peers on ") + placement + ", controller at "
                    + String.join(", ", new java.util.LinkedHashSet<>(links.stream()
                            .map(l -> address.addressFor(l.host, port)).toList())));
        }
        for (int i = 0; i < links.size(); i++) {
            IoManagerLink link = links.get(i);
            List<String> command = new ArrayList<>(PeerCommandLines.ioManagerJvm());
            command.add(IoManagerMain.PARAMETERS_ON_STDIN);
            if (spec.verbose()) {
                printLine.accept("cohort: io-manager on " + link.host + ": " + String.join(" ", plan.agent().command(link.host, command)));
            }
            try {
                link.process = plan.agent().start(link.host, command);
            } catch (IOException e) {
                // Those already started have launched nothing yet: end them with us.
                links.stream().filter(l -> l.process != null).forEach(l -> l.process.destroyForcibly());
                throw new LaunchException("cannot start the io-manager on " + link.host + " (" + e.getMessage()
                        + "); " + plan.agent().startHint(), e);
            }
            try {
                IoManagerMain.handParameters(link.process, address.addressFor(link.host, port), jobId, secret, link.host);
            } catch (IOException e) {
                // The agent ended before it read them (a command that fails at once): its exit, reported
                // below like any io-manager's that never connected, says so.
            }
            int index = i;
            link.process.onExit().thenAccept(p -> events.accept(new IoManagerExited(index, p.exitValue())));
        }
        launchNanos = clock.now();
    }

    /** The job clock when the io-managers were started. */
    long launchNanos() {
        return launchNanos;
    }

    /** Every io-manager's link, by host index (read-only). */
    List<IoManagerLink> links() {
        return linksView;
    }

    /** The rank that said hello on {@code conn}, or null. */
    Integer rankOf(ControlConnection conn) {
        return peerRanks.get(conn);
    }

    /** The control connection of {@code rank}, or null if it has not said hello. */
    ControlConnection connection(int rank) {
        return peerConnections[rank];
    }

    /** {@code rank}'s control connection has closed. */
    void left(int rank) {
        peerLeft[rank] = true;
    }

    /** Whether {@code rank}'s control connection has closed. */
    boolean hasLeft(int rank) {
        return peerLeft[rank];
    }

    /** How many ranks have said hello. */
    int hellos() {
        return hellos;
    }

    /**
     * The ranks that never said hello, once the job is past its wire-up deadline: the wire-up time-out
     * from the last LAUNCH, or from the first hello if that came later than it; null before then, or
     * if no rank has said hello (a program that never calls Cohort.init() never says hello), or once
     * the table went out.
     */
    List<Integer> pastWireup(long now, long wireup) {
        if (tableSent || hellos == 0 || launchSentNanos == 0) {
            return null;
        }
        long deadline = firstHelloNanos - launchSentNanos <= wireup ? launchSentNanos + wireup : firstHelloNanos + wireup;
        if (now - deadline <= 0) {
            return null;
        }
        List<Integer> missing = new ArrayList<>();
        for (int r = 0; r < spec.size(); r++) {
            if (records[r] == null) {
                missing.add(r);
            }
        }
        return missing;
    }

    /** The link whose io-manager holds {@code conn}, or null. */
    IoManagerLink linkOf(ControlConnection conn) {
        for (IoManagerLink l : links) {
            if (l.conn == conn) {
                return l;
            }
        }
        return null;
    }

    /** True if {@code rank} is one of the ranks of the io-manager on {@code conn} (frames from others are dropped). */
    boolean owns(ControlConnection conn, int rank) {
        IoManagerLink link = linkOf(conn);
        return link != null && rank >= 0 && rank < spec.size() && links.indexOf(link) == placement.hostIndexOf(rank);
    }

    /** Whether every rank of {@code link} has its exit reported (or counted). */
    boolean allReported(IoManagerLink link) {
        for (int r : link.ranks) {
            if (!tracker.hasExited(r)) {
                return false;
            }
        }
        return true;
    }

    /**
     * An io-manager said hello: matched to its link by its host, it gets its LAUNCH (each of its ranks'
     * command line and environment). Returns why the job cannot start if that LAUNCH would be too
     * large for one frame (the link is then written off, and the caller must stop the job), else null.
     */
    String ioManagerHello(IoManagerHello h, boolean stopping) {
        IoManagerLink link = null;
        if (jobId.equals(h.jobId())) { // authenticated by ControlListener: the job id only tells a stale job's apart
            for (IoManagerLink l : links) {
                if (l.host.equals(h.host()) && l.conn == null && !l.gone) {
                    link = l;
                    break;
                }
            }
        }
        if (link == null) {
            h.conn().close();
            return null;
        }
        link.conn = h.conn();
        link.stdinWindow = h.stdinWindow();
        if (stopping) {
            writeOff(link); // stopped before the launch: the io-manager ends, having started nothing
            return null;
        }
        String controller = address.addressFor(link.host, port);
        String debugHost = debug.bindAddress(link.conn);
        List<LaunchRequest.Peer> peers = new ArrayList<>();
        for (int r : link.ranks) {
            debug.binds(r, debugHost);
            List<String> command = commandLines.peerCommand(r, debug.agentHost(r));
            if (spec.verbose()) {
                printLine.accept("cohort: rank " + r + " on " + link.host + ": " + String.join(" ", command));
            }
            peers.add(new LaunchRequest.Peer(r, command, commandLines.peerEnvironment(r, controller)));
        }
        ControlFrame launch = new LaunchRequest(spec.workingDirectory().toString(), peers).frame();
        if (launch.body().length + 1 > ControlFrame.MAX_LENGTH) {
            // The io-manager would refuse it as malformed and hang up: say what is wrong instead.
            writeOff(link);
            return "the " + peers.size() + " peers on " + link.host + " need a launch request of "
                    + ((launch.body().length + (1 << 20) - 1) >> 20) + " MiB, more than one io-manager takes ("
                    + (ControlFrame.MAX_LENGTH >> 20) + " MiB); spread them over more hosts or shorten their"
                    + " command lines (classpath, --jvm-opt) and environment (-x)";
        }
        link.conn.trySend(launch);
        link.launched = true;
        if (clock.peersSuspended()) {
            link.conn.trySend(ControlFrame.build(ControlMessageType.SUSPEND).frame()); // started, and stopped at once
        }
        for (int r : link.ranks) {
            if (!spec.stdin().includes(r)) {
                link.conn.trySend(ControlFrame.build(ControlMessageType.STDIN_CLOSE).putInt(r).frame());
            }
        }
        if (links.stream().allMatch(l -> l.launched)) {
            launchSentNanos = clock.now();
            startStdin();
        }
        return null;
    }

    /** Once every io-manager has its peers: copy stdin to the ranks that read it, through their io-manager. */
    private void startStdin() {
        List<Integer> fed = new ArrayList<>();
        ControlConnection[] connOfRank = new ControlConnection[spec.size()];
        StdinWindow[] windowOfRank = new StdinWindow[spec.size()];
        for (int r = 0; r < spec.size(); r++) {
            connOfRank[r] = links.get(placement.hostIndexOf(r)).conn;
            windowOfRank[r] = links.get(placement.hostIndexOf(r)).stdinWindow;
            if (spec.stdin().includes(r)) {
                fed.add(r);
            }
        }
        if (fed.isEmpty()) {
            return;
        }
        // A terminal is read only in the foreground: a job put in the background runs on without it.
        java.util.function.BooleanSupplier mayRead = stdin == System.in && Foreground.stdinIsTerminal()
                ? Foreground::inForeground : () -> true;
        new StdinPump(stdin, fed.stream().mapToInt(Integer::intValue).toArray(), new StdinPump.Sink() {
            @Override
            public void stdin(int rank, byte[] bytes) throws InterruptedException {
                if (windowOfRank[rank] != null) {
                    windowOfRank[rank].take(rank, bytes.length); // back-pressure: the peer has not read the last MiB
                }
                connOfRank[rank].trySend(ControlFrame.build(ControlMessageType.STDIN).putInt(rank).putBytes(bytes).frame());
            }

            @Override
            public void stdinClosed(int rank) {
                connOfRank[rank].trySend(ControlFrame.build(ControlMessageType.STDIN_CLOSE).putInt(rank).frame());
            }
        }, mayRead).start();
    }

    /**
     * A peer said hello: refused (REJECTED) if it is not one of this job's ranks, has joined already
     * or comes while the job is being stopped; once every rank has, each gets the PEER_TABLE.
     */
    void peerHello(PeerHello h, boolean stopping) {
        PeerRecord.Hello hello = h.hello();
        int rank = hello.record.rank();
        String refusal = null;
        if (!jobId.equals(hello.jobId)) { // authenticated by ControlListener: this is a stale job's peer
            refusal = "wrong job id";
        } else if (rank < 0 || rank >= spec.size()) {
            refusal = "rank " + rank + " is not in a job of " + spec.size() + " peers";
        } else if (records[rank] != null) {
            refusal = "rank " + rank + " has already joined";
        } else if (stopping) {
            refusal = "the job is being stopped";
            tracker.refusedWhileStopping(rank); // its exit 1 is the stop's doing, not a failure of its own
        }
        if (refusal != null) {
            h.conn().trySend(ControlFrame.build(ControlMessageType.REJECTED).putString(refusal).frame());
            h.conn().close();
            return;
        }
        records[rank] = hello.record;
        peerConnections[rank] = h.conn();
        peerRanks.put(h.conn(), rank);
        tracker.controlConnected(rank);
        if (hellos++ == 0) {
            firstHelloNanos = clock.now();
        }
        if (hellos == spec.size()) {
            ControlFrame table = PeerRecord.table(records);
            for (ControlConnection c : peerConnections) {
                c.trySend(table);
            }
            tableSent = true;
        }
    }

    /**
     * Tells every other connected peer that this one's process has ended. Transports that cannot see
     * a death themselves (shared-memory rings) end the connection on it, cleanly if the peer's
     * goodbye is already in the ring, as a failure naming the peer otherwise.
     */
    void announceGone(int rank, int status) {
        ControlFrame gone = ControlFrame.build(ControlMessageType.PEER_GONE).putInt(rank).putInt(status)
                .putString(tracker.describeExit(rank, status)).frame();
        for (int r = 0; r < peerConnections.length; r++) {
            if (r != rank && peerConnections[r] != null) {
                peerConnections[r].trySend(gone);
            }
        }
    }

    /** The pid {@code rank} said hello with, or -1 if it has not. */
    long pidOf(int rank) {
        return records[rank] == null ? -1 : records[rank].pid();
    }


    /**
     * Gives up on an io-manager: its unreported ranks count as killed by the launcher (collateral,
     * never the root cause), their control connections are closed (a peer exits when it loses the
     * launcher), and so are the io-manager's connection and its agent process (an io-manager stops
     * its peers when it loses the controller; a peer exits when its io-manager dies).
     */
    void writeOff(IoManagerLink link) {
        if (link.gone) {
            return;
        }
        link.gone = true;
        for (int r : link.ranks) {
            if (!tracker.hasExited(r)) {
                tracker.exited(r, ExitTracker.STATUS_SIGKILL, true);
                if (peerConnections[r] != null) {
                    peerConnections[r].close();
                }
            }
        }
        if (link.conn != null) {
            link.conn.close();
        }
        if (link.process != null && link.process.isAlive()) {
            link.process.destroyForcibly();
        }
        removeSharedMemoryOf(link);
    }

    /**
     * An io-manager that is gone cannot remove its host's shared-memory directory, and its peers die
     * with it (a parent-death signal) before they could. Where that host shares this machine's
     * {@code /dev/shm} (this machine, or a namespace of the cluster in a box), the directory its peers
     * published is removed here; a plain directory of ours only, as {@code ShmJobDirectory.remove}
     * checks. On a host of its own, it stays until that host's next reboot (tmpfs).
     */
    private void removeSharedMemoryOf(IoManagerLink link) {
        for (int r : link.ranks) {
            String dir = records[r] == null ? null : records[r].endpoints().get("shm");
            if (dir != null && io.cohort.transport.shm.ShmJobDirectory.isJobDirectory(java.nio.file.Path.of(dir))) {
                io.cohort.transport.shm.ShmJobDirectory.remove(java.nio.file.Path.of(dir));
            }
        }
    }

    /** An empty frame of {@code type} to every io-manager that has its LAUNCH and is not written off. */
    void tellLaunched(int type) {
        ControlFrame frame = ControlFrame.build(type).frame();
        for (IoManagerLink link : links) {
            if (!link.gone && link.launched) {
                link.conn.trySend(frame);
            }
        }
    }

    /** At the end of the job: every io-manager's and peer's control connection is closed. */
    void closeConnections() {
        for (IoManagerLink link : links) {
            if (link.conn != null) {
                link.conn.close();
            }
        }
        for (ControlConnection c : peerRanks.keySet()) {
            c.close();
        }
    }

    /** The agent processes we killed: wait (briefly) until they are gone, so none outlives the launcher. */
    void reapWrittenOff() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(REAP_MILLIS);
        for (IoManagerLink link : links) {
            if (link.gone && link.process != null) {
                try {
                    link.process.waitFor(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** The ranks as "0, 2, 3", all of them (where {@link ExitTracker#rankList} stops after a few). */
    static String join(List<Integer> ranks) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < ranks.size(); i++) {
            b.append(i == 0 ? "" : ", ").append(ranks.get(i));
        }
        return b.toString();
    }
}
