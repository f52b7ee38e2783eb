package io.cohort.collective;

import io.cohort.Op;

import java.util.EnumMap;
import java.util.Map;

/**
 * Chooses the algorithm of each collective call from the mode, the peer count N and the message
 * length, which every peer must know alike (so every peer makes the same choice without talking):
 * for objects the length is estimated as 64 B per element. The thresholds and why they are what
 * they are: see {@code package-info.java} and {@code docs/collectives.md}.
 *
 * <p>Threads: the thread running collectives (one at a time, {@link Collectives} ensures it).
 */
public final class CollectivePolicy {
    /** Smallest N for which bcast, allgather and allreduce use the domain in AUTO mode. */
    public static final int DOMAIN_MIN_PEERS = 3;
    /** Smallest N for which barrier uses the domain in AUTO mode (dissemination takes log2 N rounds). */
    public static final int DOMAIN_BARRIER_MIN_PEERS = 4;
    /** Largest allgather result (all blocks together) sent over the domain in AUTO mode. */
    public static final long DOMAIN_ALLGATHER_MAX_BYTES = 1L << 20;
    /** Largest allreduce vector sent over the domain (as an allgather of N vectors) in AUTO mode. */
    public static final long DOMAIN_ALLREDUCE_MAX_BYTES = 2048;
    /** Allgather results from this size on use the ring instead of recursive doubling. */
    public static final long ALLGATHER_RING_MIN_BYTES = 64L << 10;
    /** Allreduce vectors from this size on use reduce-scatter + allgather (Rabenseifner). */
    public static final long ALLREDUCE_RABENSEIFNER_MIN_BYTES = 16L << 10;

    private final CollectiveMode mode;
    private final Map<Algorithm.Operation, Algorithm> forced = new EnumMap<>(Algorithm.Operation.class);

    public CollectivePolicy(CollectiveMode mode) {
        this.mode = mode;
    }

    public CollectiveMode mode() {
        return mode;
    }

    /** Uses {@code a} for its operation from now on, wherever it can run (every peer must force alike). */
    public void force(Algorithm a) {
        forced.put(a.operation(), a);
    }

    /** Returns to the mode's own choices. */
    public void clearForced() {
        forced.clear();
    }

    /**
     * The algorithm for {@code operation} at {@code n} peers and {@code bytes} of data (the whole
     * allgather result; the vector for reductions and bcast), before the domain's availability is known.
     *
     * @param op the reduction op, or null for operations without one
     */
    public Algorithm choose(Algorithm.Operation operation, int n, long bytes, Op op) {
        Algorithm a = forced.get(operation);
        if (a == null) {
            a = byMode(operation, n, bytes);
        }
        return runnable(a, n, op);
    }

    /** The p2p algorithm to use when {@code a} needs the domain and it cannot open. */
    public Algorithm withoutDomain(Algorithm a, int n, long bytes, Op op) {
        if (!a.usesDomain()) {
            return a;
        }
        return runnable(p2p(a.operation(), bytes), n, op);
    }

    private Algorithm byMode(Algorithm.Operation operation, int n, long bytes) {
        Algorithm domain = domainAlgorithm(operation);
        if (domain != null && n > 1) {
            if (mode == CollectiveMode.BCAST) {
                return domain;
            }
            if (mode == CollectiveMode.AUTO && domainPays(operation, n, bytes)) {
                return domain;
            }
        }
        return p2p(operation, bytes);
    }

    private static boolean domainPays(Algorithm.Operation operation, int n, long bytes) {
        return switch (operation) {
            case BCAST -> n >= DOMAIN_MIN_PEERS;
            case BARRIER -> n >= DOMAIN_BARRIER_MIN_PEERS;
            case ALLGATHER -> n >= DOMAIN_MIN_PEERS && bytes <= DOMAIN_ALLGATHER_MAX_BYTES;
            case ALLREDUCE -> n >= DOMAIN_MIN_PEERS && bytes <= DOMAIN_ALLREDUCE_MAX_BYTES;
            default -> false;
        };
    }

    static Algorithm domainAlgorithm(Algorithm.Operation operation) {
        return switch (operation) {
            case BARRIER -> Algorithm.BARRIER_DOMAIN;
            case BCAST -> Algorithm.BCAST_DOMAIN;
            case ALLGATHER -> Algorithm.ALLGATHER_DOMAIN;
            case ALLREDUCE -> Algorithm.ALLREDUCE_DOMAIN;
            default -> null;
        };
    }

    private static Algorithm p2p(Algorithm.Operation operation, long bytes) {
        return switch (operation) {
            case BARRIER -> Algorithm.BARRIER_DISSEMINATION;
            case BCAST -> Algorithm.BCAST_BINOMIAL;
            case ALLGATHER -> bytes >= ALLGATHER_RING_MIN_BYTES ? Algorithm.ALLGATHER_RING
                    : Algorithm.ALLGATHER_RECURSIVE_DOUBLING;
            case ALLREDUCE -> bytes >= ALLREDUCE_RABENSEIFNER_MIN_BYTES ? Algorithm.ALLREDUCE_RABENSEIFNER
                    : Algorithm.ALLREDUCE_RECURSIVE_DOUBLING;
            case REDUCE -> Algorithm.REDUCE_BINOMIAL;
            case GATHER -> Algorithm.GATHER_LINEAR;
            case SCATTER -> Algorithm.SCATTER_LINEAR;
            case ALLTOALL -> Algorithm.ALLTOALL_PAIRWISE;
            case REDUCE_SCATTER -> Algorithm.REDUCE_SCATTER_BY_REDUCE;
            case SCAN -> Algorithm.SCAN_RECURSIVE_DOUBLING;
        };
    }

    /**
     * Replaces a choice that cannot run: the domain at one peer (a multicast needs a target), and
     * Rabenseifner for an op whose values must not be split ({@link Op#unit()} 0).
     */
    private static Algorithm runnable(Algorithm a, int n, Op op) {
        if (a.usesDomain() && n == 1) {
            return p2p(a.operation(), 0);
        }
        if (a == Algorithm.ALLREDUCE_RABENSEIFNER && op != null && op.unit() == 0) {
            return Algorithm.ALLREDUCE_RECURSIVE_DOUBLING;
        }
        return a;
    }
}
