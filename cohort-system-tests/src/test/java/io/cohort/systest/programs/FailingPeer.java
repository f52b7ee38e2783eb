package io.cohort.systest.programs;

import io.cohort.Cohort;
import io.cohort.Communicator;

import java.io.IOException;

/**
 * {@code FailingPeer <rank> exit <status> | kill9 [barrier]}: that rank exits with the status (or SIGKILLs
 * itself) once the job is wired up; every other peer blocks receiving from it (or, with
 * {@code barrier}, waits for it in a second barrier) and so fails as collateral damage. With {@code all} for the rank, every peer exits with the status on its own.
 *
 * <p>{@code FailingPeer <rank> throw <millis>}: the program runs in try-with-resources and that rank
 * throws, so its world closes (a clean goodbye) before the exception leaves {@code main}; its
 * {@code finally} then takes {@code millis} (a slow clean-up), so the others, whose receives fail on
 * the goodbye, exit before it does. With {@code chain} after the millis, each rank above the
 * failing one waits for the rank before it instead, so the failures follow each other down the chain;
 * with {@code bcast}, the others wait in a bcast from the failing rank (after one from rank 0), which
 * under {@code --collectives bcast} is a request on the broadcast domain.
 */
public final class FailingPeer {
    private FailingPeer() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        boolean all = args[0].equals("all");
        int victim = all ? -1 : Integer.parseInt(args[0]);
        if (args[1].equals("throw")) {
            throwInsideTryWithResources(victim, Long.parseLong(args[2]), args.length > 3 ? args[3] : "");
            return;
        }
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
        if (args.length > 3 && args[3].equals("barrier")) {
            world.barrier(); // on one host, through shared memory: a wait on the victim's phase word
            System.out.println("rank " + world.rank() + " unexpectedly left the barrier");
            return;
        }
        world.recv(victim, 0);
        System.out.println("rank " + world.rank() + " unexpectedly received a message");
    }

    private static void throwInsideTryWithResources(int victim, long cleanupMillis, String how) throws InterruptedException {
        boolean me = false;
        try (Communicator world = Cohort.init()) {
            world.barrier();
            if (how.equals("bcast")) {
                world.bcast(0, new int[1]);
            }
            me = world.rank() == victim;
            if (me) {
                throw new IllegalStateException("rank " + victim + " fails inside try-with-resources");
            }
            if (how.equals("bcast")) {
                world.bcast(victim, new int[1]);
            } else {
                world.recv(how.equals("chain") && world.rank() > victim ? world.rank() - 1 : victim, 0);
            }
        } finally {
            if (me) {
                Thread.sleep(cleanupMillis);
            }
        }
    }
}
