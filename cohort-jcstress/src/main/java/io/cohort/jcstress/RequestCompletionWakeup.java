package io.cohort.jcstress;

import io.cohort.Status;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A thread waiting for a request never sleeps through its completion. The program's thread calls
 * {@code await()} on a posted receive: the real wait loop of {@code ProgressEngine} makes it the
 * progress owner, and its idle round ({@code Waiter.block}) announces it as the request's waiter,
 * checks the request once more, and only then sleeps in the transport. A transport's thread
 * delivers the message; the completion ({@code AbstractRequest.finish}) stores the state, then
 * reads the waiter and, finding one, wakes the owner through the transport
 * ({@code wakeOwnerIfBlocked}). The transport here records a sleep instead of sleeping: it
 * returns at the wake-up, or when the delivering thread has finished without one, which is the
 * lost wake-up (outcome 3) rather than a hang. The delivering thread starts when the waiter
 * begins its idle round (a flag set by the idle strategy), so that the two race inside the
 * handshake instead of the delivery being over long before the waiter gets there (it gives up
 * waiting after 100 ms, so a waiter that failed cannot hang the run).
 *
 * <p>Ordering checked: Dekker's handshake. The waiter stores its announcement and then loads the
 * state; the completer stores the state and then loads the waiter; both pairs are volatile, so at
 * least one side sees the other. The wrong ordering it catches is a store that may pass the load
 * after it: {@code finish} storing the state with {@code lazySet} (a release, as its own
 * single-thread shortcut does) instead of a volatile store, or the announcement made with a
 * release store. x86 does let a store pass a later load (the store buffer), so this one shows on
 * x86 hardware: the waiter sleeps, and the completion saw no waiter. A waiter that is not the
 * owner follows the same handshake and differs only in being woken by {@code LockSupport.unpark},
 * which cannot be observed without a real park. The status and bytes after the wait are checked
 * as in {@link RequestCompletionVisibility}.
 */
@JCStressTest
@Description("Request completion: a waiter that goes to sleep is always woken by the completion")
@Outcome(id = "0, 16, 2001, 2004", expect = ACCEPTABLE,
        desc = "delivered before the waiter went idle (only if the hand-off gave up waiting for it)")
@Outcome(id = "1, 16, 2001, 2004", expect = ACCEPTABLE,
        desc = "the waiter's check after announcing itself found the request done: no sleep")
@Outcome(id = "2, 16, 2001, 2004", expect = ACCEPTABLE, desc = "the waiter slept and the completion woke it")
@Outcome(id = "3, .*", expect = FORBIDDEN, desc = "lost wake-up: the waiter slept and the completion saw no waiter")
@Outcome(expect = FORBIDDEN, desc = "a missing or stale status or received bytes after the wait")
public class RequestCompletionWakeup {

    @State
    public static class Posted extends PostedReceive {
    }

    /** Longest wait for the waiter's idle round: a waiter that failed before it never comes, and this must not hang. */
    private static final long HAND_OFF_NANOS = 100_000_000L;

    @Actor
    public void transport(Posted s) {
        long start = System.nanoTime();
        while (!s.idling && System.nanoTime() - start < HAND_OFF_NANOS) {
            Thread.onSpinWait();
        }
        s.arrive();
        s.transport.completerDone = true;
    }

    /**
     * r1: how the wait went: 0 done before it went idle, 1 its last check found it done, 2 slept
     * and woken, 3 slept and never woken; r2: the status's length (-3:
     * none); r3, r4: the first and last int received.
     */
    @Actor
    public void program(Posted s, IIII_Result r) {
        Status st = s.request.await();
        PostedReceive.SleepRecorder t = s.transport;
        r.r1 = s.idled == 0 ? 0 : t.slept == 0 ? 1 : t.missed ? 3 : 2;
        r.r2 = st == null ? -3 : st.length();
        r.r3 = s.into.getInt(0);
        r.r4 = s.into.getInt(PostedReceive.LENGTH - Integer.BYTES);
    }
}
