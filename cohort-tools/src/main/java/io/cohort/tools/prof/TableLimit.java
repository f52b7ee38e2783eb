package io.cohort.tools.prof;

import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * How much of a ranked table a report shows: at most {@code top} entries, and only as many as it
 * takes to cover {@code sharePercent} of the table's total (the first entry is always shown; at
 * 100%, the default, every entry up to {@code top}, those of no weight too).
 */
public record TableLimit(int top, double sharePercent) {
    public static final int TOP_DEFAULT = 20;
    public static final TableLimit DEFAULT = new TableLimit(TOP_DEFAULT, 100);
    public static final TableLimit ALL = new TableLimit(Integer.MAX_VALUE, 100);

    public TableLimit {
        if (top < 1) {
            throw new IllegalArgumentException("--top must be 1 or more, not " + top);
        }
        if (!(sharePercent > 0 && sharePercent <= 100)) {
            throw new IllegalArgumentException("--share must be a percentage above 0 and at most 100, not " + sharePercent);
        }
    }

    /** The head of {@code sorted} (largest first) this limit keeps. */
    public <T> Ranked<T> apply(List<T> sorted, ToDoubleFunction<T> weight) {
        double total = 0;
        for (T t : sorted) {
            total += weight.applyAsDouble(t);
        }
        double enough = total * sharePercent / 100;
        double covered = 0;
        int n = 0;
        // At 100% every row counts, also those of no weight (an operation that took no measurable
        // time was still called); below it, rows stop once the share is covered.
        while (n < sorted.size() && n < top && (n == 0 || sharePercent >= 100 || covered < enough)) {
            covered += weight.applyAsDouble(sorted.get(n));
            n++;
        }
        return new Ranked<>(List.copyOf(sorted.subList(0, n)), sorted.size());
    }

    /** The rows a table shows, and how many the whole table has. */
    public record Ranked<T>(List<T> rows, int total) {
        /** {@code (12 of 57)} when rows were left out, else empty. */
        public String shownOf() {
            return rows.size() < total ? " (" + rows.size() + " of " + total + ")" : "";
        }
    }
}
