package io.cohort.tools.prof;

/**
 * The communication events whose durations add up to a peer's communication time. They do not nest
 * (a collective's internal messages record no Send or Receive), so summing them counts no time twice.
 */
public enum CommKind {
    SEND(ProfileEvents.SEND, "send"),
    RECEIVE(ProfileEvents.RECEIVE, "recv"),
    PROBE(ProfileEvents.PROBE, "probe"),
    WAIT(ProfileEvents.WAIT, "wait"),
    COLLECTIVE(ProfileEvents.COLLECTIVE, "collective");

    private final String eventName;
    private final String defaultOperation;

    CommKind(String eventName, String defaultOperation) {
        this.eventName = eventName;
        this.defaultOperation = defaultOperation;
    }

    public String eventName() {
        return eventName;
    }

    /** The operation's name when the event carries none (a Probe has no {@code operation} field). */
    String defaultOperation() {
        return defaultOperation;
    }

    /** Lower-case, as the trace's categories show it. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The kind a summary profile names by {@link #label()}, or null. */
    static CommKind ofLabel(String label) {
        for (CommKind k : values()) {
            if (k.label().equals(label)) {
                return k;
            }
        }
        return null;
    }

    static CommKind ofEvent(String eventName) {
        for (CommKind k : values()) {
            if (k.eventName.equals(eventName)) {
                return k;
            }
        }
        return null;
    }
}
