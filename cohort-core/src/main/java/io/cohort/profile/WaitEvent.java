package io.cohort.profile;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * The program waiting on (or testing) requests it holds: {@code await}, {@code test},
 * {@code awaitAll}, {@code awaitAny}, {@code testAll}. {@link WaitSpan} keeps a wait inside an
 * enclosing one ({@code awaitAll} awaits each request) from recording one of its own, and the
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
    @Label("Operation")
    @Description("The call: await, test, awaitAll, awaitAny, testAll")
    public String operation;

    @Label("Requests")
    @Description("How many requests the call waited on or tested")
    public int requests;

    /** Whether a recording wants waits; cheap, allocates nothing. */
    public static boolean enabled() {
        return PROBE.isEnabled();
    }

    /** A begun event if a recording wants waits, else null. {@link WaitSpan} decides which waits get one. */
    public static WaitEvent startIfEnabled() {
        if (!PROBE.isEnabled()) {
            return null;
        }
        WaitEvent e = new WaitEvent();
        e.begin();
        return e;
    }

    public void finish(String operation, int requests) {
        end();
        if (shouldCommit()) {
            this.operation = operation;
            this.requests = requests;
            commit();
        }
    }
}
