package io.cohort.profile;

/** A probe the program is making ({@code probe}, {@code iprobe}), measured for the profile (see {@link SendSpan}). */
public final class ProbeSpan {
    private final long start;
    private final ProbeEvent event;

    private ProbeSpan(long start, ProbeEvent event) {
        this.start = start;
        this.event = event;
    }

    static ProbeSpan start(boolean summary) {
        if (summary) {
            return new ProbeSpan(Summary.start(Summary.Kind.PROBE), null);
        }
        ProbeEvent e = ProbeEvent.startIfEnabled();
        return e == null ? null : new ProbeSpan(0, e);
    }

    /** {@code peer}: the world rank asked for, -1 for any. */
    public void finish(int communicator, int peer, int tag, boolean found) {
        if (event != null) {
            event.finish(communicator, peer, tag, found);
        } else {
            Summary.finish(Summary.Kind.PROBE, "probe", "", communicator, peer, -1, start);
        }
    }
}
