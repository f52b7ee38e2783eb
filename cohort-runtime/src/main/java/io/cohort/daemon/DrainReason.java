package io.cohort.daemon;

/**
 * What a drain reason may be: one line of at most {@link #MAX} characters. It travels in every STATUS
 * answer, in the daemon's log and in a row of {@code cohort status}, so a long one would swell every
 * member's status and a line break would forge a row. Checked by {@code cohort admin drain} and again
 * by the daemon.
 */
public final class DrainReason {
    public static final int MAX = 200;

    private DrainReason() {
    }

    /** Null if {@code reason} may be a drain reason, else what is wrong with it. */
    public static String check(String reason) {
        if (reason.isBlank()) {
            return "a drain reason must say why";
        }
        if (reason.length() > MAX) {
            return "a drain reason is at most " + MAX + " characters, not " + reason.length();
        }
        if (reason.chars().anyMatch(Character::isISOControl)) {
            return "a drain reason is one line of text, without line breaks or control characters";
        }
        return null;
    }
}
