package io.cohort;

/**
 * Entry point of a Cohort program.
 *
 * <pre>
 *   public static void main(String[] args) {
 *       try (Communicator world = Cohort.init()) {
 *           ... world.rank(), world.send(...), world.recv(...) ...
 *       }
 *   }
 * </pre>
 *
 * Under {@code cohort run} this connects to the launcher, opens the transports, exchanges addresses
 * with every other peer and returns the world communicator. Run as a plain {@code java} program it
 * returns a world of one peer, so the same program works both ways.
 */
public final class Cohort {
    private Cohort() {
    }

    /**
     * Joins the job (once per process; later calls return the same communicator).
     *
     * @throws CohortException naming this rank and the reason if the peer cannot join
     * @throws IllegalStateException if called again after the world was closed
     */
    public static Communicator init() {
        return CohortProvider.get().init();
    }

    /** Closes the world communicator if the program opened it and left it open (used by the launcher's bootstrap). */
    public static void closeIfOpen() {
        CohortProvider.get().closeIfOpen();
    }
}
