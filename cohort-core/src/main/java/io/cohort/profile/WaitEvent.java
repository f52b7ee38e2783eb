package io.cohort.profile;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * The program waiting on (or testing) requests it holds: {@code await}, {@code test},
 * {@code awaitAll}, {@code awaitAny}, {@code testAll}. A wait made inside another recorded wait of
 * the same thread ({@code awaitAll} awaits each request) records nothing of its own, and the
 * library's own waits (inside collectives, DECK) never reach this class.
 */
@Name(WaitEvent.NAME)
@Label("Wait")
@Category({"Cohort", "Messages"})
@Enabled(false) // on only where a recording asks (cohort.jfc): an unrelated recording pays nothing
@Description("The program waiting on or testing its requests; lasts as long as the call")
public final class WaitEvent extends Event {
    public static final String NAME = "io.cohort.Wait";
    private static final WaitEvent PROBE = new WaitEvent();
    /**
     * How many enclosing waits this thread is inside. Read only while a recording wants waits, so
     * a program that is not profiled never touches it.
     */
    private static final ThreadLocal<int[]> DEPTH = new ThreadLocal<>() {
        @Override
        protected int[] initialValue() {
            return new int[1];
        }
    };

    @Label("Operation")
    @Description("The call: await, test, awaitAll, awaitAny, testAll")
    public String operation;

    @Label("Requests")
    @Description("How many requests the call waited on or tested")
    public int requests;

    private transient int[] enclosing;

    /** Whether a recording wants waits; cheap, allocates nothing. */
    public static boolean enabled() {
        return PROBE.isEnabled();
    }

    /**
     * A begun event if a recording wants waits and this thread is not inside a recorded wait
     * already, else null: nothing is allocated while no recording wants it.
     */
    public static WaitEvent startIfEnabled() {
        if (!PROBE.isEnabled() || DEPTH.get()[0] > 0) {
            return null;
        }
        WaitEvent e = new WaitEvent();
        e.begin();
        return e;
    }

    /**
     * Like {@link #startIfEnabled}, and until {@link #finish} the waits this thread makes are parts
     * of this one and record nothing themselves. Call {@code finish} in a {@code finally}.
     */
    public static WaitEvent startEnclosingIfEnabled() {
        WaitEvent e = startIfEnabled();
        if (e != null) {
            int[] depth = DEPTH.get();
            depth[0]++;
            e.enclosing = depth;
        }
        return e;
    }

    public void finish(String operation, int requests) {
        end();
        if (enclosing != null) {
            enclosing[0]--;
            enclosing = null;
        }
        if (shouldCommit()) {
            this.operation = operation;
            this.requests = requests;
            commit();
        }
    }
}
