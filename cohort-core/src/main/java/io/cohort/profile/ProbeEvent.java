package io.cohort.profile;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** A {@code probe} or {@code iprobe} by the program: what it asked for and whether a message was there. */
@Name(ProbeEvent.NAME)
@Label("Probe")
@Category({"Cohort", "Messages"})
@Enabled(false) // on only where a recording asks (cohort.jfc): an unrelated recording pays nothing
@Description("A probe or iprobe by the program; lasts as long as the call")
public final class ProbeEvent extends Event {
    public static final String NAME = "io.cohort.Probe";
    private static final ProbeEvent PROBE = new ProbeEvent();

    @Label("Communicator")
    @Description("Context id of the communicator probed (0: the world)")
    public int communicator;

    @Label("Peer")
    @Description("World rank asked for, -1 for any source")
    public int peer;

    @Label("Tag")
    @Description("Tag asked for, -1 for any tag")
    public int tag;

    @Label("Found")
    @Description("Whether a matching message was waiting")
    public boolean found;

    /** A begun event if a recording wants probes, else null: nothing is allocated while none does. */
    public static ProbeEvent startIfEnabled() {
        if (!PROBE.isEnabled()) {
            return null;
        }
        ProbeEvent e = new ProbeEvent();
        e.begin();
        return e;
    }

    public void finish(int communicator, int peer, int tag, boolean found) {
        end();
        if (shouldCommit()) {
            this.communicator = communicator;
            this.peer = peer;
            this.tag = tag;
            this.found = found;
            commit();
        }
    }
}
