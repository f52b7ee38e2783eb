package io.cohort.systest.programs;

/** Prints as many numbered lines on stdout as its argument says. */
public final class ManyLines {
    private ManyLines() {
    }

    public static void main(String[] args) {
        long n = Long.parseLong(args[0]);
        String rank = System.getenv("COHORT_RANK");
        for (long i = 0; i < n && !System.out.checkError(); i++) {
            System.out.println("rank " + rank + " line " + i);
        }
    }
}
