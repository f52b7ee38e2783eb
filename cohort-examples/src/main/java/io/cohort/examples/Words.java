package io.cohort.examples;

/** Counts in the examples' result lines: "1 peer", "4 peers". */
final class Words {
    private Words() {
    }

    /** {@code n} and the noun, with an "s" unless {@code n} is 1. */
    static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
