package io.cohort.engine;

import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * Which peers of a job run on one machine, and how many cores that machine offers them: what a
 * collective needs to know to tell whether its peers compete for cores. A machine is a kernel, not
 * a host name: network namespaces and containers of one kernel share its cores, so the cluster in a
 * box, eight "hosts" on two cores, is one machine here. Every peer builds it from the same peer
 * table, so every peer answers {@link #peersOutnumberCores} alike.
 *
 * <p>Threads: immutable.
 */
public final class MachineMap {
    /** Nothing known: no machine holds more peers than cores. */
    public static final MachineMap UNKNOWN = new MachineMap(new int[0], new int[0], 0, new BitSet[0]);

    /** Machine index of each job rank. */
    private final int[] machineOf;
    /** How many processors each job rank may use, 0 if unknown. */
    private final int[] own;
    /** How many machines the ranks run on. */
    private final int machines;
    /** Each job rank's processor set, null if unknown. */
    private final BitSet[] setOf;

    private MachineMap(int[] machineOf, int[] own, int machines, BitSet[] setOf) {
        this.machineOf = machineOf;
        this.own = own;
        this.machines = machines;
        this.setOf = setOf;
    }

    /**
     * From each rank's machine identity, how many processors it may use ({@code availableProcessors()},
     * which counts CPU quotas too) and which ones (a Linux CPU list, {@code 0-3,6}; empty if unknown).
     * The peers of one machine have between them the processors in the union of their sets, and
     * no more than the sum of their counts: eight JVMs on a two-core machine (or in one cpuset, as
     * a batch system gives a job) have two; eight containers of one CPU each on a 64-core host have
     * eight. Where a set is unknown, peers are assumed to share one: the largest count.
     */
    public static MachineMap of(String[] machine, int[] ownCpus, String[] cpuLists) {
        if (machine.length != ownCpus.length || machine.length != cpuLists.length) {
            throw new IllegalArgumentException(machine.length + " machines but " + ownCpus.length + " processor counts and "
                    + cpuLists.length + " processor lists");
        }
        Map<String, Integer> index = new HashMap<>();
        int[] machineOf = new int[machine.length];
        BitSet[] setOf = new BitSet[machine.length];
        for (int r = 0; r < machine.length; r++) {
            machineOf[r] = index.computeIfAbsent(machine[r], k -> index.size());
            setOf[r] = cpuSet(cpuLists[r]);
        }
        return new MachineMap(machineOf, ownCpus.clone(), index.size(), setOf);
    }

    /** Peers that are threads of this JVM: one machine with this many cores. */
    public static MachineMap oneMachine(int size, int cores) {
        int[] own = new int[size];
        Arrays.fill(own, cores);
        return new MachineMap(new int[size], own, 1, new BitSet[size]);
    }

    /** The processors a Linux CPU list names ({@code 0-3,6}), or null if it is empty or malformed. */
    public static BitSet cpuSet(String list) {
        if (list == null || list.isBlank()) {
            return null;
        }
        BitSet set = new BitSet();
        try {
            for (String part : list.trim().split(",")) {
                int dash = part.indexOf('-');
                int first = Integer.parseInt(dash < 0 ? part : part.substring(0, dash));
                int last = dash < 0 ? first : Integer.parseInt(part.substring(dash + 1));
                if (first < 0 || last < first || last >= MAX_CPUS) {
                    return null;
                }
                set.set(first, last + 1);
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return set;
    }

    /** The Linux CPU list of {@code set} ({@code 0-3,6}, the form {@link #cpuSet} reads and taskset takes); empty if none. */
    public static String cpuList(BitSet set) {
        StringBuilder b = new StringBuilder();
        for (int first = set.nextSetBit(0); first >= 0; first = set.nextSetBit(first + 1)) {
            int last = set.nextClearBit(first) - 1;
            b.append(b.length() == 0 ? "" : ",").append(first);
            if (last > first) {
                b.append('-').append(last);
            }
            first = last;
        }
        return b.toString();
    }

    /** Larger processor numbers make a list malformed (Linux's own limit is 8192). */
    private static final int MAX_CPUS = 1 << 16;

    /**
     * Whether some machine runs more of the given job ranks than they have cores between them (see
     * {@link #of}). False where a rank, or how many processors a rank may use, is unknown.
     */
    public boolean peersOutnumberCores(int[] ranks) {
        int[] count = new int[machines];
        for (int r : ranks) {
            if (r < 0 || r >= machineOf.length || own[r] <= 0) {
                return false;
            }
            count[machineOf[r]]++;
        }
        long[] cores = cores(ranks);
        for (int m = 0; m < machines; m++) {
            if (count[m] > cores[m]) {
                return true;
            }
        }
        return false;
    }

    /**
     * Per machine, how many processors {@code ranks} (valid ranks) have between them: the union of
     * their own sets (not the whole machine's: peers bound one to a processor may share one although
     * the machine's peers have more), else the largest count where a set is unknown, and never more
     * than the sum of their counts.
     */
    private long[] cores(int[] ranks) {
        long[] limits = new long[machines];
        int[] largest = new int[machines];
        BitSet[] sets = new BitSet[machines];
        boolean[] unknownSet = new boolean[machines];
        for (int r : ranks) {
            int m = machineOf[r];
            limits[m] += own[r];
            largest[m] = Math.max(largest[m], own[r]);
            if (setOf[r] == null) {
                unknownSet[m] = true;
            } else if (sets[m] == null) {
                sets[m] = (BitSet) setOf[r].clone();
            } else {
                sets[m].or(setOf[r]);
            }
        }
        for (int m = 0; m < machines; m++) {
            limits[m] = Math.min(limits[m], unknownSet[m] || sets[m] == null ? largest[m] : sets[m].cardinality());
        }
        return limits;
    }

    /** The number of machines the job's peers run on. */
    public int machines() {
        return machines;
    }

    /** One line for {@code --verbose}: "8 peers on 1 machine (cores: 2); more peers than cores, ...". */
    public String describe() {
        int[] all = new int[machineOf.length];
        boolean known = true;
        for (int r = 0; r < all.length; r++) {
            all[r] = r;
            known &= own[r] > 0;
        }
        long[] cores = cores(all);
        StringBuilder b = new StringBuilder();
        for (int m = 0; m < machines; m++) {
            b.append(m == 0 ? "" : ", ").append(known ? Long.toString(cores[m]) : "?");
        }
        return machineOf.length + " peers on " + machines + (machines == 1 ? " machine" : " machines")
                + " (cores: " + b + ")"
                + (peersOutnumberCores(all) ? "; more peers than cores, so collectives send fewer messages" : "")
                + binding();
    }

    /** How many ranks {@link #binding} names before it stops. */
    private static final int BINDINGS_SHOWN = 8;

    /**
     * "; bound: rank 0 to 0, rank 1 to 1" where the peers of some machine may run on different
     * processors (their io-manager bound them), empty where every machine's peers share one set.
     */
    private String binding() {
        boolean bound = false;
        for (int r = 0; r < machineOf.length && !bound; r++) {
            for (int q = 0; q < r && !bound; q++) {
                bound = machineOf[q] == machineOf[r] && setOf[q] != null && setOf[r] != null && !setOf[q].equals(setOf[r]);
            }
        }
        if (!bound) {
            return "";
        }
        StringBuilder b = new StringBuilder("; bound: ");
        for (int r = 0; r < Math.min(machineOf.length, BINDINGS_SHOWN); r++) {
            b.append(r == 0 ? "" : ", ").append("rank ").append(r).append(" to ")
                    .append(setOf[r] == null ? "?" : cpuList(setOf[r]));
        }
        return b.append(machineOf.length > BINDINGS_SHOWN ? ", ..." : "").toString();
    }

    @Override
    public String toString() {
        return "MachineMap[" + describe() + "]";
    }
}
