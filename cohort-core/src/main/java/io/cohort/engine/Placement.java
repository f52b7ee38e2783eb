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
public final class Placement {
    /** Nothing known: no machine holds more peers than cores. */
    public static final Placement UNKNOWN = new Placement(new int[0], new int[0], new int[0], new BitSet[0]);

    /** Machine index of each job rank. */
    private final int[] machineOf;
    /** How many processors each job rank may use, 0 if unknown. */
    private final int[] own;
    /** Per machine, how many processors its peers may run on together (the union of their sets); 0 if unknown. */
    private final int[] union;
    /** Each job rank's processor set, null if unknown: a part of a machine's ranks has the union of theirs only. */
    private final BitSet[] setOf;

    private Placement(int[] machineOf, int[] own, int[] union, BitSet[] setOf) {
        this.machineOf = machineOf;
        this.own = own;
        this.union = union;
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
    public static Placement of(String[] machine, int[] ownCpus, String[] cpuLists) {
        if (machine.length != ownCpus.length || machine.length != cpuLists.length) {
            throw new IllegalArgumentException(machine.length + " machines but " + ownCpus.length + " processor counts and "
                    + cpuLists.length + " processor lists");
        }
        Map<String, Integer> index = new HashMap<>();
        int[] machineOf = new int[machine.length];
        BitSet[] sets = new BitSet[machine.length];
        boolean[] unknownSet = new boolean[machine.length];
        int[] largest = new int[machine.length];
        BitSet[] setOf = new BitSet[machine.length];
        for (int r = 0; r < machine.length; r++) {
            int m = index.computeIfAbsent(machine[r], k -> index.size());
            machineOf[r] = m;
            largest[m] = Math.max(largest[m], ownCpus[r]);
            BitSet set = cpuSet(cpuLists[r]);
            setOf[r] = set == null ? null : (BitSet) set.clone();
            if (set == null) {
                unknownSet[m] = true;
            } else if (sets[m] == null) {
                sets[m] = set;
            } else {
                sets[m].or(set);
            }
        }
        int[] union = new int[index.size()];
        for (int m = 0; m < union.length; m++) {
            union[m] = unknownSet[m] || sets[m] == null ? largest[m] : sets[m].cardinality();
        }
        return new Placement(machineOf, ownCpus.clone(), union, setOf);
    }

    /** Peers that are threads of this JVM: one machine with this many cores. */
    public static Placement oneMachine(int size, int cores) {
        int[] own = new int[size];
        Arrays.fill(own, cores);
        return new Placement(new int[size], own, new int[] {cores}, new BitSet[size]);
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

    /** Larger processor numbers make a list malformed (Linux's own limit is 8192). */
    private static final int MAX_CPUS = 1 << 16;

    /**
     * Whether some machine runs more of the given job ranks than they have cores between them (see
     * {@link #of}). False where a rank, or how many processors a rank may use, is unknown.
     */
    public boolean peersOutnumberCores(int[] ranks) {
        int[] count = new int[union.length];
        long[] limits = new long[union.length];
        int[] largest = new int[union.length];
        BitSet[] sets = new BitSet[union.length];
        boolean[] unknownSet = new boolean[union.length];
        for (int r : ranks) {
            if (r < 0 || r >= machineOf.length || own[r] <= 0) {
                return false;
            }
            int m = machineOf[r];
            count[m]++;
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
        for (int m = 0; m < union.length; m++) {
            // These ranks' own processors: peers bound one to a processor (cohort run --bind-to core) may share one
            // although the machine's peers have more between them.
            int between = unknownSet[m] || sets[m] == null ? largest[m] : sets[m].cardinality();
            if (count[m] > 0 && count[m] > Math.min(between, limits[m])) {
                return true;
            }
        }
        return false;
    }

    /** The number of machines the job's peers run on. */
    public int machines() {
        return union.length;
    }

    /** One line for {@code --verbose}: "8 peers on 1 machine (cores: 2); more peers than cores, ...". */
    public String describe() {
        int[] all = new int[machineOf.length];
        long[] limits = new long[union.length];
        boolean known = true;
        for (int r = 0; r < all.length; r++) {
            all[r] = r;
            limits[machineOf[r]] += own[r];
            known &= own[r] > 0;
        }
        StringBuilder b = new StringBuilder();
        for (int m = 0; m < union.length; m++) {
            b.append(m == 0 ? "" : ", ").append(known ? Long.toString(Math.min(union[m], limits[m])) : "?");
        }
        return machineOf.length + " peers on " + union.length + (union.length == 1 ? " machine" : " machines")
                + " (cores: " + b + ")"
                + (peersOutnumberCores(all) ? "; more peers than cores, so collectives send fewer messages" : "");
    }

    @Override
    public String toString() {
        return "Placement[" + describe() + "]";
    }
}
