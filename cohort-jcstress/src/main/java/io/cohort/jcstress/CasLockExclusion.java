package io.cohort.jcstress;

import io.cohort.concurrent.CasLock;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link CasLock} excludes, and hands its holder's writes to the next holder. Two threads each
 * take the lock, read a pair of plain fields, write both with a new value (the pair it read plus
 * one, in two separate stores) and unlock. The outcome is the pair actor 1 found, the pair actor
 * 2 found, and the pair left at the end (r1..r6).
 *
 * <p>Ordering checked: the CAS in {@code lock()} acquires and the release store in
 * {@code unlock()} publishes, so the second holder sees both of the first holder's stores (never
 * one of them: a torn pair such as {@code 1, 0}), and the two sections never overlap (never both
 * reading {@code 0, 0}: a lost update, ending at {@code 1, 1}). A {@code lock()} that tests the
 * state and then sets it in two steps instead of one CAS shows here at once, as lost updates and
 * torn pairs. The orderings themselves cannot be weakened in a way x86 would show: its CAS is a
 * full fence whatever the Java mode, and it never lets a store pass an earlier store, so an
 * {@code unlock()} by plain store instead of release would only show where the JIT moved the
 * critical section's stores below it, or on AArch64 or POWER hardware.
 */
@JCStressTest
@Description("CasLock: two lock/update/unlock sections never overlap and never see a half-written pair")
@Outcome(id = "0, 0, 1, 1, 2, 2", expect = ACCEPTABLE, desc = "actor 1 went first; actor 2 saw its whole pair")
@Outcome(id = "1, 1, 0, 0, 2, 2", expect = ACCEPTABLE, desc = "actor 2 went first; actor 1 saw its whole pair")
@Outcome(expect = FORBIDDEN, desc = "a lost update, a torn pair, or overlapping sections")
public class CasLockExclusion {

    @State
    public static class Shared {
        final CasLock lock = new CasLock();
        int a;
        int b;
    }

    @Actor
    public void actor1(Shared s, IIIIII_Result r) {
        s.lock.lock();
        try {
            int seenA = s.a;
            int seenB = s.b;
            s.a = seenA + 1;
            s.b = seenB + 1;
            r.r1 = seenA;
            r.r2 = seenB;
        } finally {
            s.lock.unlock();
        }
    }

    @Actor
    public void actor2(Shared s, IIIIII_Result r) {
        s.lock.lock();
        try {
            int seenA = s.a;
            int seenB = s.b;
            s.a = seenA + 1;
            s.b = seenB + 1;
            r.r3 = seenA;
            r.r4 = seenB;
        } finally {
            s.lock.unlock();
        }
    }

    /** After both sections: the pair they left. */
    @Arbiter
    public void end(Shared s, IIIIII_Result r) {
        r.r5 = s.a;
        r.r6 = s.b;
    }
}
