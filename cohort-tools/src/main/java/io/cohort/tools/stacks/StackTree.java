package io.cohort.tools.stacks;

import io.cohort.stacks.JobStacks;
import io.cohort.stacks.RankStacks;
import io.cohort.stacks.ThreadStack;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Every shown thread of every answering rank, merged into one prefix tree (LLNL STAT's view):
 *
 * <pre>
 *  thread name (normalised, {@link ThreadNames})      one root per name
 *   └ outermost frame  ...  innermost frame           one node per frame: class.method(File.java:line)
 *      └ in bcast #17 on world: root 0, ...            the collective it is in, if any ({@link io.cohort.stacks.CollectiveCall})
 *         └ waiting to receive from rank 2             the message it waits for, if any ({@link io.cohort.stacks.PeerWait})
 *            └ state                                  RUNNABLE, WAITING on LOCK, BLOCKED on LOCK held by "T"
 * </pre>
 *
 * Each node carries the ranks whose threads pass through it, and how many threads of each. Frames
 * are compared with their line, so ranks stopped at different lines of one method part there. Lock
 * names lose their identity hash ({@code @1b6d3586}), which differs from JVM to JVM. Children are
 * ordered biggest rank set first, so the common path comes first and the odd ranks stand out.
 */
public final class StackTree {
    private static final Pattern IDENTITY_HASH = Pattern.compile("@[0-9a-f]+$");

    /** What a node stands for. */
    public enum Kind {
        THREAD, FRAME, CALL, WAIT, STATE
    }

    /** One node: a thread name, a frame, a collective, a wait or a thread state, with the ranks (and threads) that are there. */
    public static final class Node {
        private final Kind kind;
        private final String text;
        private final BitSet ranks = new BitSet();
        private final int[] threads;
        private int daemons;
        private final Map<String, Node> children = new LinkedHashMap<>();
        private List<Node> sorted;

        Node(Kind kind, String text, int size) {
            this.kind = kind;
            this.text = text;
            this.threads = new int[size];
        }

        public Kind kind() {
            return kind;
        }

        /** The thread name, the frame ({@code app.Main.run(Main.java:12)}) or the state. */
        public String text() {
            return text;
        }

        public BitSet ranks() {
            return (BitSet) ranks.clone();
        }

        /** How many threads of {@code rank} pass through here. */
        public int threads(int rank) {
            return threads[rank];
        }

        public int totalThreads() {
            int n = 0;
            for (int t : threads) {
                n += t;
            }
            return n;
        }

        /** For a thread node: all its threads are daemon threads. */
        public boolean daemon() {
            return daemons == totalThreads();
        }

        /** Every rank here has the same number of threads here: that number; otherwise 0. */
        public int threadsPerRank() {
            int per = 0;
            for (int r = ranks.nextSetBit(0); r >= 0; r = ranks.nextSetBit(r + 1)) {
                if (per == 0) {
                    per = threads[r];
                } else if (per != threads[r]) {
                    return 0;
                }
            }
            return per;
        }

        public List<Node> children() {
            if (sorted == null) {
                sorted = new ArrayList<>(children.values());
                sorted.sort(ORDER);
            }
            return sorted;
        }

        Node child(Kind kind, String text) {
            return children.computeIfAbsent(kind + ":" + text, k -> new Node(kind, text, threads.length));
        }

        void add(int rank, boolean daemon) {
            ranks.set(rank);
            threads[rank]++;
            if (daemon) {
                daemons++;
            }
        }

        /** Same ranks with the same thread counts: one run of the tree when it is an only child. */
        boolean sameThreads(Node other) {
            return ranks.equals(other.ranks) && java.util.Arrays.equals(threads, other.threads);
        }

        @Override
        public String toString() {
            return RankSets.format(ranks) + " " + text;
        }
    }

    /** Biggest rank set first, then more threads, then lowest rank, then text; "main" leads its equals. */
    private static final Comparator<Node> ORDER = Comparator
            .comparingInt((Node n) -> -n.ranks.cardinality())
            .thenComparingInt(n -> -n.totalThreads())
            .thenComparingInt(n -> n.kind == Kind.THREAD && n.text.equals("main") ? 0 : 1)
            .thenComparingInt(n -> n.ranks.nextSetBit(0))
            .thenComparing(n -> n.text);

    private final Node root;
    private final int hiddenThreads;

    private StackTree(Node root, int hiddenThreads) {
        this.root = root;
        this.hiddenThreads = hiddenThreads;
    }

    public static StackTree merge(JobStacks job, ThreadFilter filter) {
        ThreadNames names = ThreadNames.of(job, filter);
        Node root = new Node(Kind.THREAD, "", job.size());
        int hidden = 0;
        for (RankStacks r : job.ranks()) {
            for (ThreadStack t : r.stacks().threads()) {
                if (!filter.shows(t)) {
                    hidden++;
                    continue;
                }
                Node n = root.child(Kind.THREAD, names.normalise(t.name()));
                n.add(r.rank(), t.daemon());
                List<StackTraceElement> frames = t.frames();
                for (int i = frames.size() - 1; i >= 0; i--) {
                    n = n.child(Kind.FRAME, frames.get(i).toString());
                    n.add(r.rank(), t.daemon());
                }
                if (t.call() != null) {
                    n = n.child(Kind.CALL, "in " + t.call().describe());
                    n.add(r.rank(), t.daemon());
                }
                if (t.peerWait() != null) {
                    n = n.child(Kind.WAIT, t.peerWait().describe(t.call() != null));
                    n.add(r.rank(), t.daemon());
                }
                n = n.child(Kind.STATE, state(t, names));
                n.add(r.rank(), t.daemon());
            }
        }
        return new StackTree(root, hidden);
    }

    /** "WAITING on java.util.concurrent.CountDownLatch$Sync", "BLOCKED on java.lang.Object held by \"main\"". */
    static String state(ThreadStack t, ThreadNames names) {
        StringBuilder b = new StringBuilder(t.state().name());
        if (t.lockName() != null) {
            b.append(" on ").append(IDENTITY_HASH.matcher(t.lockName()).replaceFirst(""));
        }
        if (t.lockOwner() != null) {
            b.append(" held by \"").append(names.normalise(t.lockOwner())).append('"');
        }
        return b.toString();
    }

    /** The thread nodes, in order. */
    public List<Node> threads() {
        return root.children();
    }

    /** Threads the filter left out. */
    public int hiddenThreads() {
        return hiddenThreads;
    }
}
