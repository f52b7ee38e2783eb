package io.cohort.systest.programs;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;

/** Reads its stdin to the end and prints "rank R stdin: line1,line2". */
public final class StdinEcho {
    private StdinEcho() {
    }

    public static void main(String[] args) throws IOException {
        List<String> lines = new ArrayList<>();
        BufferedReader r = new BufferedReader(new InputStreamReader(System.in));
        String l;
        while ((l = r.readLine()) != null) {
            lines.add(l);
        }
        System.out.println("rank " + System.getenv("COHORT_RANK") + " stdin: " + String.join(",", lines));
    }
}
