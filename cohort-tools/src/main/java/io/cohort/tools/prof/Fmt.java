package io.cohort.tools.prof;

import java.util.List;
import java.util.Locale;

/** Number formats the reports share; always {@link Locale#ROOT}, so scripts parse every report alike. */
final class Fmt {
    private Fmt() {
    }

    /** A count that may be a mean: {@code 10}, {@code 2.5}, {@code 0.33}. */
    static String count(double c) {
        if (Math.abs(c - Math.rint(c)) < 1e-9) {
            return Long.toString(Math.round(c));
        }
        String s = String.format(Locale.ROOT, "%.2f", c);
        return s.endsWith("0") ? s.substring(0, s.length() - 1) : s;
    }

    static String fixed(double v, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    /** Seconds to the microsecond: a short job's communication is often well below a millisecond. */
    static String seconds(double nanos) {
        return fixed(nanos / 1e9, 6);
    }

    static String millis(double nanos) {
        return fixed(nanos / 1e6, 3);
    }

    /** Milliseconds with at most three decimals and no trailing zeros: {@code 120}, {@code 0.5}, {@code 1364.213}. */
    static String millisShort(double nanos) {
        return trimmed(nanos / 1e6, 3);
    }

    /**
     * {@code v} with at most {@code decimals} decimals and no trailing zeros, rounded half up. Without
     * {@link String#format}: the timeline writes thousands of these, and a format is parsed on each call.
     */
    static String trimmed(double v, int decimals) {
        long scale = 1;
        for (int i = 0; i < decimals; i++) {
            scale *= 10;
        }
        long n = Math.round(Math.abs(v) * scale);
        if (n == 0) {
            return "0";
        }
        StringBuilder b = new StringBuilder(v < 0 ? "-" : "").append(n / scale);
        long frac = n % scale;
        if (frac != 0) {
            String digits = Long.toString(scale + frac).substring(1);
            int end = digits.length();
            while (digits.charAt(end - 1) == '0') {
                end--;
            }
            b.append('.').append(digits, 0, end);
        }
        return b.toString();
    }

    static String micros(double nanos) {
        return fixed(nanos / 1e3, 1);
    }

    static String percent(double part, double whole) {
        return fixed(whole <= 0 ? 0 : 100 * part / whole, 2);
    }

    /** {@code 512 B}, {@code 1.5 KiB}, {@code 12.0 MiB}: for people, in the HTML report. */
    static String bytes(double b) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        int u = 0;
        while (Math.abs(b) >= 1024 && u < units.length - 1) {
            b /= 1024;
            u++;
        }
        return u == 0 ? count(Math.rint(b * 100) / 100) + " B" : fixed(b, 1) + " " + units[u];
    }

    /** A duration for people: {@code 850 ns}, {@code 12.3 µs}, {@code 4.56 ms}, {@code 1.234 s}. */
    static String duration(double nanos) {
        if (nanos < 1e3) {
            return fixed(nanos, 0) + " ns";
        }
        if (nanos < 1e6) {
            return fixed(nanos / 1e3, 1) + " µs";
        }
        if (nanos < 1e9) {
            return fixed(nanos / 1e6, 2) + " ms";
        }
        return fixed(nanos / 1e9, 3) + " s";
    }

    /** {@code 0-3,5,7-8} */
    static String ranks(List<Integer> sorted) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < sorted.size(); ) {
            int j = i;
            while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) {
                j++;
            }
            if (b.length() > 0) {
                b.append(',');
            }
            b.append(sorted.get(i));
            if (j > i) {
                b.append('-').append(sorted.get(j));
            }
            i = j + 1;
        }
        return b.toString();
    }
}
