package io.cohort.profile;

/**
 * The program waiting on (or testing) requests it holds, measured for the profile (see
 * {@link SendSpan}). A wait made inside an enclosing wait of the same thread ({@code awaitAll}
 * awaits each request) measures nothing of its own, so no time is counted twice.
 */
public final class WaitSpan {
    /** How many enclosing waits this thread is inside; read only while something measures waits. */
    private static final ThreadLocal<int[]> DEPTH = new ThreadLocal<>() { // not withInitial: no lambda to link
        @Override
        protected int[] initialValue() {
            return new int[1];
        }
    };

    private final long start;
    private final WaitEvent event;
    private int[] enclosing;

    private WaitSpan(long start, WaitEvent event) {
        this.start = start;
        this.event = event;
    }

    /**
     * A started span, or null if this thread is inside an enclosing wait already or the recording
     * wants no waits. With {@code enclosing}, until {@link #finish} the waits this thread makes are
     * parts of this one; call {@code finish} in a {@code finally} then.
     */
    static WaitSpan start(boolean summary, boolean enclosing) {
        if (!summary && !WaitEvent.enabled()) {
            return null;
        }
        int[] depth = DEPTH.get();
        if (depth[0] > 0) {
            return null;
        }
        WaitSpan s;
        if (summary) {
            s = new WaitSpan(Summary.start(Summary.Kind.WAIT), null);
        } else {
            WaitEvent e = WaitEvent.startIfEnabled();
            if (e == null) {
                return null;
            }
            s = new WaitSpan(0, e);
        }
        if (enclosing) {
            depth[0]++;
            s.enclosing = depth;
        }
        return s;
    }

    /** {@code operation}: await, test, awaitAll, awaitAny, testAll; {@code requests}: how many it covered. */
    public void finish(String operation, int requests) {
        if (enclosing != null) {
            enclosing[0]--;
            enclosing = null;
        }
        if (event != null) {
            event.finish(operation, requests);
        } else {
            Summary.finish(Summary.Kind.WAIT, operation, "", -1, -1, -1, start);
        }
    }
}
