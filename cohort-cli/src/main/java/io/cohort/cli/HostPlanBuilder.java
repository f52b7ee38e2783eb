package io.cohort.cli;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.MemberLoad;
import io.cohort.cluster.TextFiles;
import io.cohort.cluster.UserIdentity;
import io.cohort.daemon.ClusterConfigException;
import io.cohort.daemon.ClusterUnreachableException;
import io.cohort.daemon.MemberState;
import io.cohort.daemon.MemberStatus;
import io.cohort.daemon.StatusTable;
import io.cohort.launch.HostPlan;
import io.cohort.launch.JobSpec;
import io.cohort.launch.LaunchAgent;
import io.cohort.launch.LaunchAgents;
import io.cohort.launch.Placement;
import io.cohort.wireup.JobEnvironment;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Supplier;

/**
 * Where the peers of {@code cohort run} run: {@code --hosts}, {@code --hostfile} or a partition of
 * the cluster ({@code --partition}, {@code --cluster-db} and their scheduling options, placed by a
 * load server), the launch agent and the controller's address, checked and combined into a
 * {@link HostPlan}; without them, every peer on this machine. Refusals are {@link UsageException}s.
 * Reads the options {@link RunCommand} parsed; what runs is {@link JobSpecBuilder}'s.
 */
final class HostPlanBuilder {
    private final RunCommand run;

    HostPlanBuilder(RunCommand run) {
        this.run = run;
    }

    /**
     * Where the job runs: --hosts, --launch-agent and --controller-address checked and combined;
     * without them, every peer on this machine. Throws {@link UsageException}.
     */
    HostPlan hostPlan() {
        InetAddress controller = run.controllerAddress == null ? null : controllerAddress(run.controllerAddress);
        if (run.hosts != null && run.hostfile != null) {
            throw new UsageException("give only one of --hosts and --hostfile");
        }
        if (run.cluster != null) {
            LaunchAgent agent;
            try {
                agent = LaunchAgents.parse(run.launchAgent == null ? "ssh" : run.launchAgent);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
            return new HostPlan(run.cluster.placement(), agent, controller);
        }
        if (run.hosts == null && run.hostfile == null) {
            if (run.launchAgent != null && !run.launchAgent.trim().equals("local")) {
                try {
                    LaunchAgents.parse(run.launchAgent); // an agent that is wrong in itself is the first thing to say
                } catch (IllegalArgumentException e) {
                    throw new UsageException(e.getMessage());
                }
                throw new UsageException("--launch-agent " + run.launchAgent.trim() + " needs --hosts or --hostfile to say where the peers run");
            }
            HostPlan local = HostPlan.local(run.np);
            return new HostPlan(local.placement(), local.agent(), controller);
        }
        Placement placement;
        LaunchAgent agent;
        try {
            placement = run.hosts != null ? Placement.parse(run.hosts, run.np)
                    : Placement.parseHostfile(readHostfile(run.hostfile), run.hostfile.toString(), run.np);
            agent = LaunchAgents.parse(run.launchAgent == null ? "ssh" : run.launchAgent);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        return new HostPlan(placement, agent, controller);
    }

    /**
     * {@code --transport shm} moves every message through one host's memory: refused before anything
     * starts when the peers run on several hosts (each would fail to reach the others otherwise).
     */
    static void checkSharedMemoryReaches(JobSpec job, Placement placement) {
        List<String> hosts = List.copyOf(new LinkedHashSet<>(List.of(placement.hostPerRank())));
        if ("shm".equals(job.environment().get(JobEnvironment.TRANSPORT)) && hosts.size() > 1) {
            throw new UsageException("--transport shm needs every peer on one host, but this job's run on " + hosts.size()
                    + " (" + String.join(", ", hosts) + "); use --transport auto, which takes shared memory within a"
                    + " host and TCP between hosts");
        }
    }

    /** Whether the job runs in a partition: --partition, $COHORT_PARTITION or --cluster-db given. */
    boolean partitionWanted() {
        boolean byEnv = run.environment.get("COHORT_PARTITION") != null && !run.environment.get("COHORT_PARTITION").isBlank();
        boolean wanted = run.partition != null || run.clusterDb != null || (byEnv && run.hosts == null && run.hostfile == null);
        if (wanted && (run.hosts != null || run.hostfile != null)) {
            throw new UsageException("--partition and --cluster-db place the peers by load; give them or --hosts/--hostfile, not both");
        }
        if (!wanted && (run.mode != null || run.nice != null || run.policy != null || run.rtPriority != null)) {
            throw new UsageException("--mode, --nice, --policy and --rt-priority apply to jobs in a partition; add --partition P");
        }
        return wanted;
    }

    ClusterOptions clusterOptions() {
        ClusterOptions o = new ClusterOptions();
        o.clusterDb = run.clusterDb;
        o.key = run.key;
        o.verbose = run.verbose;
        o.env = run.environment;
        return o;
    }

    /** The partition's plan: access checked first, then the load server asked and the peers placed. */
    ClusterPlanner.Plan clusterPlan(ClusterDb db, Supplier<List<MemberLoad>> loads)
            throws ClusterUnreachableException, ClusterConfigException {
        String p = run.partition != null ? run.partition : run.environment.get("COHORT_PARTITION");
        try {
            return ClusterPlanner.plan(db, p, run.np, run.mode, run.nice, run.policy, run.rtPriority, UserIdentity.current(), loads);
        } catch (UncheckedClusterException e) {
            if (e.getCause() instanceof ClusterConfigException c) {
                throw c;
            }
            throw (ClusterUnreachableException) e.getCause();
        }
    }

    /** A load server's table as placement sees it: a member is available when up or drained (drained has no slots). */
    static List<MemberLoad> loads(StatusTable table) {
        List<MemberLoad> out = new ArrayList<>();
        for (MemberStatus m : table.members()) {
            boolean available = m.state() == MemberState.UP || m.state() == MemberState.DRAINED;
            out.add(new MemberLoad(m.name(), available, m.cpus(), Math.max(0, m.load1()), m.slots(), m.jobs().size()));
        }
        return out;
    }

    /** Carries a load server failure out of the placement's supplier. */
    static final class UncheckedClusterException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UncheckedClusterException(Exception cause) {
            super(cause);
        }
    }

    /** The largest host file read: 65536 peers on lines of a generous 256 bytes. */
    private static final int HOSTFILE_MAX_BYTES = 16 << 20;

    private static String readHostfile(Path file) {
        try {
            return TextFiles.read(file, HOSTFILE_MAX_BYTES, StandardCharsets.UTF_8);
        } catch (TextFiles.NotTextFileException e) {
            throw new UsageException("--hostfile " + file + " " + e.getMessage() + "; give a text file of host names");
        } catch (CharacterCodingException e) {
            throw new UsageException("--hostfile " + file + " is not UTF-8 text");
        } catch (NoSuchFileException e) {
            throw new UsageException("--hostfile " + file + " does not exist");
        } catch (AccessDeniedException e) {
            throw new UsageException("--hostfile " + file + " cannot be read (permission denied)");
        } catch (IOException e) {
            throw new UsageException("--hostfile " + file + " cannot be read (" + e.getMessage() + ")");
        }
    }

    /** --controller-address must be one of this machine's own addresses (the controller binds it). */
    private static InetAddress controllerAddress(String value) {
        InetAddress a;
        try {
            a = InetAddress.getByName(value.trim());
        } catch (UnknownHostException e) {
            throw new UsageException("--controller-address " + value + " does not resolve to an address");
        }
        boolean own;
        try {
            own = a.isLoopbackAddress() || NetworkInterface.getByInetAddress(a) != null;
        } catch (SocketException e) {
            own = false;
        }
        if (a.isAnyLocalAddress() || a.isMulticastAddress() || !own) {
            throw new UsageException("--controller-address " + value + " is not an address of this machine; "
                    + "give one that 'ip addr' lists and the hosts reach");
        }
        return a;
    }
}
