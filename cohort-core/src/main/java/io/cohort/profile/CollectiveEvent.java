package io.cohort.profile;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * One collective call of the program, with the algorithm that ran it; the event lasts as long as
 * the call. For a nonblocking one ({@code ibarrier}, {@code ibcast}, {@code iallreduce}) that is
 * the call that starts it, and the algorithm is empty (it is chosen when the collective runs, on
 * {@code cohort-coll-<rank>}); the program's wait for it is a {@link WaitEvent}. The point-to-point
 * messages a collective sends record no {@link SendEvent} or {@link ReceiveEvent}.
 */
@Name(CollectiveEvent.NAME)
@Label("Collective")
@Category({"Cohort", "Collectives"})
@Enabled(false) // on only where a recording asks (cohort.jfc): an unrelated recording pays nothing
@Description("A collective operation of the program and the algorithm that ran it")
public final class CollectiveEvent extends Event {
    public static final String NAME = "io.cohort.Collective";
    private static final CollectiveEvent PROBE = new CollectiveEvent();

    @Label("Communicator")
    @Description("Context id of the communicator (0: the world)")
    public int communicator;

    @Label("Operation")
    @Description("The API call: barrier, bcast, allreduce, alltoall, iallreduce, ...")
    public String operation;

    @Label("Algorithm")
    @Description("The algorithm that ran, e.g. binomial-tree, recursive-doubling, domain-multicast; empty if unknown")
    public String algorithm;

    @Label("Root")
    @Description("Rank of the root in the communicator, -1 for operations without one")
    public int root;

    @Label("Bytes")
    @Description("This peer's payload: its send buffer, or what it received where it sends nothing (bcast and scatter off the root)")
    @DataAmount
    public long bytes;

    @Label("Size")
    @Description("Number of peers in the communicator")
    public int size;

    /** A begun event if a recording wants collectives, else null: nothing is allocated while none does. */
    public static CollectiveEvent startIfEnabled() {
        if (!PROBE.isEnabled()) {
            return null;
        }
        CollectiveEvent e = new CollectiveEvent();
        e.begin();
        return e;
    }

    public void finish(int communicator, String operation, String algorithm, int root, long bytes, int size) {
        end();
        if (shouldCommit()) {
            this.communicator = communicator;
            this.operation = operation;
            this.algorithm = algorithm;
            this.root = root;
            this.bytes = bytes;
            this.size = size;
            commit();
        }
    }
}
