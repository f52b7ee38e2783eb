package io.cohort.systest.programs;

/** Prints "unfinished line of rank R" with no newline, on stdout only, and exits with the status given. */
public final class UnfinishedLine {
    private UnfinishedLine() {
    }

    public static void main(String[] args) {
        System.out.print("unfinished line of rank " + System.getenv("COHORT_RANK"));
        System.out.flush();
        System.exit(Integer.parseInt(args[0]));
    }
}
