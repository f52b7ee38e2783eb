package io.cohort;

import java.time.Duration;

/**
 * Runs N peers as threads in this JVM: for tests, examples and debugging. It is not a toy: each
 * peer has its own engine, and with {@code transport("tcp")} (or {@code "udp"}, {@code "shm"}) the
 * peers talk over real loopback sockets (or shared-memory rings) exactly as separate processes would.
 *
 * <pre>
 *   LocalCohort.run(4, world -> {
 *       int sum = ...;
 *       world.barrier();
 *   });
 * </pre>
 *
 * If a peer throws, the others see it as a failed peer (their operations on it throw
 * {@link PeerFailedException}) and {@code run} throws a {@link CohortException} whose cause is the
 * first failure that was not itself caused by a failed peer.
 */
public final class LocalCohort {
    /** The program each peer runs. */
    @FunctionalInterface
    public interface PeerBody {
        void run(Communicator world) throws Exception;
    }

    /** The system property whose fault spec {@link #fault} defaults to. */
    private static final String FAULT_PROP_NAME = "cohort.fault";

    private int size = 2;
    private String transport = "local";
    /** Null: the configured strategy ({@code cohort.idle}, else {@code COHORT_IDLE}, else backoff). */
    private String idle;
    private Duration timeout = Duration.ofMinutes(10);
    private String fault = System.getProperty(FAULT_PROP_NAME);
    private int cores = Runtime.getRuntime().availableProcessors();

    private LocalCohort() {
    }

    public static LocalCohort builder() {
        return new LocalCohort();
    }

    /** Runs {@code body} on {@code size} in-memory peers and waits for all of them. */
    public static void run(int size, PeerBody body) {
        builder().size(size).run(body);
    }

    public LocalCohort size(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("a job needs at least one peer, not " + n);
        }
        this.size = n;
        return this;
    }

    /**
     * {@code local} (in-memory, the default), {@code tcp} (loopback sockets), {@code shm}
     * (shared-memory rings) or {@code udp} (loopback datagrams).
     */
    public LocalCohort transport(String name) {
        if (!name.equals("local") && !name.equals("tcp") && !name.equals("shm") && !name.equals("udp")) {
            throw new IllegalArgumentException("unknown transport '" + name
                    + "'; LocalCohort supports local, tcp, shm and udp");
        }
        this.transport = name;
        return this;
    }

    /**
     * Injects datagram faults (the spec of {@code cohort run --fault}, e.g. {@code loss=0.05,seed=7})
     * under the udp transport and the broadcast domain; default: the system property
     * {@code cohort.fault}. A bad spec is an {@link IllegalArgumentException} naming the bad item.
     */
    public LocalCohort fault(String spec) {
        CohortProvider.get().checkFaultSpec(spec);
        this.fault = spec;
        return this;
    }

    /**
     * How many cores the peers' machine offers them (default: this JVM's
     * {@code availableProcessors()}): what collectives see when they ask whether peers outnumber
     * cores. Lets a test stand for a machine with a core per peer on a smaller one.
     */
    public LocalCohort cores(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("a machine has at least one core, not " + n);
        }
        this.cores = n;
        return this;
    }

    /** The idle strategy: {@code busy-spin}, {@code yield}, {@code backoff} or {@code park} (as {@code cohort run --idle}). */
    public LocalCohort idle(String strategy) {
        CohortProvider.get().checkIdleStrategy(strategy);
        this.idle = strategy;
        return this;
    }

    /** How long {@link #run} waits for the peers before it gives up (default 10 minutes). */
    public LocalCohort timeout(Duration t) {
        this.timeout = t;
        return this;
    }

    public void run(PeerBody body) {
        CohortProvider.get().runLocal(size, transport, idle, fault, cores, timeout, body);
    }
}
