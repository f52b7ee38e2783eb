package io.cohort.jcstress;

import io.cohort.Status;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A thread that sees a request done also sees its result. One thread delivers the message of a
 * posted receive through the real engine (matching, the copy into the user's buffer, the
 * buffer's position moved past it, the status, then the completion); the other, the program's
 * thread, asks {@code isDone()} once and, if so, takes the status from {@code await()} (which
 * then returns at once) and reads the buffer.
 *
 * <p>Ordering checked: the completion ({@code AbstractRequest.finish}) stores the state after the
 * status, the copied bytes and the buffer's position, with a store that releases them, and
 * {@code isDone()} reads it with an acquire. A completion that stored the state before the status
 * (two lines swapped in {@code complete}) shows as a missing status ({@code -3, ...}) or a stale
 * buffer on any machine. A state store without release semantics would let the earlier plain
 * stores drift past it; x86 keeps stores in order itself, so that only shows where the JIT moves
 * them, and on weaker hardware.
 */
@JCStressTest
@Description("Request completion: whoever sees the request done sees its status and its received bytes")
@Outcome(id = "-1, 0, 0, 0, 0", expect = ACCEPTABLE, desc = "not done yet")
@Outcome(id = "16, 1, 2001, 2004, 16", expect = ACCEPTABLE,
        desc = "done, with its status (16 bytes from rank 1), the bytes and the buffer's position")
@Outcome(expect = FORBIDDEN, desc = "done, but a missing or stale status, stale bytes or a stale position")
public class RequestCompletionVisibility {

    @State
    public static class Posted extends PostedReceive {
    }

    @Actor
    public void transport(Posted s) {
        s.arrive();
    }

    /** r1: the status's length (-1 not done, -3 no status); r2: its source; r3, r4: first and last int received; r5: the buffer's position. */
    @Actor
    public void program(Posted s, IIIII_Result r) {
        if (!s.request.isDone()) {
            r.r1 = -1;
            return;
        }
        Status st = s.request.await();
        if (st == null) {
            r.r1 = -3;
            return;
        }
        r.r1 = st.length();
        r.r2 = st.source();
        r.r3 = s.into.getInt(0);
        r.r4 = s.into.getInt(PostedReceive.LENGTH - Integer.BYTES);
        r.r5 = s.into.position();
    }
}
