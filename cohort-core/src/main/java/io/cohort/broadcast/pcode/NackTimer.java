package io.cohort.broadcast.pcode;

/**
 * The timer of one NACK (section 5.7): armed with an initial delay when the need appears (a
 * request that cannot be satisfied, a gap), then firing every interval until disarmed because the
 * missing frames arrived. Every NACK kind repeats, since a NACK or its answer may be lost too.
 *
 * <p>Threads: the domain's lock. Times are {@link System#nanoTime()} instants.
 */
final class NackTimer {
    private boolean armed;
    private long due;

    boolean isArmed() {
        return armed;
    }

    /** Arms the timer to fire {@code delay} from now, unless it is armed already. */
    void armIfIdle(long now, long delay) {
        if (!armed) {
            armed = true;
            due = now + delay;
        }
    }

    /** True (and re-armed {@code interval} later) if the timer is due at {@code now}. */
    boolean fire(long now, long interval) {
        if (armed && now - due >= 0) {
            due = now + interval;
            return true;
        }
        return false;
    }

    void disarm() {
        armed = false;
    }

    long due() {
        return armed ? due : Long.MAX_VALUE;
    }
}
