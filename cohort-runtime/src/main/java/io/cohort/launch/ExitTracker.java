package io.cohort.launch;

import java.util.ArrayList;
import java.util.List;

/**
 * Decides a job's exit status from what the io-managers and the peers report: PSE's "first abnormal
 * value", except that a peer that failed because another one vanished never counts as the cause.
 *
 * <p>A peer is <em>collateral</em> if it sent PEER_FAILURE before it exited, or PEER_AWAITED_CLOSED
 * naming a peer whose own exit was abnormal (a program that fails inside try-with-resources closes
 * its world before it exits, so the others' receives fail on a clean goodbye; with a peer that
 * closed and exited 0, skipping a call the others made, the one left waiting is the failure to
 * show), or if the launcher was
 * stopping it and it died of SIGTERM or SIGKILL (status 143 or 137), unless another peer reported
 * losing it before the stop: then it died first, and the stop only reached it late (a SIGKILL on
 * another host, whose io-manager's EXITED arrives after a collateral peer's). PEER_FAILURE travels on the
 * peer's control connection and EXITED on the io-manager's, so they may arrive in either order; a
 * peer's flag is final only once both its EXITED arrived and its control connection ended (or it
 * never connected), and {@link #outcome} is asked only when every peer is final.
 *
 * <p>With {@code --core-dir} each exit may come with the files the peer left; the summary line
 * names the root cause's only (the collateral peers' are {@link #otherCrashFiles listed} with
 * {@code --verbose}).
 *
 * <p>Pure state, no I/O; confined to the controller's event thread.
 */
public final class ExitTracker {
    static final int STATUS_SIGTERM = 128 + 15;
    static final int STATUS_SIGKILL = 128 + 9;
    /** Peers that failed on their own beside the root cause are named up to this many. */
    static final int LISTED_RANKS = 8;

    private final String jobId;
    private final String[] hosts;
    private final Integer[] status;
    private final boolean[] stoppedWhenExited;
    /** Its io-manager signalled it while it ran (the stop reached it alive). */
    private final boolean[] signalledByManager;
    private final boolean[] connected;
    private final boolean[] controlClosed;
    private final String[] failureReason;
    private final int[] failedPeer;
    /** Peers that closed their world while this one still waited for them, one bit per rank; null: none. */
    private final java.util.BitSet[] awaitedClosed;
    /** Another peer reported losing this one before the launcher began stopping the job. */
    private final boolean[] lostBeforeStop;
    /** The launcher refused its hello because the job was already being stopped: it ended of the stop. */
    private final boolean[] refusedWhileStopping;
    /** The abnormal exit that the stop followed, or -1: its PEER_FAILURE predates the stop. */
    private int stopFollowed = -1;
    private final List<List<String>> crashFiles;
    private final List<Integer> exitOrder = new ArrayList<>();
    private boolean stopping;

    public ExitTracker(String jobId, String[] hosts) {
        int n = hosts.length;
        this.jobId = jobId;
        this.hosts = hosts.clone();
        this.status = new Integer[n];
        this.stoppedWhenExited = new boolean[n];
        this.signalledByManager = new boolean[n];
        this.connected = new boolean[n];
        this.controlClosed = new boolean[n];
        this.failureReason = new String[n];
        this.failedPeer = new int[n];
        this.awaitedClosed = new java.util.BitSet[n];
        this.lostBeforeStop = new boolean[n];
        this.refusedWhileStopping = new boolean[n];
        this.crashFiles = new ArrayList<>(java.util.Collections.nCopies(n, List.of()));
    }

    public int size() {
        return hosts.length;
    }

    /** The launcher has begun stopping the job (STOP sent): TERM/KILL deaths from now on are ours. */
    public void stopping() {
        if (!stopping && !exitOrder.isEmpty()) {
            int last = exitOrder.get(exitOrder.size() - 1);
            stopFollowed = status[last] != 0 ? last : -1;
        }
        stopping = true;
    }

    /**
     * An io-manager reported an exit.
     *
     * @return true if this is an abnormal exit
     */
    public boolean exited(int rank, int exitStatus, boolean stoppedByManager) {
        if (status[rank] != null) {
            return false;
        }
        status[rank] = exitStatus;
        stoppedWhenExited[rank] = stopping || stoppedByManager;
        signalledByManager[rank] = stoppedByManager;
        exitOrder.add(rank);
        return exitStatus != 0;
    }

    /** The files the peer left in its crash-file directory (reported with its exit). */
    public void crashFiles(int rank, List<String> files) {
        crashFiles.set(rank, List.copyOf(files));
    }

    public List<String> crashFiles(int rank) {
        return crashFiles.get(rank);
    }

    /**
     * "cohort: rank 0 on node7 left crash files: /c/App.1a2b3c4d/rank-0/java_pid12.hprof", one line per
     * peer other than {@code except} (the root cause, whose files the summary names) that left any.
     */
    public List<String> otherCrashFiles(int except) {
        List<String> lines = new ArrayList<>();
        for (int r = 0; r < hosts.length; r++) {
            if (r != except && !crashFiles.get(r).isEmpty()) {
                lines.add("cohort: rank " + r + " on " + hosts[r] + " left crash files: " + String.join(", ", crashFiles.get(r)));
            }
        }
        return lines;
    }

    public void controlConnected(int rank) {
        connected[rank] = true;
    }

    public void controlClosed(int rank) {
        controlClosed[rank] = true;
    }

    /** The peer said it failed because {@code lostPeer} vanished. The first report counts. */
    public void peerFailure(int rank, int lostPeer, String reason) {
        if (failureReason[rank] == null) {
            failureReason[rank] = reason == null ? "" : reason;
            failedPeer[rank] = lostPeer;
        }
        // A peer reports before it exits; the exit that set off the stop may still overtake its report.
        if ((!stopping || rank == stopFollowed) && lostPeer >= 0 && lostPeer < lostBeforeStop.length) {
            lostBeforeStop[lostPeer] = true;
        }
    }

    /** A receive or probe of {@code rank} failed because {@code closedPeer} had closed its world. */
    public void awaitedClosed(int rank, int closedPeer) {
        if (closedPeer >= 0 && closedPeer < hosts.length && closedPeer != rank) {
            if (awaitedClosed[rank] == null) {
                awaitedClosed[rank] = new java.util.BitSet();
            }
            awaitedClosed[rank].set(closedPeer);
        }
    }

    /** Whether {@code rank} reported waiting for a peer that had closed its world. */
    public boolean awaitedClosedPeer(int rank) {
        return awaitedClosed[rank] != null;
    }

    /** Whether a peer whose closed world {@code rank} waited for is still running: its failure may follow. */
    public boolean awaitsRunningPeer(int rank) {
        java.util.BitSet closed = awaitedClosed[rank];
        for (int p = closed == null ? -1 : closed.nextSetBit(0); p >= 0; p = closed.nextSetBit(p + 1)) {
            if (status[p] == null) {
                return true;
            }
        }
        return false;
    }

    public boolean hasExited(int rank) {
        return status[rank] != null;
    }

    /** The exit status reported for {@code rank}, or null while it runs. */
    public Integer exitStatus(int rank) {
        return status[rank];
    }

    public boolean allExited() {
        return exitOrder.size() == hosts.length;
    }

    /** Both the exit and the end of the control connection (if any) are in: the peer's flag is final. */
    public boolean settled(int rank) {
        return status[rank] != null && (!connected[rank] || controlClosed[rank]);
    }

    public boolean allSettled() {
        for (int r = 0; r < hosts.length; r++) {
            if (!settled(r)) {
                return false;
            }
        }
        return true;
    }

    /** The launcher refused {@code rank}'s hello since the job was being stopped; its exit is the stop's doing. */
    public void refusedWhileStopping(int rank) {
        refusedWhileStopping[rank] = true;
    }

    public boolean collateral(int rank) {
        if (failureReason[rank] != null || refusedWhileStopping[rank]) {
            return true;
        }
        if (closedPeerThatFailed(rank) >= 0) {
            return true; // it failed waiting for a peer that failed
        }
        return stoppedByLauncher(rank);
    }

    /** It died of the launcher's stop (TERM, or KILL after the grace period), not on its own before it. */
    private boolean stoppedByLauncher(int rank) {
        Integer s = status[rank];
        return s != null && stoppedWhenExited[rank] && !lostBeforeStop[rank]
                && (s == STATUS_SIGTERM || s == STATUS_SIGKILL);
    }

    /**
     * The lowest peer whose closed world {@code rank} waited for and that failed on its own (an
     * abnormal exit the launcher's stop did not cause), or -1.
     */
    private int closedPeerThatFailed(int rank) {
        java.util.BitSet closed = awaitedClosed[rank];
        for (int p = closed == null ? -1 : closed.nextSetBit(0); p >= 0; p = closed.nextSetBit(p + 1)) {
            if (status[p] != null && status[p] != 0 && !stoppedByLauncher(p)) {
                return p;
            }
        }
        return -1;
    }

    /** Ranks that have not exited (yet). */
    public List<Integer> notExited() {
        List<Integer> l = new ArrayList<>();
        for (int r = 0; r < hosts.length; r++) {
            if (status[r] == null) {
                l.add(r);
            }
        }
        return l;
    }

    /** The job's outcome; call when every peer has settled (a missing exit counts as SIGKILL). */
    public JobOutcome outcome() {
        int firstAbnormal = -1;
        int root = -1;
        for (int r : exitOrder) {
            if (status[r] != 0) {
                if (firstAbnormal < 0) {
                    firstAbnormal = r;
                }
                if (root < 0 && !collateral(r)) {
                    root = r;
                }
            }
        }
        if (firstAbnormal < 0) {
            return allExited() ? JobOutcome.success()
                    : new JobOutcome(STATUS_SIGKILL, "cohort: job " + jobId + " failed: ranks " + notExited()
                            + " never reported an exit", JobOutcome.NO_RANK);
        }
        boolean collateralOnly = root < 0;
        if (collateralOnly) {
            root = firstAbnormal;
        }
        // The other abnormal peers: collateral ones (and any whose exit never came) were stopped;
        // the rest failed on their own, and the summary names them so that no failure goes unsaid.
        int stopped = 0;
        List<Integer> alsoFailed = new ArrayList<>();
        for (int r = 0; r < hosts.length; r++) {
            if (r == root || (status[r] != null && status[r] == 0)) {
                continue;
            }
            if (status[r] == null || collateral(r)) {
                stopped++;
            } else {
                alsoFailed.add(r);
            }
        }
        StringBuilder line = new StringBuilder("cohort: job ").append(jobId).append(" failed: ")
                .append(collateralOnly ? describeExit(root, status[root]) : describeRoot(root));
        if (collateralOnly) {
            line.append(" (no root cause found: ");
            if (failureReason[root] != null) {
                line.append("it lost rank ").append(failedPeer[root]);
                String why = oneLine(failureReason[root]);
                if (!why.isEmpty()) {
                    line.append(": ").append(why);
                }
            } else if (awaitedClosed[root] != null) {
                int p = closedPeerThatFailed(root);
                line.append("it waited for rank ").append(p >= 0 ? p : awaitedClosed[root].nextSetBit(0))
                        .append(", which had closed its world");
            } else {
                line.append("it was stopped by the launcher");
            }
            appendCrashFiles(line, root);
            line.append(')');
        } else {
            line.append(" (root cause");
            appendCrashFiles(line, root);
            line.append(')');
        }
        if (!alsoFailed.isEmpty()) {
            line.append("; ").append(alsoFailed.size() == 1 ? "rank " : "ranks ").append(rankList(alsoFailed))
                    .append(" also failed");
            if (alsoFailed.size() == 1) {
                line.append(" (").append(describeStatus(status[alsoFailed.get(0)])).append(')');
            }
        }
        if (stopped > 0) {
            line.append("; ").append(stopped).append(stopped == 1 ? " other peer was" : " other peers were")
                    .append(" stopped");
        }
        return new JobOutcome(status[root], line.toString(), root);
    }

    /**
     * The root cause's exit, or, when another peer lost it while it still ran and the launcher's own
     * stop then ended it (a peer frozen by SIGSTOP, or silent), what that peer saw: the status alone
     * (137) pointed at an outside SIGKILL that never happened.
     */
    private String describeRoot(int root) {
        int s = status[root];
        if (signalledByManager[root] && lostBeforeStop[root] && (s == STATUS_SIGTERM || s == STATUS_SIGKILL)) {
            for (int r : exitOrderAndRest()) {
                if (failureReason[r] != null && failedPeer[r] == root) {
                    String why = oneLine(failureReason[r]);
                    return "rank " + root + " on " + hosts[root] + " was lost by rank " + r + (why.isEmpty() ? "" : " (" + why + ")")
                            + " while it still ran, and the launcher stopped it";
                }
            }
        }
        return describeExit(root, s);
    }

    /** Ranks in the order their exits came, then those whose exit never came. */
    private List<Integer> exitOrderAndRest() {
        List<Integer> all = new ArrayList<>(exitOrder);
        all.addAll(notExited());
        return all;
    }

    /** "1, 3, 4": at most {@value #LISTED_RANKS} ranks, then how many more. */
    public static String rankList(List<Integer> ranks) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < ranks.size() && i < LISTED_RANKS; i++) {
            b.append(i == 0 ? "" : ", ").append(ranks.get(i));
        }
        if (ranks.size() > LISTED_RANKS) {
            b.append(" and ").append(ranks.size() - LISTED_RANKS).append(" more");
        }
        return b.toString();
    }

    private void appendCrashFiles(StringBuilder line, int rank) {
        if (!crashFiles.get(rank).isEmpty()) {
            line.append("; crash files: ").append(String.join(", ", crashFiles.get(rank)));
        }
    }

    /** "rank 2 on node7 exited with status 3" or "rank 1 on node7 was killed by signal 9 (SIGKILL) or exited with status 137". */
    public String describeExit(int rank, int exitStatus) {
        return "rank " + rank + " on " + hosts[rank] + " " + describeStatus(exitStatus);
    }

    /**
     * "exited with status 3" or "was killed by signal 9 (SIGKILL) or exited with status 137": a JVM's
     * process status cannot tell a signal S from a program's own {@code System.exit(128 + S)}.
     */
    public static String describeStatus(int exitStatus) {
        if (exitStatus > 128 && exitStatus <= 128 + 64) {
            int sig = exitStatus - 128;
            String name = signalName(sig);
            return "was killed by signal " + sig + (name == null ? "" : " (" + name + ")") + " or exited with status "
                    + exitStatus;
        }
        return "exited with status " + exitStatus;
    }

    static String signalName(int sig) {
        switch (sig) {
            case 1: return "SIGHUP";
            case 2: return "SIGINT";
            case 3: return "SIGQUIT";
            case 4: return "SIGILL";
            case 6: return "SIGABRT";
            case 7: return "SIGBUS";
            case 8: return "SIGFPE";
            case 9: return "SIGKILL";
            case 10: return "SIGUSR1";
            case 11: return "SIGSEGV";
            case 12: return "SIGUSR2";
            case 13: return "SIGPIPE";
            case 14: return "SIGALRM";
            case 15: return "SIGTERM";
            default: return null;
        }
    }

    private static String oneLine(String s) {
        return s.replaceAll("\\s+", " ").trim();
    }
}
