package io.cohort.engine;

import java.util.Arrays;
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
    public static final Placement UNKNOWN = new Placement(new int[0], new int[0]);

    /** Machine index of each job rank. */
    private final int[] machineOf;
    /** Cores of each machine (0: unknown). */
    private final int[] cores;

    private Placement(int[] machineOf, int[] cores) {
        this.machineOf = machineOf;
        this.cores = cores;
    }

    /**
     * From each rank's machine identity and the cores it saw. Peers of one machine that report
     * different counts (CPU affinity, cgroup limits) are taken at the largest.
     */
    public static Placement of(String[] machine, int[] coresSeen) {
        if (machine.length != coresSeen.length) {
            throw new IllegalArgumentException(machine.length + " machines but " + coresSeen.length + " core counts");
        }
        Map<String, Integer> index = new HashMap<>();
        int[] machineOf = new int[machine.length];
        int[] cores = new int[machine.length];
        for (int r = 0; r < machine.length; r++) {
            int m = index.computeIfAbsent(machine[r], k -> index.size());
            machineOf[r] = m;
            cores[m] = Math.max(cores[m], coresSeen[r]);
        }
        return new Placement(machineOf, Arrays.copyOf(cores, index.size()));
    }

    /** Peers that are threads of this JVM: one machine with this many cores. */
    public static Placement oneMachine(int size, int cores) {
        return new Placement(new int[size], new int[] {cores});
    }

    /**
     * Whether some machine runs more of the given job ranks than it has cores; false where a
     * rank's machine or its cores are unknown.
     */
    public boolean peersOutnumberCores(int[] ranks) {
        if (cores.length == 0) {
            return false;
        }
        int[] count = new int[cores.length];
        for (int r : ranks) {
            if (r < 0 || r >= machineOf.length) {
                return false;
            }
            int m = machineOf[r];
            if (++count[m] > cores[m] && cores[m] > 0) {
                return true;
            }
        }
        return false;
    }

    /** The number of machines the job's peers run on. */
    public int machines() {
        return cores.length;
    }

    /** One line for {@code --verbose}: "8 peers on 1 machine (cores: 2); more peers than cores". */
    public String describe() {
        int[] all = new int[machineOf.length];
        for (int r = 0; r < all.length; r++) {
            all[r] = r;
        }
        return machineOf.length + " peers on " + cores.length + (cores.length == 1 ? " machine" : " machines")
                + " (cores: " + Arrays.toString(cores).replaceAll("[\\[\\]]", "") + ")"
                + (peersOutnumberCores(all) ? "; more peers than cores, so collectives send fewer messages" : "");
    }

    @Override
    public String toString() {
        return "Placement[" + machineOf.length + " peers on " + cores.length + " machines, cores " + Arrays.toString(cores) + "]";
    }
}
