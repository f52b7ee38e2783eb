package io.cohort.systest.programs;

import java.io.IOException;

/**
 * {@code Spawner inherit|discard MARKER}: starts {@code sh -c "sleep 600; : MARKER"} (the marker names
 * it in the process list), with the peer's stdout and stderr or with its output discarded, says so and
 * returns: a program that leaves a process behind in its process group.
 */
public final class Spawner {
    private Spawner() {
    }

    public static void main(String[] args) throws IOException {
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", "sleep 600; : " + args[1]);
        if (args[0].equals("inherit")) {
            pb.inheritIO();
        } else {
            pb.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        }
        pb.start();
        System.out.println("rank " + System.getenv("COHORT_RANK") + " spawned");
    }
}
