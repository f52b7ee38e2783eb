package io.cohort.broadcast.eqa;

import io.cohort.transport.fault.DatagramPort;
import io.cohort.transport.fault.FaultInjectingPort;
import io.cohort.transport.fault.FaultPlan;
import io.cohort.transport.fault.NioDatagramPort;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;

/**
 * N {@link EqaPeer}s in one JVM, each on its own real UDP socket on loopback, with a
 * {@link FaultInjectingPort} in front of each when a {@link FaultPlan} is given (seeded per rank,
 * so a failing run replays). Broadcasts go as a unicast to each member. Two ways to drive them:
 * {@link #pumpUntil} runs every peer's {@link EqaPeer#doWork} from the calling thread
 * (deterministic and cheap for hundreds of peers: tests, the memory report), or
 * {@link #startAgents} gives each peer its own {@link EqaAgentThread}.
 *
 * <p>Threads: open, pump and close from one thread; the peers' own calls as {@link EqaPeer} says.
 */
public final class LocalEqaGroup implements AutoCloseable {
    /** Socket buffers asked for: a window of 16 packets from each of 127 senders fits. */
    public static final int SOCKET_BUFFER_BYTES = 4 << 20;

    private final EqaPeer[] peers;
    private final List<EqaAgentThread> agents = new ArrayList<>();

    private LocalEqaGroup(EqaPeer[] peers) {
        this.peers = peers;
    }

    /** Opens {@code n} peers with {@code ctx} and group key {@code key}; {@code plan} may be null or NONE. */
    public static LocalEqaGroup open(int n, EqaContext ctx, FaultPlan plan, long key) throws IOException {
        return openWithPlans(n, ctx, rank -> plan, key);
    }

    /** As above with a plan per rank ({@code planOf} may return null or NONE for a clean port). */
    public static LocalEqaGroup openWithPlans(int n, EqaContext ctx, IntFunction<FaultPlan> planOf, long key)
            throws IOException {
        if (n < 2) {
            throw new IllegalArgumentException("an EQA group needs at least 2 peers, not " + n + ".");
        }
        DatagramPort[] ports = new DatagramPort[n];
        SocketAddress[] addresses = new SocketAddress[n];
        try {
            for (int r = 0; r < n; r++) {
                NioDatagramPort socket = NioDatagramPort.open(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), SOCKET_BUFFER_BYTES);
                addresses[r] = socket.localAddress();
                FaultPlan plan = planOf.apply(r);
                ports[r] = plan == null || plan == FaultPlan.NONE ? socket
                        : new FaultInjectingPort(socket, plan, plan.seedFor(r));
            }
        } catch (IOException | RuntimeException e) {
            for (DatagramPort p : ports) {
                if (p != null) {
                    p.close();
                }
            }
            throw e;
        }
        EqaPeer[] peers = new EqaPeer[n];
        for (int r = 0; r < n; r++) {
            peers[r] = new EqaPeer(ctx, key, r, ports[r], addresses, null);
        }
        return new LocalEqaGroup(peers);
    }

    public EqaPeer peer(int rank) {
        return peers[rank];
    }

    public EqaPeer[] peers() {
        return peers.clone();
    }

    public int size() {
        return peers.length;
    }

    /**
     * Drives every peer from this thread until {@code done} holds; yields when a whole pass did
     * nothing. Throws {@link IllegalStateException} with every peer's counters when
     * {@code timeoutMillis} passes first.
     */
    public void pumpUntil(BooleanSupplier done, long timeoutMillis) {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (!done.getAsBoolean()) {
            long now = System.nanoTime();
            if (now - deadline > 0) {
                throw new IllegalStateException("the EQA group did not finish within " + timeoutMillis
                        + " ms; counters: " + describe());
            }
            int work = 0;
            for (EqaPeer p : peers) {
                work += p.doWork(now);
            }
            if (work == 0) {
                Thread.yield();
            }
        }
    }

    /** Drives every peer until all their senders have every packet acknowledged. */
    public void pumpUntilQuiet(long timeoutMillis) {
        pumpUntil(() -> {
            for (EqaPeer p : peers) {
                if (!p.senderIdle()) {
                    return false;
                }
            }
            return true;
        }, timeoutMillis);
    }

    /** Starts one {@link EqaAgentThread} per peer; do not call {@link #pumpUntil} afterwards. */
    public void startAgents() throws IOException {
        for (EqaPeer p : peers) {
            agents.add(new EqaAgentThread(p).start());
        }
    }

    /** Every peer's counters, one line per rank. */
    public String describe() {
        StringBuilder b = new StringBuilder();
        for (EqaPeer p : peers) {
            b.append("\n  rank ").append(p.rank()).append(": ").append(p.counters());
        }
        return b.toString();
    }

    @Override
    public void close() {
        for (EqaAgentThread a : agents) {
            a.close();
        }
        for (EqaPeer p : peers) {
            p.close();
        }
    }
}
