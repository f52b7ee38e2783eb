package io.cohort.launch;

import java.net.InetAddress;
import java.util.Objects;

/**
 * Where a job runs and how its io-managers get there: the placement of ranks on hosts, the agent
 * that starts one io-manager per host, and optionally the address the controller listens on (null:
 * chosen by {@link Rendezvous}). Kept apart from {@link JobSpec}, which says what runs, so that a
 * scheduler (a load server, issue 7) can produce it.
 */
public record HostPlan(Placement placement, LaunchAgent agent, InetAddress controllerAddress) {
    public HostPlan {
        Objects.requireNonNull(placement, "placement");
        Objects.requireNonNull(agent, "agent");
    }

    /** Every rank on this machine, io-manager started locally: what {@code cohort run} does without --hosts. */
    public static HostPlan local(int size) {
        return new HostPlan(Placement.singleHost(HostName.local(), size), new LocalLaunchAgent(), null);
    }
}
