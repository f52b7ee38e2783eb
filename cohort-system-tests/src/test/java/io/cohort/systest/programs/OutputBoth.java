package io.cohort.systest.programs;

/** One line on stdout, one on stderr, and a last line without a newline. */
public final class OutputBoth {
    private OutputBoth() {
    }

    public static void main(String[] args) {
        String rank = System.getenv("COHORT_RANK");
        System.out.println("out line from rank " + rank);
        System.out.flush();
        System.err.println("err line from rank " + rank);
        System.err.flush();
        System.out.print("tail of rank " + rank);
        System.out.flush();
    }
}
