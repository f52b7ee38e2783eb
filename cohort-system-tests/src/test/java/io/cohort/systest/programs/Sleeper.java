package io.cohort.systest.programs;

import io.cohort.Cohort;

/**
 * {@code Sleeper [init|noinit-rank R] [marker] [unfinished-stderr]}: prints "rank R ready" and sleeps
 * forever. With "init" it first joins the job; with "noinit-rank R" rank R never joins (a wire-up
 * time-out). With "unfinished-stderr" it also writes "rank R waits" to stderr without ending the line.
 */
public final class Sleeper {
    private Sleeper() {
    }

    public static void main(String[] args) throws InterruptedException {
        int rank = Integer.parseInt(System.getenv("COHORT_RANK"));
        boolean init = args.length > 0 && args[0].equals("init");
        if (args.length > 1 && args[0].equals("noinit-rank")) {
            init = rank != Integer.parseInt(args[1]);
        }
        if (init) {
            Cohort.init();
        }
        System.out.println("rank " + rank + " ready");
        System.out.flush();
        if (java.util.Arrays.asList(args).contains("unfinished-stderr")) {
            System.err.print("rank " + rank + " waits");
            System.err.flush();
        }
        Thread.sleep(Long.MAX_VALUE);
    }
}
