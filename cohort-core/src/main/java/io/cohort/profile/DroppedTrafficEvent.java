package io.cohort.profile;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * What this peer's transports dropped for one reason over the whole job (a frame that failed
 * authentication, another job's, a malformed one): one event per transport and reason, at the end of
 * the job, with the same words as the {@code --verbose} line ({@code io.cohort.wireup.DropReport}).
 */
@Name(DroppedTrafficEvent.NAME)
@Label("Dropped Traffic")
@Category({"Cohort", "Protocol"})
@Enabled(false) // on only where a recording asks (cohort.jfc): an unrelated recording pays nothing
@Description("Traffic a transport dropped over the job as not this job's, failing authentication, or malformed")
@StackTrace(false)
public final class DroppedTrafficEvent extends Event {
    public static final String NAME = "io.cohort.DroppedTraffic";
    private static final DroppedTrafficEvent PROBE = new DroppedTrafficEvent();

    @Label("Transport")
    @Description("udp, tcp or broadcast domain")
    public String transport;

    @Label("Reason")
    @Description("failed authentication, other job, not cohort, malformed, ...")
    public String reason;

    @Label("Unit")
    @Description("What was counted: datagram, connection or frame")
    public String unit;

    @Label("Count")
    @Description("How many were dropped for this reason over the job")
    public long count;

    /** Commits the event if a recording wants it. */
    public static void emit(String transport, String reason, String unit, long count) {
        if (PROBE.isEnabled()) {
            DroppedTrafficEvent e = new DroppedTrafficEvent();
            e.transport = transport;
            e.reason = reason;
            e.unit = unit;
            e.count = count;
            e.commit();
        }
    }
}
