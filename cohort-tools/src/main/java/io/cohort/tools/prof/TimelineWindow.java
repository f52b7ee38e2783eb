package io.cohort.tools.prof;

/**
 * The part of the job the HTML report's timeline draws, in nanoseconds since the job's first event
 * (the time zero of the trace too). {@link #WHOLE_JOB} draws from the start; in either case at most
 * {@link Timeline#MAX_EVENTS} events are drawn, the earliest first.
 *
 * @param fromNanos start of the window, 0 or more
 * @param toNanos   end of the window, above {@code fromNanos}; {@link Long#MAX_VALUE} for the end of the job
 */
public record TimelineWindow(long fromNanos, long toNanos) {
    public static final TimelineWindow WHOLE_JOB = new TimelineWindow(0, Long.MAX_VALUE);

    public TimelineWindow {
        if (fromNanos < 0 || toNanos <= fromNanos) {
            throw new IllegalArgumentException("a timeline window needs 0 <= FROM < TO, not " + fromNanos + "-" + toNanos + " ns");
        }
    }

    /** Whether a window was chosen (anything but the default, {@link #WHOLE_JOB}). */
    public boolean isChosen() {
        return !equals(WHOLE_JOB);
    }

    /**
     * Parses the command line's {@code FROM:TO}, milliseconds since the job's first event, decimals
     * allowed; an empty side means the job's start or end ({@code 250:}, {@code :40}).
     *
     * @throws IllegalArgumentException one sentence saying what is wrong and what to write
     */
    public static TimelineWindow parse(String text) {
        String usage = "write FROM:TO in milliseconds since the job's first event, e.g. 120:180, 250: or :40";
        int colon = text.indexOf(':');
        if (colon < 0 || text.indexOf(':', colon + 1) >= 0) {
            throw new IllegalArgumentException("'" + text + "' is not a time window; " + usage);
        }
        String from = text.substring(0, colon).trim();
        String to = text.substring(colon + 1).trim();
        long f = from.isEmpty() ? 0 : nanos(from, text, usage);
        long t = to.isEmpty() ? Long.MAX_VALUE : nanos(to, text, usage);
        if (t <= f) {
            throw new IllegalArgumentException("'" + text + "' ends before it starts; " + usage);
        }
        return new TimelineWindow(f, t);
    }

    private static long nanos(String millis, String text, String usage) {
        // Plain decimal milliseconds only: Double.parseDouble would also take NaN, Infinity and hex.
        if (!millis.matches("\\d+(\\.\\d*)?|\\.\\d+") || Double.parseDouble(millis) > 1e12) {
            throw new IllegalArgumentException("'" + text + "' is not a time window; " + usage);
        }
        return Math.round(Double.parseDouble(millis) * 1e6);
    }

    /** {@code 120-180 ms}, {@code 250 ms to the end}, as the report states it. */
    public String describe() {
        String from = Fmt.millisShort(fromNanos);
        return toNanos == Long.MAX_VALUE ? from + " ms to the end" : from + "\u2013" + Fmt.millisShort(toNanos) + " ms";
    }
}
