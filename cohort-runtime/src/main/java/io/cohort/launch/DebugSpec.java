package io.cohort.launch;

import java.util.Collections;
import java.util.Locale;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What {@code cohort run --debug[=RANKS]} asks for: the ranks whose JVMs start suspended with a
 * JDWP listener, and whether the launcher opens a tmux session with a jdb window per rank
 * ({@link DebuggerWindows}) or only prints how to attach.
 *
 * @param ranks the debugged ranks, at least one
 * @param tmux  open the tmux session when tmux is on the PATH ({@code --no-tmux}: never)
 */
public record DebugSpec(SortedSet<Integer> ranks, boolean tmux) {
    public DebugSpec {
        if (ranks.isEmpty()) {
            throw new IllegalArgumentException("no rank to debug");
        }
        ranks = Collections.unmodifiableSortedSet(new TreeSet<>(ranks));
    }

    /**
     * Parses {@code all} or a list of ranks and ranges ({@code 0,2-3}) for a job of {@code size} peers.
     * Throws IllegalArgumentException with a user-facing sentence.
     */
    public static DebugSpec parse(String value, int size, boolean tmux) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        SortedSet<Integer> ranks = new TreeSet<>();
        if (v.equals("all") || v.isEmpty()) {
            for (int r = 0; r < size; r++) {
                ranks.add(r);
            }
            return new DebugSpec(ranks, tmux);
        }
        for (String part : v.split(",", -1)) {
            String p = part.trim();
            int dash = p.indexOf('-');
            int from;
            int to;
            try {
                from = Integer.parseInt(dash < 0 ? p : p.substring(0, dash).trim());
                to = dash < 0 ? from : Integer.parseInt(p.substring(dash + 1).trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--debug=" + value + " is not 'all' or a list of ranks such as 0,2-3");
            }
            if (from > to) {
                throw new IllegalArgumentException("--debug=" + value + ": the range " + p + " runs backwards; write " + to + "-" + from);
            }
            if (to >= size) {
                throw new IllegalArgumentException("--debug=" + value + " names rank " + to + ", outside a job of " + size
                        + (size == 1 ? " peer (rank 0)" : " peers (ranks 0-" + (size - 1) + ")"));
            }
            for (int r = from; r <= to; r++) {
                ranks.add(r);
            }
        }
        return new DebugSpec(ranks, tmux);
    }

    public boolean includes(int rank) {
        return ranks.contains(rank);
    }
}
