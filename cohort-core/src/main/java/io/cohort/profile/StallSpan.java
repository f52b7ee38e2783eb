package io.cohort.profile;

/**
 * A flow-control stall of a transport (its window full while messages wait), measured for the
 * profile (see {@link SendSpan}). Started and finished by whichever thread drives the transport,
 * under the transport's own lock.
 */
public final class StallSpan {
    private final long start;
    private final String transport;
    private final int peer;
    private final FlowControlStallEvent event;

    private StallSpan(long start, String transport, int peer, FlowControlStallEvent event) {
        this.start = start;
        this.transport = transport;
        this.peer = peer;
        this.event = event;
    }

    static StallSpan start(boolean summary, String transport, int peer) {
        if (summary) {
            return new StallSpan(System.nanoTime(), transport, peer, null);
        }
        FlowControlStallEvent e = FlowControlStallEvent.startIfEnabled(transport, peer);
        return e == null ? null : new StallSpan(0, transport, peer, e);
    }

    public void finish() {
        if (event != null) {
            event.finish();
        } else {
            Summary.stall(transport, peer, System.nanoTime() - start);
        }
    }
}
