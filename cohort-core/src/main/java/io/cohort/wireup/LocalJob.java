package io.cohort.wireup;

import io.cohort.BroadcastDomain;
import io.cohort.CohortException;
import io.cohort.LocalCohort;
import io.cohort.PeerFailedException;
import io.cohort.auth.JobSecret;
import io.cohort.deck.service.PeerDeck;
import io.cohort.engine.DomainPolling;
import io.cohort.comm.EngineCommunicator;
import io.cohort.engine.MachineMap;
import io.cohort.engine.ProgressAgent;
import io.cohort.engine.ProgressEngine;
import io.cohort.idle.IdleStrategies;
import io.cohort.idle.IdleStrategy;
import io.cohort.collective.SharedSegmentBytes;
import io.cohort.transport.Transport;
import io.cohort.broadcast.pcode.DomainAgent;
import io.cohort.broadcast.pcode.DomainFactory;
import io.cohort.transport.fault.FaultPlan;
import io.cohort.transport.local.LocalFabric;
import io.cohort.transport.local.LocalTransport;
import io.cohort.transport.shm.ShmJobDirectory;
import io.cohort.transport.shm.ShmSegmentFile;
import io.cohort.transport.shm.ShmSpace;
import io.cohort.transport.shm.ShmTransport;
import io.cohort.transport.tcp.TcpTransport;
import io.cohort.transport.udp.UdpEndpoint;
import io.cohort.transport.udp.UdpSettings;
import io.cohort.transport.udp.UdpTransport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The in-JVM job behind {@link LocalCohort}: N peers as threads of this JVM, each with its own
 * engine, over the in-memory transport or real loopback sockets or shared-memory rings. Its
 * builder takes what {@link LocalCohort}'s does and two settings for tests and benchmarks that
 * reach into the transports: {@link #udpSettings} and {@link #onStart}.
 *
 * <p>If a peer throws, the others see it as a failed peer (their operations on it throw
 * {@link PeerFailedException}) and {@code run} throws a {@link CohortException} whose cause is the
 * first failure that was not itself caused by a failed peer.
 */
public final class LocalJob {
    private int size = 2;
    private String transport = "local";
    private Supplier<IdleStrategy> idle = IdleStrategies.configured();
    private Duration timeout = Duration.ofMinutes(10);
    private String fault = System.getProperty(FaultPlan.FAULT_PROP_NAME);
    private UdpSettings udpSettings;
    private java.util.function.Consumer<Transport[]> onStart;
    private int cores = Runtime.getRuntime().availableProcessors();

    private LocalJob() {
    }

    public static LocalJob builder() {
        return new LocalJob();
    }

    public LocalJob size(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("a job needs at least one peer, not " + n);
        }
        this.size = n;
        return this;
    }

    /**
     * {@code local} (in-memory, the default), {@code tcp} (loopback sockets), {@code shm}
     * (shared-memory rings) or {@code udp} (loopback datagrams).
     */
    public LocalJob transport(String name) {
        if (!name.equals("local") && !name.equals("tcp") && !name.equals("shm") && !name.equals("udp")) {
            throw new IllegalArgumentException("unknown transport '" + name
                    + "'; LocalCohort supports local, tcp, shm and udp");
        }
        this.transport = name;
        return this;
    }

    /**
     * Injects datagram faults ({@link FaultPlan} spec, e.g. {@code loss=0.05,seed=7}) under the udp
     * transport and the broadcast domain; default: the system property {@value FaultPlan#FAULT_PROP_NAME}. A bad spec is an
     * {@link IllegalArgumentException} naming the bad item.
     */
    public LocalJob fault(String spec) {
        FaultPlan.parse(spec);
        this.fault = spec;
        return this;
    }

    /** Settings of the udp transport (default: {@link UdpSettings#fromSystemProperties()}). */
    public LocalJob udpSettings(UdpSettings settings) {
        this.udpSettings = settings;
        return this;
    }

    /**
     * Called once the transports are connected, before the peers start, with each rank's udp transport
     * (the array is all null for other transports and for a job of one): lets tests and benchmarks
     * read the protocol's counters.
     */
    public LocalJob onStart(java.util.function.Consumer<Transport[]> observer) {
        this.onStart = observer;
        return this;
    }

    /**
     * How many cores the peers' machine offers them (default: this JVM's
     * {@code availableProcessors()}): what collectives see when they ask whether peers outnumber
     * cores. Lets a test stand for a machine with a core per peer on a smaller one.
     */
    public LocalJob cores(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("a machine has at least one core, not " + n);
        }
        this.cores = n;
        return this;
    }

    public LocalJob idle(String strategy) {
        this.idle = IdleStrategies.factory(strategy);
        return this;
    }

    /** How long {@link #run} waits for the peers before it gives up (default 10 minutes). */
    public LocalJob timeout(Duration t) {
        this.timeout = t;
        return this;
    }

    public void run(LocalCohort.PeerBody body) {
        ProgressEngine[] engines = new ProgressEngine[size];
        for (int i = 0; i < size; i++) {
            engines[i] = new ProgressEngine(i, size, idle);
            engines[i].placement(MachineMap.oneMachine(size, cores));
            PeerDeck.install(engines[i]); // DECK's naming service on rank 0 serves from the start
        }
        LocalFabric fabric = transport.equals("local") ? wireLocal(engines) : null;
        java.nio.file.Path shmDir = null;
        Transport[] wired = new Transport[size];
        if (transport.equals("tcp")) {
            wireTcp(engines);
        } else if (transport.equals("shm")) {
            shmDir = wireShm(engines);
        } else if (transport.equals("udp")) {
            wireUdp(engines, FaultPlan.parse(fault), udpSettings != null ? udpSettings : UdpSettings.fromSystemProperties(),
                    wired);
        }
        if (onStart != null) {
            onStart.accept(wired);
        }
        JobSecret domainSecret = JobSecret.generate(); // one job's, hence one group and one frame key per run
        String jobId = "local-" + Long.toHexString(domainSecret.jobTag() >>> 32); // names the run in the profiler's PeerInfo
        // Each peer's progress agent, as a launched peer has: it drains the transports while the
        // peer's thread is outside the engine (computing, or waiting in a broadcast-domain call),
        // so requests to it (DECK's, for one) are answered whatever its thread is doing.
        ProgressAgent[] agents = new ProgressAgent[size];
        for (int i = 0; i < size; i++) {
            agents[i] = new ProgressAgent(engines[i], null, ProgressAgent.PERIOD_NANOS_DEFAULT);
        }
        Throwable[] failures = new Throwable[size];
        long[] failedAt = new long[size];
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            int rank = i;
            EngineCommunicator world = new EngineCommunicator(engines[i], 0, engines[i]::shutdown);
            world.enableBroadcastDomain(new DomainFactory(i, size, domainSecret, InetAddress.getLoopbackAddress(),
                    FaultPlan.parse(fault), false), new AgentPerDomain());
            world.recordJobStart(jobId, "localhost");
            Thread t = new Thread(() -> {
                try {
                    body.run(world);
                    world.close();
                } catch (Throwable e) {
                    failedAt[rank] = System.nanoTime();
                    failures[rank] = e;
                    String reason = "rank " + rank + " failed: " + e;
                    if (fabric != null) {
                        fabric.markFailed(rank, reason);
                    } else {
                        engines[rank].abort(); // its sockets close; the others see the connection drop
                        for (ProgressEngine other : engines) {
                            other.notePeerGone(rank, reason); // what the launcher tells real processes
                        }
                    }
                }
            }, "cohort-local-" + rank);
            t.setDaemon(true);
            threads.add(t);
        }
        for (ProgressAgent a : agents) {
            a.start();
        }
        try {
            awaitPeers(threads, engines);
        } finally {
            for (ProgressAgent a : agents) {
                a.stop();
            }
            if (shmDir != null) {
                // What a peer that failed half-way left there (a collective segment it made), as the
                // io-manager removes a launched job's.
                ShmJobDirectory.remove(shmDir);
            }
        }
        int root = -1;
        for (int i = 0; i < size; i++) {
            if (failures[i] != null && !(failures[i] instanceof PeerFailedException)
                    && (root < 0 || failedAt[i] < failedAt[root])) {
                root = i;
            }
        }
        for (int i = 0; i < size && root < 0; i++) {
            if (failures[i] != null) {
                root = i;
            }
        }
        if (root >= 0) {
            throw new CohortException("rank " + root + " failed: " + failures[root], failures[root]);
        }
    }

    private void awaitPeers(List<Thread> threads, ProgressEngine[] engines) {
        threads.forEach(Thread::start);
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Thread t : threads) {
            try {
                long left = deadline - System.nanoTime();
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CohortException("interrupted while waiting for the peers");
            }
            if (t.isAlive()) {
                threads.forEach(Thread::interrupt);
                for (ProgressEngine e : engines) {
                    e.abort();
                }
                throw new CohortException("peers did not finish within " + timeout + " (" + t.getName() + " still running)");
            }
        }
    }

    private static LocalFabric wireLocal(ProgressEngine[] engines) {
        LocalFabric fabric = new LocalFabric(engines);
        for (int i = 0; i < engines.length; i++) {
            int[] others = new int[engines.length - 1];
            for (int j = 0, k = 0; j < engines.length; j++) {
                if (j != i) {
                    others[k++] = j;
                }
            }
            if (others.length > 0) {
                engines[i].attach(new LocalTransport(fabric, i), others);
            }
        }
        return fabric;
    }

    /**
     * Connects the peers over shared memory, after checking that the directory has room for them;
     * returns the job's private directory their segments are made in, null if none.
     */
    private static java.nio.file.Path wireShm(ProgressEngine[] engines) {
        int n = engines.length;
        if (n == 1) {
            return null;
        }
        long key = ThreadLocalRandom.current().nextLong();
        String jobId = "local" + Long.toHexString(key & 0xFFFFFFFFL);
        java.nio.file.Path base = ShmSegmentFile.defaultDirectory();
        java.nio.file.Path dir;
        try {
            ShmSpace.check(base, ShmSpace.needed(n, ShmTransport.configuredRingBytes(),
                    SharedSegmentBytes.of(n, System.getProperty(SharedSegmentBytes.AREA_BYTES_PROP_NAME))));
            dir = ShmJobDirectory.create(base);
        } catch (java.io.IOException e) {
            throw new CohortException(e.getMessage(), e);
        }
        String[] names = new String[n];
        for (int i = 0; i < n; i++) {
            names[i] = "rank " + i;
        }
        Connector connector = rank -> {
            int[] others = new int[n - 1];
            for (int j = 0, k = 0; j < n; j++) {
                if (j != rank) {
                    others[k++] = j;
                }
            }
            ShmTransport t = new ShmTransport(rank, n, key, jobId, dir, others, ShmTransport.configuredRingBytes());
            t.connect(names, engines[rank], TcpTransport.CONNECT_TIMEOUT_NANOS_DEFAULT);
            engines[rank].attach(t, t.peers());
        };
        try {
            connectAll(engines, connector);
        } catch (RuntimeException e) {
            ShmJobDirectory.remove(dir);
            throw e;
        }
        return dir;
    }

    /** What one peer does to join the in-JVM job; all run at once, since each waits for the others. */
    @FunctionalInterface
    private interface Connector {
        void connect(int rank) throws Exception;
    }

    private static void connectAll(ProgressEngine[] engines, Connector connector) {
        int n = engines.length;
        Throwable[] errors = new Throwable[n];
        Thread[] threads = new Thread[n];
        for (int i = 0; i < n; i++) {
            int rank = i;
            threads[i] = new Thread(() -> {
                try {
                    connector.connect(rank);
                } catch (Throwable e) {
                    errors[rank] = e;
                }
            }, "cohort-connect-" + i);
            threads[i].start();
        }
        for (int i = 0; i < n; i++) {
            try {
                threads[i].join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CohortException("interrupted while connecting the peers");
            }
            if (errors[i] != null) {
                throw new CohortException("rank " + i + " could not connect: " + errors[i].getMessage(), errors[i]);
            }
        }
    }

    private static void wireUdp(ProgressEngine[] engines, FaultPlan faults, UdpSettings settings, Transport[] wired) {
        int n = engines.length;
        if (n == 1) {
            return;
        }
        JobSecret secret = JobSecret.generate(); // one per run, shared by its ranks: their frames verify only among them
        UdpTransport[] udp = new UdpTransport[n];
        UdpEndpoint[] endpoints = new UdpEndpoint[n];
        String[] names = new String[n];
        try {
            InetAddress loopback = InetAddress.getLoopbackAddress();
            for (int i = 0; i < n; i++) {
                udp[i] = new UdpTransport(i, n, secret, new InetSocketAddress(loopback, 0), settings, faults);
                endpoints[i] = udp[i].localEndpoint();
                names[i] = "rank " + i;
            }
        } catch (IOException e) {
            for (UdpTransport u : udp) {
                if (u != null) {
                    u.close();
                }
            }
            throw new CohortException("could not open loopback UDP sockets: " + e.getMessage(), e);
        }
        for (int i = 0; i < n; i++) {
            udp[i].connect(endpoints, names, engines[i]);
            engines[i].attach(udp[i], udp[i].peers());
            wired[i] = udp[i];
        }
    }

    private static void wireTcp(ProgressEngine[] engines) {
        int n = engines.length;
        if (n == 1) {
            return;
        }
        JobSecret secret = JobSecret.generate(); // one per run: another run's peers cannot prove they belong to this one
        TcpTransport[] tcp = new TcpTransport[n];
        InetSocketAddress[] addresses = new InetSocketAddress[n];
        String[] names = new String[n];
        try {
            InetAddress loopback = InetAddress.getLoopbackAddress();
            for (int i = 0; i < n; i++) {
                tcp[i] = new TcpTransport(i, n, secret, new InetSocketAddress(loopback, 0));
                addresses[i] = tcp[i].localAddress();
                names[i] = "rank " + i;
            }
        } catch (IOException e) {
            throw new CohortException("could not open loopback TCP listeners: " + e.getMessage(), e);
        }
        connectAll(engines, rank -> {
            tcp[rank].connect(addresses, names, engines[rank], TcpTransport.CONNECT_TIMEOUT_NANOS_DEFAULT);
            engines[rank].attach(tcp[rank], tcp[rank].peers());
        });
    }

    /** In-JVM peers have no progress agent: each open domain gets its own polling thread. */
    private static final class AgentPerDomain implements DomainPolling {
        private final Map<BroadcastDomain, DomainAgent> agents = new ConcurrentHashMap<>();

        @Override
        public void startPolling(BroadcastDomain domain) {
            agents.put(domain, new DomainAgent(domain, DomainAgent.PERIOD_NANOS_DEFAULT).start());
        }

        @Override
        public void stopPolling(BroadcastDomain domain) {
            DomainAgent a = agents.remove(domain);
            if (a != null) {
                a.stop();
            }
        }
    }
}
