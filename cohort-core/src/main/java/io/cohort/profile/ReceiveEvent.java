package io.cohort.profile;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * A message handed to the program. A blocking receive's event lasts as long as the call; a
 * nonblocking one's is an instant, at the wait, test or {@code message()} that first shows the
 * program its completed request (the wait is a {@link WaitEvent} of its own, and the two must not
 * both count the same time). {@link #sequence} is the message's arrival number from that world peer,
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

    /** Commits an instant Receive (no duration) if a recording wants receives: a nonblocking receive handed over. */
    public static void emit(int communicator, int peer, int tag, long bytes, long sequence, String operation) {
        if (PROBE.isEnabled()) {
            ReceiveEvent e = new ReceiveEvent();
            e.matched(peer, tag, bytes, sequence);
            e.communicator = communicator;
            e.operation = operation;
            e.commit();
        }
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
