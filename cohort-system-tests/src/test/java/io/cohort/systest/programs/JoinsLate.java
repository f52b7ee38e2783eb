package io.cohort.systest.programs;

import io.cohort.Cohort;
import io.cohort.Communicator;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

/**
 * {@code JoinsLate}: rank 0 joins the job at once and waits in wire-up for the others, which join
 * only after reading a line from their standard input. Every rank prints "rank R joined" after a
 * barrier.
 */
public final class JoinsLate {
    private JoinsLate() {
    }

    public static void main(String[] args) throws IOException {
        int rank = Integer.parseInt(System.getenv("COHORT_RANK"));
        if (rank != 0) {
            new BufferedReader(new InputStreamReader(System.in)).readLine();
        }
        Communicator world = Cohort.init();
        world.barrier();
        System.out.println("rank " + rank + " joined");
    }
}
