package io.cohort.profile;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A sender held back by its window: udp (a pair's messages queued behind a full sliding window),
 * pcode (a multicast waiting for the flow window or for room in the sent buffer), eqa (the shared
 * retransmission buffer's window full). Lasts from the moment the window closed to the moment it
 * let the next frame go; committed by whichever thread saw it open.
 */
@Name(FlowControlStallEvent.NAME)
@Label("Flow Control Stall")
@Category({"Cohort", "Protocol"})
@Enabled(false) // on only where a recording asks (cohort.jfc): an unrelated recording pays nothing
@Description("A sender held back by a full window, from the moment it closed until it opened")
@StackTrace(false)
public final class FlowControlStallEvent extends Event {
    public static final String NAME = "io.cohort.FlowControlStall";
    private static final FlowControlStallEvent PROBE = new FlowControlStallEvent();

    @Label("Transport")
    @Description("udp, pcode or eqa")
    public String transport;

    @Label("Peer")
    @Description("Rank whose window is full, -1 for a broadcast window (everyone's)")
    public int peer;

    /** A begun event if a recording wants stalls, else null: nothing is allocated while none does. */
    public static FlowControlStallEvent startIfEnabled(String transport, int peer) {
        if (!PROBE.isEnabled()) {
            return null;
        }
        FlowControlStallEvent e = new FlowControlStallEvent();
        e.transport = transport;
        e.peer = peer;
        e.begin();
        return e;
    }

    /** Ends the stall's event and commits it (if it passed the recording's threshold). */
    public void finish() {
        end();
        if (shouldCommit()) {
            commit();
        }
    }
}
