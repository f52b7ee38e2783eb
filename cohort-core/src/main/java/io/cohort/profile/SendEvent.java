package io.cohort.profile;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * A point-to-point send the program made ({@code send}, {@code isend}, {@code sendObject}): the
 * event lasts as long as the call. {@link #sequence} numbers the message among everything this
 * peer's engine sent to that world peer, so it pairs with the {@link ReceiveEvent} of the same
 * number at the destination.
 */
@Name(SendEvent.NAME)
@Label("Send")
@Category({"Cohort", "Messages"})
@Enabled(false) // on only where a recording asks (cohort.jfc): an unrelated recording pays nothing
@Description("A point-to-point send by the program; lasts as long as the call")
public final class SendEvent extends Event {
    public static final String NAME = "io.cohort.Send";
    /** Only asked whether the event is on; never begun or committed, so threads may share it. */
    private static final SendEvent PROBE = new SendEvent();

    @Label("Communicator")
    @Description("Context id of the communicator the message was sent on (0: the world)")
    public int communicator;

    @Label("Peer")
    @Description("World rank of the destination")
    public int peer;

    @Label("Tag")
    public int tag;

    @Label("Bytes")
    @DataAmount
    public long bytes;

    @Label("Sequence")
    @Description("Number of this message among all this peer sent to that world peer, from 0, collectives' included")
    public long sequence;

    @Label("Operation")
    @Description("The API call: send, isend, sendObject")
    public String operation;

    /** A begun event if a recording wants sends, else null: nothing is allocated while none does. */
    public static SendEvent startIfEnabled() {
        if (!PROBE.isEnabled()) {
            return null;
        }
        SendEvent e = new SendEvent();
        e.begin();
        return e;
    }

    /** Ends the call's event and commits it (if it passed the recording's threshold). */
    public void finish(int communicator, int peer, int tag, long bytes, long sequence, String operation) {
        end();
        if (shouldCommit()) {
            this.communicator = communicator;
            this.peer = peer;
            this.tag = tag;
            this.bytes = bytes;
            this.sequence = sequence;
            this.operation = operation;
            commit();
        }
    }
}
