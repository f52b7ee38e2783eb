package io.cohort.systest.programs;

import io.cohort.Cohort;
import io.cohort.Communicator;

import java.io.IOException;

/**
 * {@code FailingPeer <rank> exit <status> | kill9}: that rank exits with the status (or SIGKILLs
 * itself) once the job is wired up; every other peer blocks receiving from it and so fails as
 * collateral damage. With {@code all} for the rank, every peer exits with the status on its own.
 */
public final class FailingPeer {
    private FailingPeer() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        boolean all = args[0].equals("all");
        int victim = all ? -1 : Integer.parseInt(args[0]);
        Communicator world = Cohort.init();
        world.barrier();
        if (all) {
            System.exit(Integer.parseInt(args[2]));
        }
        if (world.rank() == victim) {
            if (args[1].equals("kill9")) {
                new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start().waitFor();
            }
            System.exit(Integer.parseInt(args[2]));
        }
        world.recv(victim, 0);
        System.out.println("rank " + world.rank() + " unexpectedly received a message");
    }
}
