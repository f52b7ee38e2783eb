package io.cohort.broadcast.pcode;

import io.cohort.auth.JobSecret;

import io.cohort.GlobalProgramException;
import io.cohort.BroadcastDomain;
import io.cohort.CohortException;
import io.cohort.transport.fault.DatagramPort;
import io.cohort.transport.fault.FaultInjectingPort;
import io.cohort.transport.fault.FaultPlan;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * N PCODE domains in one JVM, each with its own sockets and progress thread, for tests and
 * benchmarks: over real loopback multicast ({@link Medium#MULTICAST}, a group derived from a fresh
 * key, as a job's would be) or over a {@link MemoryBroadcastMedium}. A {@link FaultPlan} puts a
 * {@link FaultInjectingPort} under every port, seeded per peer and port so a failing run replays.
 *
 * <pre>
 *   PcodeDomain[] d = LocalBroadcastDomains.open(4, Medium.MULTICAST, new PcodeContext(), FaultPlan.parse("loss=5%"), key);
 *   LocalBroadcastDomains.run(d, domain -&gt; { ... multicast / request ... }, Duration.ofSeconds(30));
 * </pre>
 */
public final class LocalBroadcastDomains {
    /** In memory; loopback multicast (the default of a job); loopback subnet broadcast (127.255.255.255). */
    public enum Medium { MEMORY, MULTICAST, BROADCAST }

    /** The program each peer runs. */
    public interface Body {
        void run(BroadcastDomain domain) throws Exception;
    }

    private LocalBroadcastDomains() {
    }

    /** Opens {@code n} domains of one job with transport key {@code key}. */
    public static PcodeDomain[] open(int n, Medium medium, PcodeContext ctx, FaultPlan faults, long key) throws IOException {
        return open(n, medium, medium == Medium.MULTICAST ? MulticastGroup.forJob(key) : null, ctx, faults, key);
    }

    /** As above on a given group (two jobs on one group, in tests of foreign traffic). */
    public static PcodeDomain[] open(int n, MulticastGroup group, PcodeContext ctx, FaultPlan faults, long key) throws IOException {
        return open(n, Medium.MULTICAST, group, ctx, faults, key);
    }

    private static PcodeDomain[] open(int n, Medium medium, MulticastGroup group, PcodeContext ctx, FaultPlan faults,
                                      long key) throws IOException {
        DatagramPort[][] ports = new DatagramPort[n][];
        SocketAddress[] addresses = new SocketAddress[n];
        SocketAddress broadcast;
        try {
            if (medium == Medium.MEMORY) {
                MemoryBroadcastMedium m = new MemoryBroadcastMedium(n);
                broadcast = m.broadcastAddress();
                for (int i = 0; i < n; i++) {
                    ports[i] = new DatagramPort[] {m.port(i), null};
                    addresses[i] = m.port(i).localAddress();
                }
            } else if (medium == Medium.BROADCAST) {
                SubnetBroadcast b = SubnetBroadcast.forJob(InetAddress.getByName("127.255.255.255"), key);
                broadcast = b.address();
                for (int i = 0; i < n; i++) {
                    ports[i] = b.open(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                    addresses[i] = ports[i][0].localAddress();
                }
            } else {
                broadcast = group.address();
                NetworkInterface lo = MulticastGroup.loopbackInterface();
                InetAddress local = InetAddress.getLoopbackAddress();
                for (int i = 0; i < n; i++) {
                    ports[i] = group.open(local, lo);
                    addresses[i] = ports[i][0].localAddress();
                }
            }
        } catch (IOException | RuntimeException e) {
            closeAll(ports);
            throw e;
        }
        PcodeDomain[] domains = new PcodeDomain[n];
        JobSecret secret = JobSecret.generate(); // one job's: its domains verify each other's frames, no one else's
        for (int i = 0; i < n; i++) {
            DatagramPort unicast = ports[i][0];
            DatagramPort groupPort = ports[i][1];
            if (faults != null && !faults.isNone()) {
                unicast = new FaultInjectingPort(unicast, faults, faults.seedFor(2L * i));
                if (groupPort != null) {
                    groupPort = new FaultInjectingPort(groupPort, faults, faults.seedFor(2L * i + 1));
                }
            }
            domains[i] = new PcodeDomain(i, n, secret, key, ctx, new DomainEndpoints(unicast, groupPort, broadcast, addresses));
        }
        return domains;
    }

    private static void closeAll(DatagramPort[][] ports) {
        for (DatagramPort[] p : ports) {
            if (p != null) {
                for (DatagramPort q : p) {
                    if (q != null) {
                        q.close();
                    }
                }
            }
        }
    }

    /**
     * Runs {@code body} on every domain, each on its own thread with a {@link DomainAgent}, closes the
     * domains, and rethrows the first failure (one that is a {@link GlobalProgramException} over any
     * other, since that is the root cause a test wants to see).
     */
    public static void run(PcodeDomain[] domains, Body body, Duration timeout) {
        int n = domains.length;
        Throwable[] failures = new Throwable[n];
        Thread[] threads = new Thread[n];
        DomainAgent[] agents = new DomainAgent[n];
        for (int i = 0; i < n; i++) {
            agents[i] = new DomainAgent(domains[i], DomainAgent.PERIOD_NANOS_DEFAULT).start();
            threads[i] = new Thread(new PeerRun(domains[i], body, failures, i), "cohort-bcast-peer-" + i);
            threads[i].setDaemon(true);
        }
        for (Thread t : threads) {
            t.start();
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            for (Thread t : threads) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                if (t.isAlive()) {
                    throw new CohortException("broadcast peers did not finish within " + timeout + " (" + t.getName()
                            + " still running)");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CohortException("interrupted while waiting for the broadcast peers");
        } finally {
            for (DomainAgent a : agents) {
                a.stop();
            }
            for (PcodeDomain d : domains) {
                d.close();
            }
        }
        Throwable first = null;
        for (Throwable f : failures) {
            if (f != null && (first == null || (f instanceof GlobalProgramException && !(first instanceof GlobalProgramException)))) {
                first = f;
            }
        }
        if (first instanceof RuntimeException r) {
            throw r;
        }
        if (first != null) {
            throw new CohortException("a broadcast peer failed: " + first, first);
        }
    }

    private static final class PeerRun implements Runnable {
        private final PcodeDomain domain;
        private final Body body;
        private final Throwable[] failures;
        private final int rank;

        PeerRun(PcodeDomain domain, Body body, Throwable[] failures, int rank) {
            this.domain = domain;
            this.body = body;
            this.failures = failures;
            this.rank = rank;
        }

        @Override
        public void run() {
            try {
                body.run(domain);
                domain.close();
            } catch (Throwable t) {
                failures[rank] = t;
                try {
                    domain.close(); // a failed domain closes at once, without lingering
                } catch (RuntimeException ignored) {
                    // the first failure is the one to report
                }
            }
        }
    }
}
