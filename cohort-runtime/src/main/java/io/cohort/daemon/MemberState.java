package io.cohort.daemon;

/**
 * A member's state in a load server's table, as {@code cohort status} prints it. Only {@link #UP}
 * members may be given new jobs. When several apply, the first in this list wins:
 * down, unknown, not-responding, drained, up.
 */
public enum MemberState {
    /** The ring reported it lost (its daemon died, or its host or link did); no update has arrived since. */
    DOWN("down"),
    /** Nothing heard from it since this load server started (its daemon is not running, or not yet). */
    UNKNOWN("unknown"),
    /** Its last update is older than {@code daemon.ttl} (PSE's time-to-live rule). */
    NOT_RESPONDING("not-responding"),
    /** An administrator set its slots to 0 ({@code cohort admin drain}), with a reason. */
    DRAINED("drained"),
    /** Its updates arrive and it takes jobs. */
    UP("up");

    private final String label;

    MemberState(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static MemberState ofLabel(String label) {
        for (MemberState s : values()) {
            if (s.label.equals(label)) {
                return s;
            }
        }
        throw new MalformedMessageException("unknown member state '" + label + "'");
    }
}
