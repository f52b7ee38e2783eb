package io.cohort;

import io.cohort.deck.Deck;
import io.cohort.engine.EngineCommunicator;
import io.cohort.engine.ProgressEngine;
import io.cohort.idle.IdleStrategies;
import io.cohort.wireup.JobEnvironment;
import io.cohort.wireup.PeerRuntime;

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
    private static EngineCommunicator world;

    private Cohort() {
    }

    /**
     * Joins the job (once per process; later calls return the same communicator).
     *
     * @throws CohortException naming this rank and the reason if the peer cannot join
     * @throws IllegalStateException if called again after the world was closed
     */
    public static synchronized Communicator init() {
        if (world != null) {
            if (world.isClosed()) {
                throw new IllegalStateException("Cohort.init() called after the world communicator was closed");
            }
            return world;
        }
        if (JobEnvironment.isLaunched(System.getenv())) {
            world = PeerRuntime.start(JobEnvironment.from(System.getenv()));
        } else {
            ProgressEngine engine = new ProgressEngine(0, 1, IdleStrategies.configured());
            Deck.install(engine);
            world = new EngineCommunicator(engine, 0, new Runnable() {
                @Override
                public void run() {
                    engine.shutdown();
                }
            });
            world.recordJobStart("single", "localhost");
        }
        return world;
    }

    /** Closes the world communicator if the program opened it and left it open (used by the launcher's bootstrap). */
    public static synchronized void closeIfOpen() {
        if (world != null && !world.isClosed()) {
            world.close();
        }
    }
}
