package io.cohort.wireup;

import io.cohort.engine.EngineCommunicator;
import io.cohort.engine.ProgressAgent;
import io.cohort.engine.ProgressEngine;
import io.cohort.idle.IdleStrategies;
import io.cohort.transport.tcp.TcpTransport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Assembles a launched peer: control connection, engine, TCP transport, progress agent.
 *
 * <pre>
 *  connect to controller ─► bind TCP on the control connection's local address, port 0
 *        ─► PEER_HELLO(endpoints) ─► PEER_TABLE ─► connect the mesh ─► world communicator
 * </pre>
 */
public final class PeerRuntime {
    private PeerRuntime() {
    }

    public static EngineCommunicator start(JobEnvironment env) {
        WireupClient control = null;
        TcpTransport tcp = null;
        try {
            long timeout = TimeUnit.SECONDS.toNanos(env.wireupTimeoutSeconds());
            control = WireupClient.connect(env);
            InetAddress advertised = control.localAddress();
            ProgressEngine engine = new ProgressEngine(env.rank(), env.size(), IdleStrategies.configured());
            Map<String, String> endpoints = Map.of();
            if (env.size() > 1) {
                tcp = new TcpTransport(env.rank(), env.size(), env.transportKey(), new InetSocketAddress(advertised, 0));
                endpoints = Map.of("tcp", advertised.getHostAddress() + ":" + tcp.localAddress().getPort());
            }
            PeerRecord self = new PeerRecord(env.rank(), ProcessHandle.current().pid(), env.host(), endpoints);
            PeerRecord[] table = control.exchange(self, timeout);
            if (tcp != null) {
                InetSocketAddress[] addresses = new InetSocketAddress[env.size()];
                String[] names = new String[env.size()];
                for (PeerRecord p : table) {
                    names[p.rank()] = p.describe();
                    String a = p.endpoints().get("tcp");
                    if (a == null) {
                        throw new IOException(p.describe() + " published no TCP endpoint");
                    }
                    addresses[p.rank()] = JobEnvironment.parseAddress(a);
                }
                tcp.connect(addresses, names, engine, timeout);
                engine.attach(tcp, tcp.peers());
            }
            WireupClient c = control;
            engine.onPeerFailure(c::reportFailure);
            ProgressAgent agent = new ProgressAgent(engine, c::pollControl, ProgressAgent.PERIOD_NANOS_DEFAULT);
            agent.start();
            return new EngineCommunicator(engine, 0, () -> {
                engine.shutdown();
                c.finalized();
                agent.stop();
                c.close();
            });
        } catch (IOException | RuntimeException e) {
            if (tcp != null) {
                tcp.close();
            }
            if (control != null) {
                control.close();
            }
            throw WireupClient.startupFailure(env, e);
        }
    }
}
