package io.cohort.tools.stacks;

import io.cohort.stacks.JobStacks;
import io.cohort.stacks.RankStacks;
import io.cohort.stacks.ThreadStack;

/**
 * {@code cohort stacks --raw}: each rank's threads one after the other, in the form of a JVM thread
 * dump ({@code "name" daemon STATE on LOCK}, then {@code at frame} lines), without merging.
 */
public final class RawStacksFormatter {
    private RawStacksFormatter() {
    }

    public static String format(JobStacks job, ThreadFilter filter) {
        StringBuilder b = new StringBuilder();
        StackTreeFormatter.header(b, job);
        for (RankStacks r : job.ranks()) {
            if (!r.hasAnswered()) {
                continue;
            }
            b.append("\n--- rank ").append(r.rank()).append(" (pid ").append(r.pid()).append(" on ").append(r.host())
                    .append(") ---\n");
            int hidden = 0;
            for (ThreadStack t : r.stacks().threads()) {
                if (!filter.shows(t)) {
                    hidden++;
                    continue;
                }
                b.append('"').append(t.name()).append('"').append(t.daemon() ? " daemon" : "").append(" #").append(t.id())
                        .append(' ').append(t.state());
                if (t.lockName() != null) {
                    b.append(" on ").append(t.lockName());
                }
                if (t.lockOwner() != null) {
                    b.append(" held by \"").append(t.lockOwner()).append('"');
                }
                b.append('\n');
                if (t.call() != null) {
                    b.append("    in ").append(t.call().describe()).append('\n');
                }
                if (t.peerWait() != null) {
                    b.append("    ").append(t.peerWait().describe(t.call() != null)).append('\n');
                }
                for (StackTraceElement f : t.frames()) {
                    b.append("    at ").append(f).append('\n');
                }
                b.append('\n');
            }
            if (hidden > 0) {
                b.append("(").append(StackTreeFormatter.threads(hidden)).append(" of JVM housekeeping hidden)\n");
            }
            if (r.stacks().omittedThreads() > 0) {
                b.append("(").append(StackTreeFormatter.threads(r.stacks().omittedThreads()))
                        .append(" left out, beyond the size limit of one peer's stacks)\n");
            }
        }
        return b.toString();
    }
}
