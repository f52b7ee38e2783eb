package io.cohort.wireup;

import io.cohort.deck.service.PeerDeck;
import io.cohort.comm.EngineCommunicator;
import io.cohort.engine.ProgressAgent;
import io.cohort.engine.ProgressEngine;
import io.cohort.idle.IdleStrategies;
import io.cohort.broadcast.pcode.DomainFactory;
import io.cohort.transport.shm.ShmJobDirectory;
import io.cohort.transport.shm.ShmTransport;
import io.cohort.transport.tcp.TcpTransport;
import io.cohort.transport.udp.UdpEndpoint;
import io.cohort.transport.udp.UdpSettings;
import io.cohort.transport.udp.UdpTransport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Assembles a launched peer: control connection, engine, transports, progress agent.
 *
 * <pre>
 *  connect to controller ─► bind TCP (or UDP) on the control connection's local address, port 0
 *        ─► PEER_HELLO(endpoints) ─► PEER_TABLE ─► choose a transport per pair
 *        ─► shared-memory rings with local peers, TCP connections (or udp pairs) with others ─► world
 * </pre>
 *
 * The choice per pair ({@link TransportPlan}) is computed by every peer from the same table, so
 * both ends of a pair always agree without another message.
 */
public final class PeerRuntime {
    private PeerRuntime() {
    }

    public static EngineCommunicator start(JobEnvironment env) {
        WireupClient control = null;
        TcpTransport tcp = null;
        ShmTransport shm = null;
        UdpTransport udp = null;
        ProgressAgent started = null;
        try {
            long timeout = TimeUnit.SECONDS.toNanos(env.wireupTimeoutSeconds());
            control = WireupClient.connect(env);
            InetAddress advertised = env.network() == null ? control.localAddress()
                    : env.network().localAddress().orElse(control.localAddress()); // preferred, not required
            ProgressEngine engine = new ProgressEngine(env.rank(), env.size(), IdleStrategies.configured());
            io.cohort.engine.SerialFilter.configured(); // a bad pattern fails the start, not a receive later
            PeerDeck.install(engine); // DECK's naming service on rank 0 serves from the first message on
            Map<String, String> endpoints = new LinkedHashMap<>();
            // The io-manager made it (ShmJobDirectory); without one this peer offers no shared memory.
            Path shmDir = ShmJobDirectory.given(System.getenv(ShmJobDirectory.ENV_NAME));
            if (env.size() > 1) {
                // A TCP listener is only worth opening if some pair may use TCP.
                boolean tcpPossible = env.transport().equals("tcp")
                        || (env.transport().equals("auto") && !env.allPeersLocal());
                if (tcpPossible) {
                    tcp = new TcpTransport(env.rank(), env.size(), env.secret(), new InetSocketAddress(advertised, 0));
                    endpoints.put("tcp", advertised.getHostAddress() + ":" + tcp.localAddress().getPort());
                }
                if (env.transport().equals("udp")) {
                    // Settings are checked before anything is bound: a bad value is one clear line.
                    UdpSettings settings = UdpSettings.fromSystemProperties();
                    udp = new UdpTransport(env.rank(), env.size(), env.secret(), new InetSocketAddress(advertised, 0),
                            settings, env.fault());
                    endpoints.put("udp", udp.localEndpoint().format());
                } else if (!env.transport().equals("tcp") && shmDir != null) {
                    ShmJobDirectory.verify(shmDir); // before anyone relies on it: one sentence if it is not ours alone
                    endpoints.put("shm", shmDir.toString());
                }
            }
            PeerRecord self = new PeerRecord(env.rank(), ProcessInfo.pid(), env.host(), endpoints,
                    ProcessInfo.machine(env.host()), Runtime.getRuntime().availableProcessors(), ProcessInfo.allowedCpus());
            PeerRecord[] table = control.exchange(self, timeout);
            engine.placement(PeerRecord.placement(table));
            TransportPlan plan = TransportPlan.of(env.transport(), env.rank(), table);
            if (env.verbose() && env.rank() == 0) {
                System.err.print(plan.matrix(table));
                System.err.println("cohort: " + engine.placement().describe());
            }
            String[] names = new String[env.size()];
            for (PeerRecord p : table) {
                names[p.rank()] = p.describe();
            }
            if (plan.anyShm()) {
                shm = new ShmTransport(env.rank(), env.size(), env.transportKey(), env.jobId(), shmDir,
                        plan.peersOver("shm"), ShmTransport.configuredRingBytes());
                shm.connect(names, engine, timeout);
                engine.attach(shm, shm.peers());
            }
            if (tcp != null && plan.anyTcp()) {
                InetSocketAddress[] addresses = new InetSocketAddress[env.size()];
                for (int p : plan.peersOver("tcp")) {
                    addresses[p] = JobEnvironment.parseAddress(table[p].endpoints().get("tcp"));
                }
                tcp.connect(addresses, plan.wanted("tcp"), names, engine, timeout);
                engine.attach(tcp, tcp.peers());
            } else if (tcp != null) {
                tcp.close();
                tcp = null;
            }
            if (udp != null && plan.anyUdp()) {
                UdpEndpoint[] addresses = new UdpEndpoint[env.size()];
                for (int p : plan.peersOver("udp")) {
                    addresses[p] = UdpEndpoint.parse(table[p].endpoints().get("udp"));
                }
                udp.connect(addresses, plan.wanted("udp"), names, engine);
                engine.attach(udp, udp.peers());
            } else if (udp != null) {
                udp.close();
                udp = null;
            }
            // Anonymous classes, not lambdas, on the start-up path: see ParentWatch.
            WireupClient c = control;
            engine.onPeerFailure(new ProgressEngine.PeerFailureListener() {
                @Override
                public void peerFailed(int peer, String reason) {
                    c.reportFailure(peer, reason);
                }

                @Override
                public void awaitedClosed(int peer) {
                    c.reportAwaitedClosed(peer);
                }
            });
            c.onPeerGone(new WireupClient.PeerGoneListener() {
                @Override
                public void peerGone(int rank, String reason) {
                    engine.notePeerGone(rank, reason);
                }
            });
            DomainFactory domains = new DomainFactory(env.rank(), env.size(), env.secret(), advertised,
                    env.fault(), env.localSize() == 1);
            TcpTransport tcpUsed = tcp;
            UdpTransport udpUsed = udp;
            ProgressAgent agent = new ProgressAgent(engine, new ProgressAgent.Duty() {
                @Override
                public void run(long awaitNanos) throws Exception {
                    c.pollControl(awaitNanos);
                }
            }, ProgressAgent.PERIOD_NANOS_DEFAULT);
            agent.start();
            started = agent;
            EngineCommunicator world = new EngineCommunicator(engine, 0, new Runnable() {
                @Override
                public void run() {
                    engine.shutdown();
                    List<DropReport.Entry> drops = DropReport.entries(udpUsed == null ? null : udpUsed.counters(),
                            tcpUsed == null ? 0 : tcpUsed.rejectedConnections(),
                            tcpUsed == null ? 0 : tcpUsed.failedAuthentications(),
                            tcpUsed == null ? 0 : tcpUsed.malformedFrames(), domains.drops());
                    DropReport.profile(drops); // cohort prof's "Dropped traffic"
                    if (env.verbose()) {
                        String dropped = DropReport.line(env.rank(), drops);
                        if (dropped != null) {
                            System.err.println(dropped);
                        }
                    }
                    c.finalized();
                    agent.stop();
                    c.close();
                }
            });
            // Opened on first use only: a job that never multicasts binds no datagram socket for it.
            world.enableBroadcastDomain(domains, agent);
            world.recordJobStart(env.jobId(), env.host());
            return world;
        } catch (IOException | RuntimeException e) {
            if (started != null) {
                started.stop(); // before the transports close under it
            }
            if (tcp != null) {
                tcp.close();
            }
            if (shm != null) {
                shm.close();
            }
            if (udp != null) {
                udp.close();
            }
            if (control != null) {
                control.close();
            }
            throw WireupClient.startupFailure(env, e);
        }
    }
}
