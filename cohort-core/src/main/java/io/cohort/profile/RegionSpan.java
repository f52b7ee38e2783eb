package io.cohort.profile;

/** A region of the program ({@code Profile.region}), measured for the profile (see {@link SendSpan}). */
public final class RegionSpan {
    private final long start;
    private final RegionEvent event;

    private RegionSpan(long start, RegionEvent event) {
        this.start = start;
        this.event = event;
    }

    static RegionSpan start(boolean summary) {
        if (summary) {
            return new RegionSpan(System.nanoTime(), null);
        }
        RegionEvent e = RegionEvent.startIfEnabled();
        return e == null ? null : new RegionSpan(0, e);
    }

    public void finish(String name) {
        if (event != null) {
            event.finish(name);
        } else {
            Summary.region(name, System.nanoTime() - start);
        }
    }
}
