package io.cohort.profile;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * A message handed to the program: at the return of a blocking receive, or by the wait, test or
 * {@code message()} that first shows the program a completed nonblocking one. The event lasts as
 * long as that call. {@link #sequence} is the message's arrival number from that world peer,
 * stamped when the engine took it off the transport; transports are FIFO per ordered pair, so it
 * equals the sender's {@link SendEvent#sequence}.
 */
@Name(ReceiveEvent.NAME)
@Label("Receive")
@Category({"Cohort", "Messages"})
@Enabled(false) // on only where a recording asks (cohort.jfc): an unrelated recording pays nothing
@Description("A message handed to the program by a receive, or by the wait or test that completed a nonblocking one")
public final class ReceiveEvent extends Event {
    public static final String NAME = "io.cohort.Receive";
    private static final ReceiveEvent PROBE = new ReceiveEvent();

    @Label("Communicator")
    @Description("Context id of the communicator the message was received on (0: the world)")
    public int communicator;

    @Label("Peer")
    @Description("World rank of the source")
    public int peer;

    @Label("Tag")
    public int tag;

    @Label("Bytes")
    @DataAmount
    public long bytes;

    @Label("Sequence")
    @Description("Arrival number of this message among all that came from that world peer, from 0, as the sender counted")
    public long sequence;

    @Label("Operation")
    @Description("The API call that started the receive: recv, irecv, recvObject")
    public String operation;

    /** Whether a recording wants receives; cheap, allocates nothing. */
    public static boolean enabled() {
        return PROBE.isEnabled();
    }

    /** A begun event if a recording wants receives, else null: nothing is allocated while none does. */
    public static ReceiveEvent startIfEnabled() {
        if (!PROBE.isEnabled()) {
            return null;
        }
        ReceiveEvent e = new ReceiveEvent();
        e.begin();
        return e;
    }

    /** What the engine learned when the message matched: set before {@link #finish}. */
    public void matched(int peer, int tag, long bytes, long sequence) {
        this.peer = peer;
        this.tag = tag;
        this.bytes = bytes;
        this.sequence = sequence;
    }

    /** Ends the call's event and commits it (if it passed the recording's threshold); {@link #matched} came first. */
    public void finish(int communicator, String operation) {
        end();
        if (shouldCommit()) {
            this.communicator = communicator;
            this.operation = operation;
            commit();
        }
    }
}
