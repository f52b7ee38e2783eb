package io.cohort.tools.stacks;

import io.cohort.stacks.CollectiveCall;
import io.cohort.stacks.JobStacks;
import io.cohort.stacks.RankStacks;
import io.cohort.stacks.ThreadStack;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The block of the merged stacks that says which collectives the ranks are in, and where ranks
 * break MPI's rule that every member of a communicator makes the same collective calls in the same
 * order (same collective, root, op, element type and count): such a job waits for ever, or reads
 * wrong values, and its stacks alone look alike.
 *
 * <pre>
 *  in collectives:
 *    [0-1] bcast #17 on world: root 0, 4 elements of int[]
 *    [2-3] bcast #17 on world: root 1, 4 elements of int[]
 *    [4]   in no collective on world
 *  ranks disagree about collective #17 on world: [0-1] bcast from root 0 of 4 ints; [2-3] bcast from root 1 of 4 ints
 * </pre>
 *
 * Ranks at different numbers of one communicator are only listed: a rank that left a collective
 * early (a bcast's root) may wait in the next one while the others finish, and that is no error.
 * Calls with the same number on the same communicator that cannot meet are an error in the program,
 * whenever the stacks are taken. A communicator is its context id and its members: the disjoint
 * communicators of one split share a context and count their collectives apart.
 */
public final class CollectivesInProgress {
    private CollectivesInProgress() {
    }

    private record Group(CollectiveCall call, BitSet ranks) {
    }

    /** Appends the block, after a blank line; nothing if no rank is in a collective. */
    public static void format(StringBuilder b, JobStacks job) {
        // By context, then members: disjoint communicators of one split share a context.
        Map<String, Map<String, Group>> byCommunicator = new TreeMap<>(Comparator
                .comparingInt((String k) -> Integer.parseInt(k.substring(0, k.indexOf(' '))))
                .thenComparing(k -> k));
        BitSet inWorld = new BitSet();
        for (RankStacks r : job.ranks()) {
            for (ThreadStack t : r.stacks().threads()) {
                CollectiveCall c = t.call();
                if (c == null) {
                    continue;
                }
                byCommunicator.computeIfAbsent(c.communicator() + " " + c.members(), k -> new LinkedHashMap<>())
                        .computeIfAbsent(c.describe(), k -> new Group(c, new BitSet())).ranks.set(r.rank());
                if (c.communicatorName().equals("world")) {
                    inWorld.set(r.rank());
                }
            }
        }
        if (byCommunicator.isEmpty()) {
            return;
        }
        List<String[]> lines = new ArrayList<>();
        List<String> disagreements = new ArrayList<>();
        for (Map<String, Group> groups : byCommunicator.values()) {
            List<Group> sorted = new ArrayList<>(groups.values());
            sorted.sort(Comparator.comparingLong((Group g) -> g.call.sequence()).thenComparingInt(g -> g.ranks.nextSetBit(0)));
            for (Group g : sorted) {
                lines.add(new String[] {RankSets.format(g.ranks), g.call.describe()});
            }
            if (sorted.get(0).call.communicatorName().equals("world")) {
                BitSet none = new BitSet();
                for (RankStacks r : job.ranks()) {
                    if (r.hasAnswered() && !inWorld.get(r.rank())) {
                        none.set(r.rank());
                    }
                }
                if (!none.isEmpty()) {
                    lines.add(new String[] {RankSets.format(none), "in no collective on world"});
                }
            }
            for (int i = 0; i < sorted.size(); ) {
                int j = i;
                while (j < sorted.size() && sorted.get(j).call.sequence() == sorted.get(i).call.sequence()) {
                    j++;
                }
                String d = disagreement(sorted.subList(i, j));
                if (d != null) {
                    disagreements.add(d);
                }
                i = j;
            }
        }
        int width = 0;
        for (String[] l : lines) {
            width = Math.max(width, l[0].length());
        }
        b.append("\nin collectives:\n");
        for (String[] l : lines) {
            b.append("  ").append(StackTreeFormatter.pad(l[0], width)).append(' ').append(l[1]).append('\n');
        }
        for (String d : disagreements) {
            b.append(d).append('\n');
        }
    }

    /** The sentence for one collective number whose calls cannot all meet, or null if they can. */
    static String disagreement(List<Group> sameNumber) {
        List<CollectiveCall> calls = new ArrayList<>(sameNumber.size());
        for (Group g : sameNumber) {
            calls.add(g.call);
        }
        if (CollectiveCall.allMeet(calls)) {
            return null;
        }
        // Ranks whose calls read alike in the sentence are one part of it.
        Map<String, BitSet> parts = new LinkedHashMap<>();
        for (Group g : sameNumber) {
            parts.computeIfAbsent(g.call.signature(), k -> new BitSet()).or(g.ranks);
        }
        CollectiveCall first = sameNumber.get(0).call;
        StringBuilder b = new StringBuilder("ranks disagree about collective #").append(first.sequence()).append(" on ")
                .append(first.communicatorName()).append(": ");
        String sep = "";
        for (Map.Entry<String, BitSet> p : parts.entrySet()) {
            b.append(sep).append(RankSets.format(p.getValue())).append(' ').append(p.getKey());
            sep = "; ";
        }
        return b.append(" (every rank must make the same call)").toString();
    }
}
