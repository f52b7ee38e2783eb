package io.cohort.collective;

/**
 * Every collective algorithm by name, with the operation it implements and whether it runs over
 * the broadcast domain or through shared memory. {@link CollectivePolicy} chooses among them; tests force one with
 * {@link Collectives#force(Algorithm)}.
 *
 * <p>Threads: an enum; any thread.
 */
public enum Algorithm {
    BARRIER_DISSEMINATION(Operation.BARRIER, "dissemination", false),
    BARRIER_DOMAIN(Operation.BARRIER, "domain-barrier", true),
    BARRIER_BINOMIAL(Operation.BARRIER, "binomial-fan-in+fan-out", false),
    BARRIER_LINEAR(Operation.BARRIER, "linear-fan-in+fan-out", false),
    BARRIER_SHARED_MEMORY(Operation.BARRIER, "shared-memory-phases", false, true),
    BCAST_BINOMIAL(Operation.BCAST, "binomial-tree", false),
    BCAST_LINEAR(Operation.BCAST, "linear", false),
    BCAST_DOMAIN(Operation.BCAST, "domain-multicast", true),
    BCAST_SHARED_MEMORY(Operation.BCAST, "shared-memory", false, true),
    ALLGATHER_RECURSIVE_DOUBLING(Operation.ALLGATHER, "recursive-doubling", false),
    ALLGATHER_RING(Operation.ALLGATHER, "ring", false),
    ALLGATHER_DOMAIN(Operation.ALLGATHER, "domain-allgather", true),
    ALLGATHER_GATHER_BCAST(Operation.ALLGATHER, "gather+binomial-bcast", false),
    ALLGATHER_GATHER_LINEAR(Operation.ALLGATHER, "gather+linear-bcast", false),
    ALLGATHER_SHARED_MEMORY(Operation.ALLGATHER, "shared-memory", false, true),
    ALLREDUCE_RECURSIVE_DOUBLING(Operation.ALLREDUCE, "recursive-doubling", false),
    ALLREDUCE_RABENSEIFNER(Operation.ALLREDUCE, "reduce-scatter+allgather", false),
    ALLREDUCE_DOMAIN(Operation.ALLREDUCE, "domain-allgather+local-reduce", true),
    ALLREDUCE_REDUCE_BCAST(Operation.ALLREDUCE, "reduce+binomial-bcast", false),
    ALLREDUCE_LINEAR(Operation.ALLREDUCE, "linear-reduce+linear-bcast", false),
    ALLREDUCE_REDUCE_MULTICAST(Operation.ALLREDUCE, "reduce+domain-multicast", true),
    ALLREDUCE_SHARED_MEMORY(Operation.ALLREDUCE, "shared-memory-reduce-scatter", false, true),
    REDUCE_BINOMIAL(Operation.REDUCE, "binomial-tree", false),
    REDUCE_SHARED_MEMORY(Operation.REDUCE, "shared-memory-reduce-scatter", false, true),
    GATHER_LINEAR(Operation.GATHER, "linear", false),
    SCATTER_LINEAR(Operation.SCATTER, "linear", false),
    ALLTOALL_PAIRWISE(Operation.ALLTOALL, "pairwise-exchange", false),
    REDUCE_SCATTER_BY_REDUCE(Operation.REDUCE_SCATTER, "reduce+scatterv", false),
    SCAN_RECURSIVE_DOUBLING(Operation.SCAN, "recursive-doubling", false);

    /** The collective operations, as the policy and the verbose log name them. */
    public enum Operation {
        BARRIER("barrier"), BCAST("bcast"), GATHER("gather"), SCATTER("scatter"), ALLGATHER("allgather"),
        ALLTOALL("alltoall"), REDUCE("reduce"), ALLREDUCE("allreduce"), REDUCE_SCATTER("reduce-scatter"),
        SCAN("scan");

        private final String label;

        Operation(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    private final Operation operation;
    private final String label;
    private final boolean usesDomain;
    private final boolean usesSharedMemory;

    Algorithm(Operation operation, String label, boolean usesDomain) {
        this(operation, label, usesDomain, false);
    }

    Algorithm(Operation operation, String label, boolean usesDomain, boolean usesSharedMemory) {
        this.operation = operation;
        this.label = label;
        this.usesDomain = usesDomain;
        this.usesSharedMemory = usesSharedMemory;
    }

    public Operation operation() {
        return operation;
    }

    /** The name the verbose log prints, e.g. "domain-allgather". */
    public String label() {
        return label;
    }

    public boolean usesDomain() {
        return usesDomain;
    }

    /** Whether it runs through the communicator's shared-memory segment ({@link SharedMemoryCollectives}). */
    public boolean usesSharedMemory() {
        return usesSharedMemory;
    }
}
