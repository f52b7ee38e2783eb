package io.cohort.profile;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The program's life with its world communicator: begun when the world is made, committed when
 * the program closes it (before the goodbyes with the other peers), or when the peer ends with an
 * uncaught exception ({@link #finishAll}). Readers take its duration as the application's time.
 */
@Name(JobEvent.NAME)
@Label("Job")
@Category({"Cohort", "Job"})
@Enabled(false) // on only where a recording asks (cohort.jfc): an unrelated recording pays nothing
@Description("From the world communicator's creation until the program closed it")
@StackTrace(false)
public final class JobEvent extends Event {
    public static final String NAME = "io.cohort.Job";
    private static final JobEvent PROBE = new JobEvent();
    /** Begun and not yet finished: several in one JVM when peers are threads (LocalCohort). */
    private static final Set<JobEvent> OPEN = ConcurrentHashMap.newKeySet();

    @Label("Rank")
    @Description("World rank")
    public int rank;

    /** A begun event if a recording wants it, else null. */
    public static JobEvent startIfEnabled(int rank) {
        if (!PROBE.isEnabled()) {
            return null;
        }
        JobEvent e = new JobEvent();
        e.rank = rank;
        e.begin();
        OPEN.add(e);
        return e;
    }

    /** Ends and commits the event; once, whoever comes first (the close, or {@link #finishAll}). */
    public void finish() {
        if (OPEN.remove(this)) {
            end();
            commit();
        }
    }

    /** Finishes every open job event: the peer is about to exit without closing its world. */
    public static void finishAll() {
        for (JobEvent e : OPEN) {
            e.finish();
        }
    }
}
