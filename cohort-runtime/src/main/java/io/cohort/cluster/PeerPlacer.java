package io.cohort.cluster;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Chooses the members a job's peers run on, from a load server's view of a partition (PSE: "which members
 * are used and the order in which they are used is based on each member's load average, number of CPUs,
 * and number of available job slots").
 *
 * <p>Only usable members count: up, answering and with a free job slot. They are ranked by load per CPU
 * (lowest first), then by CPUs (most first), then by free slots (most first), then by the database's order, so that equal members
 * are used in a stable order.
 * <ul>
 *   <li><b>physical</b> mode: one peer on each of the first N ranked members; fewer usable members than
 *       peers is an error naming how many there are;</li>
 *   <li><b>virtual</b> mode: peers go one at a time to the member whose load per CPU, counting the peers
 *       already given to it as load, is lowest (ties: the ranking above). An idle 4-CPU member takes four
 *       peers before a 1-CPU one takes its second.</li>
 * </ul>
 * The result lists members in ranking order with their peer counts; the launcher places ranks on them
 * in blocks, so the least loaded member holds rank 0. Stateless.
 */
public final class PeerPlacer {
    private PeerPlacer() {
    }

    /**
     * @param partition the partition the job runs in (its members bound the choice)
     * @param loads     what the load server reports, any order; members of the partition it does not
     *                  mention are not usable
     * @param peers     the number of peers, 1 or more
     * @param mode      physical or virtual
     * @return member name to peer count, in placement order, only members with at least one peer
     * @throws PlacementException with one sentence when the partition cannot hold the job
     */
    public static Map<String, Integer> place(Partition partition, List<MemberLoad> loads, int peers, PlacementMode mode) {
        if (peers < 1) {
            throw new IllegalArgumentException("a job needs 1 or more peers (got " + peers + ")");
        }
        Map<String, MemberLoad> byName = new LinkedHashMap<>();
        for (MemberLoad l : loads) {
            byName.put(l.name(), l);
        }
        List<MemberLoad> usable = new ArrayList<>();
        List<String> order = partition.members();
        Map<String, Integer> position = new java.util.HashMap<>();
        for (String m : order) {
            position.put(m, position.size());
            MemberLoad l = byName.get(m);
            if (l != null && l.usable()) {
                usable.add(l);
            }
        }
        Comparator<MemberLoad> ranking = Comparator.comparingDouble(MemberLoad::loadPerCpu)
                .thenComparing(Comparator.comparingInt(MemberLoad::cpus).reversed())
                .thenComparing(Comparator.comparingInt(MemberLoad::freeSlots).reversed())
                .thenComparingInt(l -> position.get(l.name()));
        usable.sort(ranking);
        if (usable.isEmpty()) {
            throw new PlacementException("partition " + partition.name() + " has no available member with a free job slot"
                    + " (of " + order.size() + " members); see 'cohort status --partition " + partition.name() + "'");
        }
        Map<String, Integer> out = new LinkedHashMap<>();
        if (mode == PlacementMode.PHYSICAL) {
            if (usable.size() < peers) {
                throw new PlacementException("partition " + partition.name() + " has " + usable.size() + " available member"
                        + (usable.size() == 1 ? "" : "s") + " for " + peers + " peers, and physical mode runs one peer"
                        + " per member; use --mode virtual or fewer peers");
            }
            for (int i = 0; i < peers; i++) {
                out.put(usable.get(i).name(), 1);
            }
            return out;
        }
        int[] given = new int[usable.size()];
        for (int p = 0; p < peers; p++) {
            int best = 0;
            double bestLoad = Double.MAX_VALUE;
            for (int i = 0; i < usable.size(); i++) {
                MemberLoad l = usable.get(i);
                double load = (l.load1() + given[i]) / Math.max(1, l.cpus());
                if (load < bestLoad) { // strict: ties keep the earlier-ranked member
                    bestLoad = load;
                    best = i;
                }
            }
            given[best]++;
        }
        for (int i = 0; i < usable.size(); i++) {
            if (given[i] > 0) {
                out.put(usable.get(i).name(), given[i]);
            }
        }
        return out;
    }
}
