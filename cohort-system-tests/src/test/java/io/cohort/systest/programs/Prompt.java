package io.cohort.systest.programs;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

/** Asks for a number with a prompt that ends no line, reads it from stdin and prints its double. */
public final class Prompt {
    private Prompt() {
    }

    public static void main(String[] args) throws IOException {
        System.out.print("Enter a number: ");
        System.out.flush();
        String line = new BufferedReader(new InputStreamReader(System.in)).readLine();
        System.out.println("twice: " + 2 * Long.parseLong(line.trim()));
    }
}
