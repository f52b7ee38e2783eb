package io.cohort.tools.stacks;

import io.cohort.stacks.JobStacks;
import io.cohort.stacks.PeerWait;
import io.cohort.stacks.RankStacks;
import io.cohort.stacks.ThreadStack;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The block of the merged stacks that names ranks waiting for each other: rank 0 waits to receive
 * from rank 3 while rank 3 waits to receive from rank 0, or a longer ring of such waits. Each
 * waiting thread gives one edge (its rank to the rank it waits for; receives from any rank give
 * none); every strongly connected group of two or more ranks is printed with one cycle in it.
 *
 * <pre>
 *  waiting for each other:
 *    ranks 0 and 3: rank 0 to receive from rank 3, rank 3 to receive from rank 0
 * </pre>
 *
 * It states what the capture saw. A job that is not hung may be caught in a cycle that resolves a
 * moment later (two ranks that exchange with each other, both messages on their way); one that
 * stays in it is a deadlock.
 */
public final class WaitCycles {
    /** The longest cycle printed step by step; a longer one shows its first steps and a count. */
    static final int STEPS_SHOWN = 6;

    private WaitCycles() {
    }

    /** One thread's wait: from rank {@code from} for rank {@code to}. */
    private record Edge(int from, int to, PeerWait peerWait) {
    }

    /** Appends the block, after a blank line; nothing if no ranks wait for each other. */
    public static void format(StringBuilder b, JobStacks job) {
        int n = job.size();
        Map<Integer, List<Edge>> out = new TreeMap<>();
        for (RankStacks r : job.ranks()) {
            for (ThreadStack t : r.stacks().threads()) {
                PeerWait w = t.peerWait();
                if (w != null && w.peer() >= 0 && w.peer() < n && w.peer() != r.rank()) {
                    out.computeIfAbsent(r.rank(), k -> new ArrayList<>()).add(new Edge(r.rank(), w.peer(), w));
                }
            }
        }
        List<String> lines = new ArrayList<>();
        for (BitSet group : stronglyConnected(n, out)) {
            if (group.cardinality() >= 2) {
                lines.add(line(group, cycle(group, out)));
            }
        }
        if (lines.isEmpty()) {
            return;
        }
        b.append("\nwaiting for each other:\n");
        for (String l : lines) {
            b.append("  ").append(l).append('\n');
        }
    }

    private static String line(BitSet group, List<Edge> cycle) {
        StringBuilder b = new StringBuilder("ranks ");
        if (group.cardinality() == 2) {
            b.append(group.nextSetBit(0)).append(" and ").append(group.nextSetBit(group.nextSetBit(0) + 1));
        } else {
            b.append(RankSets.format(group));
        }
        b.append(": ");
        for (int i = 0; i < cycle.size() && i < STEPS_SHOWN; i++) {
            Edge e = cycle.get(i);
            b.append(i > 0 ? ", " : "").append("rank ").append(e.from).append(' ')
                    .append(step(e.peerWait.operation())).append(e.to);
        }
        if (cycle.size() > STEPS_SHOWN) {
            b.append(", and ").append(cycle.size() - STEPS_SHOWN).append(" more back to rank ").append(cycle.get(0).from);
        }
        return b.toString();
    }

    private static String step(String operation) {
        return switch (operation) {
            case PeerWait.SEND -> "to have its send taken by rank ";
            case PeerWait.REQUEST -> "to get a multicast from rank ";
            case PeerWait.MULTICAST -> "to have its multicasts confirmed by rank ";
            case PeerWait.PHASE -> "to see a shared-memory step finished by rank ";
            default -> "to receive from rank ";
        };
    }

    /**
     * A cycle inside the group: from its lowest rank, follow an edge that stays in the group until a
     * rank comes round again (every rank of a strongly connected group has one). Iterative.
     */
    private static List<Edge> cycle(BitSet group, Map<Integer, List<Edge>> out) {
        Map<Integer, Integer> firstAt = new java.util.HashMap<>();
        List<Edge> walk = new ArrayList<>();
        int at = group.nextSetBit(0);
        while (!firstAt.containsKey(at)) {
            firstAt.put(at, walk.size());
            Edge step = null;
            for (Edge e : out.getOrDefault(at, List.of())) {
                if (group.get(e.to)) {
                    step = e;
                    break;
                }
            }
            if (step == null) {
                return List.of(); // not in a strongly connected group after all
            }
            walk.add(step);
            at = step.to;
        }
        return walk.subList(firstAt.get(at), walk.size());
    }

    /** Tarjan's strongly connected components, iteratively (a ring of 65 536 ranks must not overflow the stack). */
    static List<BitSet> stronglyConnected(int n, Map<Integer, List<Edge>> out) {
        int[] index = new int[n];
        int[] low = new int[n];
        java.util.Arrays.fill(index, -1);
        BitSet onStack = new BitSet();
        int[] stack = new int[n];
        int top = 0;
        int next = 0;
        List<BitSet> groups = new ArrayList<>();
        int[] work = new int[n]; // the DFS path
        int[] edgeAt = new int[n];
        for (int root : out.keySet()) {
            if (index[root] >= 0) {
                continue;
            }
            int depth = 0;
            work[depth] = root;
            edgeAt[depth] = 0;
            index[root] = low[root] = next++;
            stack[top++] = root;
            onStack.set(root);
            while (depth >= 0) {
                int v = work[depth];
                List<Edge> edges = out.getOrDefault(v, List.of());
                if (edgeAt[depth] < edges.size()) {
                    int w = edges.get(edgeAt[depth]++).to;
                    if (index[w] < 0) {
                        index[w] = low[w] = next++;
                        stack[top++] = w;
                        onStack.set(w);
                        work[++depth] = w;
                        edgeAt[depth] = 0;
                    } else if (onStack.get(w)) {
                        low[v] = Math.min(low[v], index[w]);
                    }
                    continue;
                }
                if (low[v] == index[v]) {
                    BitSet g = new BitSet();
                    int w;
                    do {
                        w = stack[--top];
                        onStack.clear(w);
                        g.set(w);
                    } while (w != v);
                    groups.add(g);
                }
                depth--;
                if (depth >= 0) {
                    int parent = work[depth];
                    low[parent] = Math.min(low[parent], low[v]);
                }
            }
        }
        return groups;
    }
}
