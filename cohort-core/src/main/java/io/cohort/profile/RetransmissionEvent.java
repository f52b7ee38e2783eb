package io.cohort.profile;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** This peer sent a frame again (asked by a NACK or gap ack, or after a time-out). */
@Name(RetransmissionEvent.NAME)
@Label("Retransmission")
@Category({"Cohort", "Protocol"})
@Enabled(false) // on only where a recording asks (cohort.jfc): an unrelated recording pays nothing
@Description("A frame sent again, after a NACK, a gap ack or a time-out")
@StackTrace(false)
public final class RetransmissionEvent extends Event {
    public static final String NAME = "io.cohort.Retransmission";
    private static final RetransmissionEvent PROBE = new RetransmissionEvent();

    @Label("Transport")
    @Description("udp, pcode or eqa")
    public String transport;

    @Label("Peer")
    @Description("Rank the frame went to, -1 for everyone (multicast)")
    public int peer;

    @Label("Sequence")
    @Description("The frame's sequence number in its stream (udp: the pair's frame number; pcode: personal count; eqa: packet number)")
    public long sequence;

    @Label("Bytes")
    @Description("Size of the datagram sent again")
    @DataAmount
    public long bytes;

    /** Whether a recording wants retransmissions; cheap, allocates nothing. */
    public static boolean enabled() {
        return PROBE.isEnabled();
    }

    /** Commits the event if a recording wants it. */
    public static void emit(String transport, int peer, long sequence, long bytes) {
        if (PROBE.isEnabled()) {
            RetransmissionEvent e = new RetransmissionEvent();
            e.transport = transport;
            e.peer = peer;
            e.sequence = sequence;
            e.bytes = bytes;
            e.commit();
        }
    }
}
