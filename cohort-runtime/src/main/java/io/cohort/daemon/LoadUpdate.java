package io.cohort.daemon;

import java.util.Arrays;
import java.util.List;

/**
 * The body of an {@link MessageType#UPDATE}: a member's dynamic information.
 *
 * @param load1       1, 5 and 15-minute load averages (-1 where the system has none)
 * @param cpus        processors
 * @param slots       job slots in effect (0 while drained)
 * @param jobs        ids of active jobs
 * @param drainReason the drain's reason, or null when not drained
 */
public record LoadUpdate(double load1, double load5, double load15, int cpus, int slots, List<String> jobs,
                         String drainReason) {
    public LoadUpdate {
        jobs = List.copyOf(jobs);
    }

    public MessageBody toBody() {
        MessageBody b = MessageBody.empty()
                .put("load1", format(load1)).put("load5", format(load5)).put("load15", format(load15))
                .put("cpus", cpus).put("slots", slots).put("jobs", String.join(",", jobs));
        if (drainReason != null) {
            b.put("drain", drainReason);
        }
        return b;
    }

    /** Reads an update body; a missing or bad field is a {@link MalformedMessageException}. */
    public static LoadUpdate fromBody(MessageBody b) {
        String jobs = b.get("jobs", "");
        return new LoadUpdate(b.getDouble("load1"), b.getDouble("load5"), b.getDouble("load15"), b.getInt("cpus"),
                b.getInt("slots"), jobs.isEmpty() ? List.of() : Arrays.asList(jobs.split(",")), b.get("drain"));
    }

    static String format(double d) {
        return String.format(java.util.Locale.ROOT, "%.2f", d);
    }
}
