package io.cohort.profile;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * This peer asked for data it misses: a PCODE NACK, an EQA gap acknowledgement, or a udp
 * acknowledgement sent at once because a gap opened (its selective map names what is missing).
 */
@Name(NackEvent.NAME)
@Label("NACK")
@Category({"Cohort", "Protocol"})
@Enabled(false) // on only where a recording asks (cohort.jfc): an unrelated recording pays nothing
@Description("A request for missing data: PCODE NACK, EQA gap ack, udp ack announcing a gap")
@StackTrace(false)
public final class NackEvent extends Event {
    public static final String NAME = "io.cohort.Nack";
    private static final NackEvent PROBE = new NackEvent();

    @Label("Transport")
    @Description("udp, pcode or eqa")
    public String transport;

    @Label("Peer")
    @Description("Rank asked to resend, -1 for everyone (a multicast NACK)")
    public int peer;

    @Label("Count")
    @Description("How many sequence numbers the NACK asks for")
    public int count;

    /** Whether a recording wants NACKs; cheap, allocates nothing. */
    public static boolean enabled() {
        return PROBE.isEnabled();
    }

    /** Commits the event if a recording wants it. */
    public static void emit(String transport, int peer, long count) {
        if (PROBE.isEnabled()) {
            NackEvent e = new NackEvent();
            e.transport = transport;
            e.peer = peer;
            e.count = (int) Math.max(0, Math.min(Integer.MAX_VALUE, count));
            e.commit();
        }
    }
}
