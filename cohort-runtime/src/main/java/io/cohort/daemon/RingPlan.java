package io.cohort.daemon;

import java.util.ArrayList;
import java.util.List;

/** Who a daemon's ring successor may be: pure functions of the database's member order. */
final class RingPlan {
    private RingPlan() {
    }

    /**
     * The members after {@code self} in {@code order}, wrapping around, without {@code self}: the
     * daemon connects to the first it can reach. For [a, b, c, d] and c: [d, a, b].
     */
    static List<String> candidates(List<String> order, String self) {
        int i = order.indexOf(self);
        if (i < 0) {
            throw new IllegalArgumentException(self + " is not a member");
        }
        List<String> out = new ArrayList<>(order.size() - 1);
        for (int k = 1; k < order.size(); k++) {
            out.add(order.get((i + k) % order.size()));
        }
        return out;
    }

    /** The index in {@code candidates} of the first reachable member, or -1. */
    static int firstReachable(List<String> candidates, java.util.function.Predicate<String> reachable) {
        for (int i = 0; i < candidates.size(); i++) {
            if (reachable.test(candidates.get(i))) {
                return i;
            }
        }
        return -1;
    }
}
