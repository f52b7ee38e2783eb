package io.cohort.wireup;

import io.cohort.CohortException;
import io.cohort.auth.JobSecret;
import io.cohort.transport.fault.FaultPlan;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A peer's identity, as the launcher puts it in the environment. Programs that never call the API
 * may read the same variables (like Open MPI's {@code OMPI_COMM_WORLD_RANK}).
 *
 * <table>
 *   <caption>Variables</caption>
 *   <tr><td>{@value #JOB_ID}</td><td>the job's id, unique per launch</td></tr>
 *   <tr><td>{@value #RANK}, {@value #SIZE}</td><td>this peer's rank and the number of peers</td></tr>
 *   <tr><td>{@value #LOCAL_RANK}, {@value #LOCAL_SIZE}</td><td>the same among the peers on this host</td></tr>
 *   <tr><td>{@value #HOST}</td><td>the member (host) name the launcher placed this peer on</td></tr>
 *   <tr><td>{@value #CONTROLLER}</td><td>host:port of the controlling process (internal)</td></tr>
 *   <tr><td>{@value #JOB_KEY}</td><td>the job's secret (internal): set by the peer's io-manager, never on a command line or in a frame</td></tr>
 *   <tr><td>{@value #WIREUP_TIMEOUT}</td><td>seconds start-up may take (default 60)</td></tr>
 *   <tr><td>{@value #TRANSPORT}</td><td>auto (default), shm, tcp or udp</td></tr>
 *   <tr><td>{@value #NETWORK}</td><td>the preferred network for data traffic, a CIDR prefix (a partition's {@code network})</td></tr>
 *   <tr><td>{@value #FAULT}</td><td>datagram faults to inject under the udp transport and the broadcast domain (a {@link FaultPlan} spec)</td></tr>
 *   <tr><td>{@value #SERIAL_FILTER}</td><td>what peers may deserialize from each other ({@code cohort run --serial-filter}, jdk.serialFilter syntax)</td></tr>
 *   <tr><td>{@value #CRASH_DIR}</td><td>this peer's own directory for crash files ({@code cohort run --core-dir})</td></tr>
 *   <tr><td>{@value #PROFILE}</td><td>record a profile into this directory ({@code %j}: the job id), see {@link PeerMain}</td></tr>
 *   <tr><td>{@value #PROFILE_MODE}</td><td>what the profile records: {@code summary} (default) or {@code full}</td></tr>
 * </table>
 */
public final class JobEnvironment {
    public static final String JOB_ID = "COHORT_JOB_ID";
    public static final String RANK = "COHORT_RANK";
    public static final String SIZE = "COHORT_SIZE";
    public static final String LOCAL_RANK = "COHORT_LOCAL_RANK";
    public static final String LOCAL_SIZE = "COHORT_LOCAL_SIZE";
    public static final String HOST = "COHORT_HOST";
    public static final String CONTROLLER = "COHORT_CONTROLLER";
    public static final String JOB_KEY = "COHORT_JOB_KEY";
    public static final String WIREUP_TIMEOUT = "COHORT_WIREUP_TIMEOUT";
    /**
     * {@code auto} (default: shared memory within a host, TCP between hosts), or {@code shm},
     * {@code tcp} or {@code udp} for every pair.
     */
    public static final String TRANSPORT = "COHORT_TRANSPORT";
    /**
     * The serial filter's pattern ({@code cohort run --serial-filter}): class patterns and limits that
     * every object received from another peer is checked against (see
     * {@link io.cohort.engine.SerialFilter}); the system property {@value io.cohort.engine.SerialFilter#PROP_NAME} wins.
     */
    public static final String SERIAL_FILTER = io.cohort.engine.SerialFilter.ENV_NAME;
    /** Datagram faults under the udp transport and the broadcast domain ({@code cohort run --fault SPEC} sets it). */
    public static final String FAULT = FaultPlan.FAULT_ENV_NAME;
    /**
     * Which family of collective algorithms communicators use ({@code cohort run --collectives}):
     * auto (by size and message length), p2p or bcast. The system property {@value #COLLECTIVES_PROP_NAME} wins.
     */
    public static final String COLLECTIVES = "COHORT_COLLECTIVES";
    /** {@code 1}: compare every collective call across the ranks before it runs ({@code cohort run --check-collectives}). */
    public static final String CHECK_COLLECTIVES = io.cohort.collective.CollectiveMode.CHECK_ENV_NAME;
    public static final String COLLECTIVES_PROP_NAME = "cohort.collectives";
    public static final java.util.List<String> COLLECTIVE_MODES = java.util.List.of("auto", "p2p", "bcast");
    /**
     * The preferred network for data traffic ({@code 10.1.0.0/24}), set from a partition's {@code network}
     * attribute: peers bind their TCP and UDP endpoints on their address in it, where they have one.
     */
    public static final String NETWORK = "COHORT_NETWORK";
    /**
     * This peer's own directory for crash files, set only by {@code cohort run --core-dir DIR}: the
     * io-manager creates it before the peer starts and the JVM writes its fatal-error log and heap
     * dumps there; {@code PeerMain} writes an uncaught exception's trace to
     * {@value #UNCAUGHT_EXCEPTION_FILE} in it.
     */
    public static final String CRASH_DIR = "COHORT_CRASH_DIR";
    /** The file in {@value #CRASH_DIR} that holds the traces of exceptions no code caught. */
    public static final String UNCAUGHT_EXCEPTION_FILE = "uncaught-exception.txt";
    /**
     * The directory of the job's profile ({@code cohort run --profile[=DIR]}): {@code PeerMain}
     * records this peer's Flight Recorder file {@code DIR/<App>.prof.<rank>.jfr} there. {@code %j}
     * stands for the job id, {@code %%} for {@code %}; a relative directory is the peer's working
     * directory's. Unset or empty: no recording.
     */
    public static final String PROFILE = "COHORT_PROFILE";
    public static final String PROFILE_MODE = "COHORT_PROFILE_MODE";
    /** Set to 1 by {@code cohort run --verbose}: rank 0 prints the transport matrix and the collective algorithms. */
    public static final String VERBOSE = "COHORT_VERBOSE";
    /**
     * How the io-manager binds the peer to processors ({@code cohort run --bind-to}): {@code auto}
     * (the launcher's default) splits the processors the io-manager may use and no other job has
     * claimed among its peers; {@code core} binds the peer to one processor, chosen by its
     * {@value #BIND_INDEX} among those the io-manager may use; {@code none}: unbound. Read by the
     * io-manager, not by the peer.
     */
    public static final String BIND_TO = "COHORT_BIND_TO";
    public static final java.util.List<String> BIND_TO_MODES = java.util.List.of("auto", "none", "core");
    /**
     * With {@value #BIND_TO} {@code core} or {@code auto}: the peer's place among the peers of its
     * machine, which picks its processors. The local rank where each host is a machine; with
     * {@code core}, the rank where the launch agent starts every host on this machine (local,
     * netns), whose hosts share its processors.
     */
    public static final String BIND_INDEX = "COHORT_BIND_INDEX";
    /**
     * {@code 1} where the io-manager bound the peer to a processor it also bound another peer of the
     * job to (more peers than processors): the {@code backoff} idle strategy then yields at once
     * instead of spinning first, since the peer it waits for may need that very processor.
     */
    public static final String CPU_SHARED = io.cohort.idle.IdleStrategies.CPU_SHARED_ENV_NAME;
    /**
     * Every variable a launcher sets for its peers. The io-manager drops these from what a peer
     * would inherit, so a peer sees this launch's values only: not a stale export in the user's
     * shell, nor the job variables of a peer that runs {@code cohort run} itself ({@code -x}
     * passes one on deliberately).
     */
    public static final java.util.List<String> SET_BY_LAUNCHER = java.util.List.of(JOB_ID, RANK, SIZE, LOCAL_RANK,
            LOCAL_SIZE, HOST, CONTROLLER, JOB_KEY, WIREUP_TIMEOUT, TRANSPORT, COLLECTIVES, NETWORK, CRASH_DIR, PROFILE,
            PROFILE_MODE, VERBOSE, BIND_TO, BIND_INDEX, CPU_SHARED, io.cohort.idle.IdleStrategies.IDLE_ENV_NAME,
            io.cohort.collective.CollectiveMode.CHECK_ENV_NAME, io.cohort.transport.fault.FaultPlan.FAULT_ENV_NAME,
            SERIAL_FILTER, io.cohort.broadcast.eqa.BroadcastProtocol.ENV_NAME);
    public static final java.util.List<String> TRANSPORTS = java.util.List.of("auto", "shm", "tcp", "udp");
    public static final int WIREUP_TIMEOUT_DEFAULT_SECONDS = 60;
    /** The longest {@value #WIREUP_TIMEOUT} a peer takes: a day. */
    public static final int WIREUP_TIMEOUT_MAX_SECONDS = 86_400;

    private final String jobId;
    private final int rank;
    private final int size;
    private final int localRank;
    private final int localSize;
    private final String host;
    private final InetSocketAddress controller;
    private final JobSecret secret;
    private final int wireupTimeoutSeconds;
    private final String transport;
    private final boolean verbose;
    private final FaultPlan fault;
    private final NetworkPrefix network;

    private JobEnvironment(Map<String, String> env) {
        this.jobId = required(env, JOB_ID);
        this.size = integer(env, SIZE, 1, Integer.MAX_VALUE);
        this.rank = integer(env, RANK, 0, size - 1);
        this.localSize = env.containsKey(LOCAL_SIZE) ? integer(env, LOCAL_SIZE, 1, size) : size;
        this.localRank = env.containsKey(LOCAL_RANK) ? integer(env, LOCAL_RANK, 0, localSize - 1) : rank;
        this.host = env.getOrDefault(HOST, "localhost");
        this.controller = address(required(env, CONTROLLER));
        this.secret = JobSecret.parse(required(env, JOB_KEY), "environment variable " + JOB_KEY);
        this.wireupTimeoutSeconds = env.containsKey(WIREUP_TIMEOUT)
                ? integer(env, WIREUP_TIMEOUT, 1, WIREUP_TIMEOUT_MAX_SECONDS) : WIREUP_TIMEOUT_DEFAULT_SECONDS;
        String t = env.getOrDefault(TRANSPORT, "auto").trim().toLowerCase(java.util.Locale.ROOT);
        if (!TRANSPORTS.contains(t)) {
            throw new CohortException("environment variable " + TRANSPORT + "=" + env.get(TRANSPORT)
                    + " names no transport; choose one of " + TRANSPORTS);
        }
        this.transport = t;
        try {
            this.network = env.containsKey(NETWORK) && !env.get(NETWORK).isBlank() ? NetworkPrefix.parse(env.get(NETWORK)) : null;
        } catch (IllegalArgumentException e) {
            throw new CohortException("environment variable " + NETWORK + ": " + e.getMessage());
        }
        this.verbose = "1".equals(env.get(VERBOSE)) || "true".equalsIgnoreCase(env.get(VERBOSE));
        String spec = System.getProperty(FaultPlan.FAULT_PROP_NAME, env.get(FAULT));
        try {
            this.fault = FaultPlan.parse(spec);
        } catch (IllegalArgumentException e) {
            throw new CohortException((System.getProperty(FaultPlan.FAULT_PROP_NAME) != null
                    ? "system property " + FaultPlan.FAULT_PROP_NAME : "environment variable " + FAULT) + ": "
                    + e.getMessage());
        }
    }

    /**
     * The datagram faults to inject: the system property {@value FaultPlan#FAULT_PROP_NAME} if set,
     * else {@value #FAULT}; {@link FaultPlan#NONE} without either.
     */
    public FaultPlan fault() {
        return fault;
    }

    /** The transport policy: auto, shm, tcp or udp. */
    public String transport() {
        return transport;
    }

    /** The preferred network for data traffic, or null: the address the launcher is reached from. */
    public NetworkPrefix network() {
        return network;
    }

    public boolean verbose() {
        return verbose;
    }

    /** True when this process was started by {@code cohort run}. */
    public static boolean isLaunched(Map<String, String> env) {
        return env.containsKey(JOB_ID) && env.containsKey(CONTROLLER);
    }

    public static JobEnvironment from(Map<String, String> env) {
        return new JobEnvironment(env);
    }

    private static String required(Map<String, String> env, String name) {
        String v = env.get(name);
        if (v == null || v.isBlank()) {
            throw new CohortException("environment variable " + name + " is missing; start the program with cohort run");
        }
        return v;
    }

    private static int integer(Map<String, String> env, String name, int min, int max) {
        String v = required(env, name);
        try {
            int i = Integer.parseInt(v.trim());
            if (i < min || i > max) {
                throw new NumberFormatException();
            }
            return i;
        } catch (NumberFormatException e) {
            throw new CohortException("environment variable " + name + "=" + v + " is not a number from " + min
                    + " to " + max);
        }
    }

    private static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        try {
            return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
        } catch (RuntimeException e) {
            throw new CohortException("environment variable " + CONTROLLER + "=" + hostPort + " is not host:port");
        }
    }

    /** Parses "host:port". */
    public static InetSocketAddress parseAddress(String hostPort) {
        return address(hostPort);
    }

    /**
     * A 64-bit value carried in every transport frame and handshake so that other jobs' frames are
     * told apart and dropped before their tags are checked: derived from the secret, but no secret
     * itself and no proof of membership (the tags and proofs made with {@link #secret()} are).
     */
    public long transportKey() {
        return secret.jobTag();
    }

    /** The job's secret, from which every key that proves membership is derived. */
    public JobSecret secret() {
        return secret;
    }

    /** Whether the launcher placed every peer of the job on this host. */
    public boolean allPeersLocal() {
        return localSize == size;
    }

    public String jobId() {
        return jobId;
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return size;
    }

    public int localRank() {
        return localRank;
    }

    public int localSize() {
        return localSize;
    }

    public String host() {
        return host;
    }

    public InetSocketAddress controller() {
        return controller;
    }

    public int wireupTimeoutSeconds() {
        return wireupTimeoutSeconds;
    }
}
