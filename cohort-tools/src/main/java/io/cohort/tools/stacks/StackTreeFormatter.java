package io.cohort.tools.stacks;

import io.cohort.stacks.JobStacks;
import io.cohort.stacks.RankStacks;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The merged tree as text. A run of nodes where each is the only child of the one before (a stretch
 * of stack that all its ranks share) is one block: its rank set once, then one line per node, so the
 * indentation grows only where ranks part ways, two columns at a time, and every frame is kept.
 *
 * <pre>
 *  job 3fa2c1d9 (app.Hang, 4 peers): 4 of 4 ranks answered
 *
 *  [0-3] "main"
 *        io.cohort.wireup.PeerMain.main(PeerMain.java:34)
 *        ...
 *    [1-3] app.Hang.main(Hang.java:31)
 *          io.cohort.comm.EngineCommunicator.recv(EngineCommunicator.java:88)
 *          ...
 *          TIMED_WAITING
 *    [0]   app.Hang.main(Hang.java:29)
 *          app.Hang.stuck(Hang.java:44)
 *          ...
 *          WAITING on java.util.concurrent.CountDownLatch$Sync
 * </pre>
 *
 * Ranks that did not answer are listed at the top, grouped by reason, then the collectives the
 * ranks are in ({@link CollectivesInProgress}) and the ranks that wait for each other ({@link WaitCycles}). A block whose ranks each have
 * several threads there says so ({@code [0-3] x4}, or {@code [0-3] (6 threads)} when the counts differ).
 */
public final class StackTreeFormatter {
    static final int STEP = 2;

    private StackTreeFormatter() {
    }

    public static String format(JobStacks job, StackTree tree) {
        StringBuilder b = new StringBuilder();
        header(b, job);
        if (tree.hiddenThreads() > 0) {
            b.append(threads(tree.hiddenThreads())).append(" of JVM housekeeping hidden (--all-threads shows them)\n");
        }
        for (RankStacks r : job.ranks()) {
            if (r.stacks().omittedThreads() > 0) {
                b.append("rank ").append(r.rank()).append(": ").append(threads(r.stacks().omittedThreads()))
                        .append(" left out (beyond the size limit of one peer's stacks)\n");
            }
        }
        CollectivesInProgress.format(b, job);
        WaitCycles.format(b, job);
        if (!tree.threads().isEmpty()) {
            b.append('\n');
            siblings(b, tree.threads(), 0);
        }
        return b.toString();
    }

    /** The job line, and the ranks without stacks grouped by reason. */
    static void header(StringBuilder b, JobStacks job) {
        int answered = job.answeredCount();
        b.append("job ").append(job.jobId()).append(" (").append(job.application()).append(", ").append(job.size())
                .append(job.size() == 1 ? " peer" : " peers").append("): ").append(answered).append(" of ")
                .append(job.size()).append(job.size() == 1 ? " rank" : " ranks").append(" answered\n");
        Map<String, BitSet> silent = new LinkedHashMap<>();
        for (RankStacks.Answer kind : RankStacks.Answer.values()) {
            for (RankStacks r : job.ranks()) {
                if (r.answer() == kind && !r.hasAnswered()) {
                    silent.computeIfAbsent(r.detail(), d -> new BitSet()).set(r.rank());
                }
            }
        }
        if (silent.isEmpty()) {
            return;
        }
        b.append("no stacks from:\n");
        int width = 0;
        for (BitSet ranks : silent.values()) {
            width = Math.max(width, RankSets.format(ranks).length());
        }
        for (Map.Entry<String, BitSet> e : silent.entrySet()) {
            b.append("  ").append(pad(RankSets.format(e.getValue()), width)).append(' ').append(e.getKey()).append('\n');
        }
    }

    private static void siblings(StringBuilder b, List<StackTree.Node> nodes, int indent) {
        List<String> labels = new ArrayList<>(nodes.size());
        int width = 0;
        for (StackTree.Node n : nodes) {
            String label = label(n);
            labels.add(label);
            width = Math.max(width, label.length());
        }
        for (int i = 0; i < nodes.size(); i++) {
            StackTree.Node n = nodes.get(i);
            String blank = " ".repeat(indent + width + 1);
            b.append(" ".repeat(indent)).append(pad(labels.get(i), width)).append(' ').append(text(n)).append('\n');
            while (n.children().size() == 1 && n.children().get(0).sameThreads(n)) {
                n = n.children().get(0);
                b.append(blank).append(text(n)).append('\n');
            }
            siblings(b, n.children(), indent + STEP);
        }
    }

    static String label(StackTree.Node n) {
        String ranks = RankSets.format(n.ranks());
        int per = n.threadsPerRank();
        if (per == 1) {
            return ranks;
        }
        return per > 1 ? ranks + " x" + per : ranks + " (" + n.totalThreads() + " threads)";
    }

    private static String text(StackTree.Node n) {
        if (n.kind() == StackTree.Kind.THREAD) {
            return "\"" + n.text() + "\"" + (n.daemon() ? " daemon" : "");
        }
        return n.text();
    }

    static String threads(int n) {
        return n + (n == 1 ? " thread" : " threads");
    }

    static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }
}
