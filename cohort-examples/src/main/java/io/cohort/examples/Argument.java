package io.cohort.examples;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The one whole-number argument an example takes, as its line in {@code examples.properties} names
 * it ({@code | ARG MIN MAX}). {@code cohort run --example} checks it before launch; an example
 * started some other way ({@code java -cp cohort-examples.jar ...}, or {@code cohort run -cp})
 * checks it here, against the same line, and a bad one ends the program with status 2 and one
 * sentence from rank 0, as a usage error of {@code cohort} does.
 */
final class Argument {
    static final int USAGE = 2;
    static final String CATALOG = "/META-INF/cohort/examples.properties";

    private Argument() {
    }

    /** {@code args[0]} as the example's whole number, or {@code fallback} without one. */
    static long wholeNumber(String example, String[] args, long fallback) {
        String[] spec = spec(example);
        long min = Long.parseLong(spec[1]);
        long max = Long.parseLong(spec[2]);
        if (args.length == 0) {
            return fallback;
        }
        String takes = example + " takes one argument, " + spec[0] + ", a whole number from " + min + " to " + max;
        if (args.length > 1) {
            return refuse(takes + "; got " + args.length + " arguments");
        }
        try {
            long v = Long.parseLong(args[0]);
            if (v >= min && v <= max) {
                return v;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        return refuse(takes + ", not '" + args[0] + "'");
    }

    /** {ARG, MIN, MAX} from the example's catalog line; a catalog without it is a build fault. */
    static String[] spec(String example) {
        try (InputStream in = Argument.class.getResourceAsStream(CATALOG)) {
            if (in == null) {
                throw new IllegalStateException(CATALOG + " is missing from the examples' jar");
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String[] fields = line.split("\\|", -1);
                int eq = fields[0].indexOf('=');
                if (!line.startsWith("#") && eq > 0 && fields[0].substring(0, eq).strip().equals(example)
                        && fields.length > 2) {
                    String[] a = fields[2].strip().split("\\s+");
                    if (a.length == 3) {
                        return a;
                    }
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + CATALOG + ": " + e.getMessage(), e);
        }
        throw new IllegalStateException(CATALOG + " gives no argument for " + example);
    }

    /**
     * Rank 0 (or a program run without cohort) says why, once, and ends with status 2. The other
     * peers found the same fault but let rank 0 end first: had one of them ended first, the launcher
     * would stop rank 0 before its sentence. They are stopped as soon as rank 0 has ended, and end
     * with status 2 themselves only if nothing has stopped them after {@value #OTHERS_WAIT_MILLIS} ms.
     */
    private static long refuse(String sentence) {
        String rank = System.getenv("COHORT_RANK");
        if (rank == null || rank.equals("0")) {
            System.err.println(sentence);
        } else {
            try {
                Thread.sleep(OTHERS_WAIT_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        System.exit(USAGE);
        return 0;
    }

    /** How long peers other than rank 0 wait for the launcher to stop them after a bad argument. */
    static final long OTHERS_WAIT_MILLIS = 30_000;
}
