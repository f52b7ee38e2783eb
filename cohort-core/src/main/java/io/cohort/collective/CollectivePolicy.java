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
    /** Smallest N for which bcast uses the domain in AUTO mode (at N = 2 one unicast is as good). */
    public static final int DOMAIN_MIN_PEERS = 3;
    /**
     * Bytes the library adds to a bcast's data before the domain sends it (the element type and
     * count, the chunk's total length), with room to spare. AUTO sends a bcast over the domain when
     * data and these fit in one datagram ({@link io.cohort.BroadcastDomain#messageBytesPerDatagram})
     * and no machine runs more of the peers than it has cores. Measured on the cluster in a box
     * (docs/notes/benchmark-history.md), N = 8 on two cores: in three 1500-byte datagrams every receiver wakes
     * three times and the domain took twice the tree's time, so longer bcasts go by the tree. In
     * one datagram the domain's median was 0.6-0.8x the tree's beside the dissemination barrier,
     * but by the whole loop of call and barrier (beside the linear barrier) the tree took 0.51-0.98x
     * the domain's time in all 18 pairs of three runs at N = 4 and 8, 8 B-1 KiB ("Multicast or tree
     * for one datagram where peers outnumber cores"): where peers share cores, the domain wakes
     * every receiver at once and keeps a progress agent polling every millisecond.
     */
    public static final int BCAST_FRAMING_BYTES = 16;
    /**
     * The domain's one-datagram length before the domain is open: the largest any datagram can be.
     * A bcast AUTO might send over the domain opens it (every peer at the same call), and the choice
     * is then made with the real length; a longer one goes by the tree without opening it.
     */
    public static final long DATAGRAM_UNKNOWN = 65_507;
    /** Allgather results from this size on use the ring instead of recursive doubling. */
    public static final long ALLGATHER_RING_MIN_BYTES = 64L << 10;
    /** Allreduce vectors from this size on use reduce-scatter + allgather (Rabenseifner). */
    public static final long ALLREDUCE_RABENSEIFNER_MIN_BYTES = 16L << 10;
    /**
     * Where peers outnumber their machine's cores on one host, allreduce vectors from this size on
     * go as a reduce and a bcast (across a network, those beyond {@link #ALLREDUCE_LINEAR_MAX_BYTES}):
     * measured on two cores (docs/notes/benchmark-history.md, "Allreduce and allgather where peers
     * outnumber cores"), 0.3-0.8x the time of recursive doubling or Rabenseifner at every size at
     * N = 8 over TCP; at N = 4 over shared
     * memory 0.14-0.79x at 16 KiB, but 1.05-1.14x at 4-8 KiB with the default idle strategy and up
     * to 5x below 1 KiB.
     */
    public static final long ALLREDUCE_REDUCE_BCAST_MIN_BYTES = 16L << 10;

    /**
     * Where peers outnumber their machine's cores and some are across a network, allgather results
     * up to this size go as a gather to rank 0, which sends the result to each peer itself: measured
     * in the cluster in a box on two cores (docs/notes/benchmark-history.md, "Linear shapes for allreduce and
     * allgather"), 0.65-0.99x the time of gather + binomial bcast or recursive doubling for results
     * of 64 B to 128 KiB at N = 8, level at 32 B-4 KiB and 0.75x at 64 KiB at N = 4; 1.10-1.13x for
     * 256-512 KiB results, where rank 0's N - 1 copies of the whole result cost more than the rounds
     * they save.
     */
    public static final long ALLGATHER_GATHER_LINEAR_MAX_BYTES = 128L << 10;

    /**
     * Where peers outnumber their machine's cores and some are across a network, allreduce vectors
     * up to this size go to rank 0 and back (linear): measured in the box, 0.60-0.67x the time of a
     * binomial reduce + bcast at N = 8 and 0.59-0.90x at N = 4, at 8 B-64 KiB; longer vectors keep
     * the trees, which spread the copies over the peers (not measured beyond).
     */
    public static final long ALLREDUCE_LINEAR_MAX_BYTES = 64L << 10;

    /*
     * Bcast where peers outnumber their machine's cores and some are across a network, beyond one
     * datagram: the binomial tree. A linear bcast (the root sends to each peer itself) had the
     * smaller median beside the dissemination barrier, but beside the linear barrier, measured by
     * the whole loop (call + barrier) in three runs at 4 and 16 KiB, the tree took 0.86-0.96x
     * linear's time at N = 8 and 0.76-1.01x at N = 4 (docs/notes/benchmark-history.md, "Linear or binomial
     * bcast beside the linear barrier"). BCAST_LINEAR stays, forced by name.
     */

    /*
     * Barrier where peers outnumber their machine's cores and some are across a network: every
     * peer tells rank 0, which answers all (BARRIER_LINEAR), 2 (N - 1) messages against
     * dissemination's N ceil(log2 N). Measured on the cluster in a box on two cores
     * (docs/notes/benchmark-history.md, "Barriers where peers outnumber cores"): N = 8, 299 us median against
     * dissemination's 439 and the binomial fan-in's 377 (Open MPI 307) in one run; N = 4, 87 against
     * 137 and 135 (Open MPI 84). No threshold: a barrier carries nothing.
     */

    /**
     * What a communicator's peers are like, the same at every peer: all on this host over shared
     * memory; some across a network (TCP or UDP); more of them on some machine than it has cores.
     */
    public record Peers(boolean sharedMemoryOnly, boolean overNetwork, boolean outnumberCores) {
        /** Nothing known: as if each peer had its own machine and no network. */
        public static final Peers UNKNOWN = new Peers(false, false, false);
    }

    /** System property naming algorithms every communicator uses in place of the mode's choice. */
    public static final String FORCE_PROP_NAME = "cohort.collectives.algorithms";

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

    /**
     * The algorithms a comma-separated list names, by their constant names in any case
     * ({@code allreduce_reduce_multicast,bcast_binomial}); null or blank: none. At most one per
     * operation, since a later one would silently replace an earlier one.
     *
     * @throws IllegalArgumentException in one sentence naming the word that is not an algorithm
     */
    public static java.util.List<Algorithm> parseForced(String list) {
        java.util.List<Algorithm> out = new java.util.ArrayList<>();
        if (list == null || list.isBlank()) {
            return out;
        }
        java.util.Set<Algorithm.Operation> seen = java.util.EnumSet.noneOf(Algorithm.Operation.class);
        for (String word : list.split(",")) {
            String name = word.trim().toUpperCase(java.util.Locale.ROOT).replace('-', '_');
            Algorithm a;
            try {
                a = Algorithm.valueOf(name);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(FORCE_PROP_NAME + " names '" + word.trim()
                        + "', which is not an algorithm; the algorithms are "
                        + java.util.Arrays.toString(Algorithm.values()).toLowerCase(java.util.Locale.ROOT));
            }
            if (!seen.add(a.operation())) {
                throw new IllegalArgumentException(FORCE_PROP_NAME + " names two algorithms for "
                        + a.operation().label() + "; name one");
            }
            out.add(a);
        }
        return out;
    }

    /** Returns to the mode's own choices. */
    public void clearForced() {
        forced.clear();
    }

    /**
     * The algorithm for {@code operation} at {@code n} peers and {@code bytes} of data (the whole
     * allgather result; the vector for reductions and bcast), before the domain is open.
     *
     * @param op the reduction op, or null for operations without one
     */
    public Algorithm choose(Algorithm.Operation operation, int n, long bytes, Op op) {
        return choose(operation, n, bytes, op, false, DATAGRAM_UNKNOWN);
    }

    /**
     * As {@link #choose(Algorithm.Operation, int, long, Op)}, knowing whether all peers share this
     * host over shared memory ({@link CollectiveChannel#sharedMemoryOnly()}): then AUTO never takes
     * the domain. Measured over shared memory at N = 4 on one host (docs/notes/benchmark-history.md, MPI
     * for Java): an 8-byte bcast over the domain took several times the binomial tree's time; the
     * domain's gain is one datagram instead of N - 1 network sends, which shared memory lacks.
     *
     * @param datagramBytes the open domain's {@link io.cohort.BroadcastDomain#messageBytesPerDatagram},
     *                      or {@link #DATAGRAM_UNKNOWN}; the same at every peer
     */
    public Algorithm choose(Algorithm.Operation operation, int n, long bytes, Op op, boolean sharedMemoryOnly,
                            long datagramBytes) {
        return choose(operation, n, bytes, op, new Peers(sharedMemoryOnly, false, false), datagramBytes);
    }

    /** As {@link #choose(Algorithm.Operation, int, long, Op, boolean, long)}, knowing more of the peers. */
    public Algorithm choose(Algorithm.Operation operation, int n, long bytes, Op op, Peers peers, long datagramBytes) {
        Algorithm a = forced.get(operation);
        if (a == null) {
            a = byMode(operation, n, bytes, peers, datagramBytes);
        }
        a = runnable(a, n, op);
        if (a.usesSharedMemory() && (n == 1 || op != null && op.unit() == 0)) {
            // One peer has nobody to share with; a value that must not be split cannot be chunked.
            return runnable(p2p(operation, n, bytes, peers), n, op);
        }
        return a;
    }

    /**
     * The p2p algorithm to use when {@code a} needs the shared-memory segment and the communicator
     * has none, or the buffer is one it cannot carry ({@code Object[]}).
     */
    public Algorithm withoutSharedMemory(Algorithm a, int n, long bytes, Op op, Peers peers) {
        return a.usesSharedMemory() ? runnable(p2p(a.operation(), n, bytes, peers), n, op) : a;
    }

    /** The p2p algorithm to use when {@code a} needs the domain and it cannot open. */
    public Algorithm withoutDomain(Algorithm a, int n, long bytes, Op op, Peers peers) {
        if (!a.usesDomain()) {
            return a;
        }
        if (a == Algorithm.ALLREDUCE_REDUCE_MULTICAST) {
            return Algorithm.ALLREDUCE_REDUCE_BCAST;
        }
        return runnable(p2p(a.operation(), n, bytes, peers), n, op);
    }

    private Algorithm byMode(Algorithm.Operation operation, int n, long bytes, Peers peers, long datagramBytes) {
        Algorithm domain = domainAlgorithm(operation);
        if (domain != null && n > 1) {
            if (mode == CollectiveMode.BCAST) {
                return domain;
            }
            if (mode == CollectiveMode.AUTO && !peers.sharedMemoryOnly() && !peers.outnumberCores()
                    && domainPays(operation, n, bytes, datagramBytes)) {
                return domain;
            }
        }
        if (mode == CollectiveMode.AUTO && peers.sharedMemoryOnly() && n > 1) {
            Algorithm shared = sharedMemoryAlgorithm(operation);
            if (shared != null) {
                return shared;
            }
        }
        return p2p(operation, n, bytes, peers);
    }

    /** The shared-memory algorithm of {@code operation}, or null where there is none. */
    static Algorithm sharedMemoryAlgorithm(Algorithm.Operation operation) {
        return switch (operation) {
            case BARRIER -> Algorithm.BARRIER_SHARED_MEMORY;
            case BCAST -> Algorithm.BCAST_SHARED_MEMORY;
            case ALLGATHER -> Algorithm.ALLGATHER_SHARED_MEMORY;
            case ALLREDUCE -> Algorithm.ALLREDUCE_SHARED_MEMORY;
            case REDUCE -> Algorithm.REDUCE_SHARED_MEMORY;
            default -> null;
        };
    }

    /**
     * Where AUTO takes the domain, when no peers are crowded and not all are on shared memory:
     * bcasts that fit in one datagram. The domain's allgather,
     * allreduce and barrier (N multicasts, N - 1 arrivals at every peer) lost to recursive doubling
     * and dissemination at N = 4 and 8 and every length measured, where all peers share two cores;
     * {@code --collectives bcast} still runs them.
     */
    private static boolean domainPays(Algorithm.Operation operation, int n, long bytes, long datagramBytes) {
        return operation == Algorithm.Operation.BCAST && n >= DOMAIN_MIN_PEERS
                && bytes <= datagramBytes - BCAST_FRAMING_BYTES;
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

    /**
     * The point-to-point algorithm. Allreduce and allgather: recursive doubling has the fewest
     * rounds, and Rabenseifner and the ring move the least data, which is what counts where every
     * peer has a core; where peers outnumber cores the CPU time of each message counts as much, and
     * a reduce (or gather) and a bcast send 2 (N - 1) messages against recursive doubling's
     * N log2 N (fewer from N = 3 on); a barrier likewise, to rank 0 and back. Bcast keeps its tree.
     */
    private static Algorithm p2p(Algorithm.Operation operation, int n, long bytes, Peers peers) {
        if (operation == Algorithm.Operation.ALLREDUCE && n >= 3 && peers.outnumberCores() && peers.overNetwork()
                && bytes <= ALLREDUCE_LINEAR_MAX_BYTES) {
            return Algorithm.ALLREDUCE_LINEAR;
        }
        if (operation == Algorithm.Operation.ALLREDUCE && n >= 3 && peers.outnumberCores()
                && (bytes >= ALLREDUCE_REDUCE_BCAST_MIN_BYTES || peers.overNetwork())) {
            return Algorithm.ALLREDUCE_REDUCE_BCAST;
        }
        if (operation == Algorithm.Operation.ALLGATHER && n >= 3 && peers.outnumberCores() && peers.overNetwork()
                && bytes <= ALLGATHER_GATHER_LINEAR_MAX_BYTES) {
            return Algorithm.ALLGATHER_GATHER_LINEAR;
        }
        if (operation == Algorithm.Operation.BARRIER && n >= 3 && peers.outnumberCores() && peers.overNetwork()) {
            return Algorithm.BARRIER_LINEAR;
        }
        return p2p(operation, bytes);
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
            return a == Algorithm.ALLREDUCE_REDUCE_MULTICAST ? Algorithm.ALLREDUCE_REDUCE_BCAST : p2p(a.operation(), 0);
        }
        if (a == Algorithm.ALLREDUCE_RABENSEIFNER && op != null && op.unit() == 0) {
            return Algorithm.ALLREDUCE_RECURSIVE_DOUBLING;
        }
        return a;
    }
}
