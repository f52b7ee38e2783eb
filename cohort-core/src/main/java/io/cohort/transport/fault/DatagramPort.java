package io.cohort.transport.fault;

import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectableChannel;

/**
 * A datagram endpoint that a datagram protocol sends through and receives from: a non-blocking
 * socket ({@link NioDatagramPort}), or a decorator in front of one ({@link FaultInjectingPort}).
 * Protocols (the {@code udp} transport, later the PCODE broadcast domain) talk to this interface
 * only, so faults can be stacked under any of them the way JGroups stacks DISCARD or DELAY.
 *
 * <pre>
 *   protocol ── send(datagram, to) ──► [fault decorator] ──► socket ──► wire
 *   protocol ◄── receive(into) ─────── [fault decorator] ◄── socket ◄── wire
 *        │
 *        └─ blocks in a Selector on channel() for OP_READ, but never past nextDueNanos()
 * </pre>
 *
 * <p>Contract:
 * <ul>
 *   <li>Nothing blocks. {@link #send} returns whether the datagram was taken (by the kernel, or
 *       by a decorator that pretends to be the wire: a datagram it "loses" counts as taken);
 *       {@code false} means "not now" (socket buffer full, or an error, which is counted) and the
 *       protocol tries again later. {@link #receive} returns {@code null} when nothing is there.</li>
 *   <li>Hot paths never throw: I/O errors are counted in {@link #counters()} and reported as
 *       {@code false} / {@code null}. After {@link #close()} both calls fail quietly the same way.</li>
 *   <li>Threads: {@link #send} may be called by any thread, concurrently. {@link #receive},
 *       {@link #nextDueNanos} and {@link #channel} belong to one owner thread at a time (the
 *       progress owner), which also calls {@link #receive} regularly: decorators do their deferred
 *       work (delayed sends falling due) there.</li>
 *   <li>Unicast today; multicast stays possible: the targets of {@link #send} may be group
 *       addresses, and the owner of an {@link NioDatagramPort} may join groups on its
 *       {@link java.nio.channels.DatagramChannel} (a {@link java.nio.channels.MulticastChannel}).</li>
 * </ul>
 */
public interface DatagramPort extends AutoCloseable {
    /** Largest UDP payload over IPv4 (65 535 - 20 - 8); a receive buffer this large never truncates. */
    int MAX_DATAGRAM_BYTES = 65_507;

    /**
     * Sends {@code datagram} (position to limit) to {@code target}. On {@code true} the position is
     * at the limit; on {@code false} it is unchanged.
     */
    boolean send(ByteBuffer datagram, SocketAddress target);

    /**
     * Copies the next datagram into {@code into} at its position (advancing it) and returns its
     * source, or returns {@code null} when none is waiting. A datagram longer than
     * {@code into.remaining()} is truncated, as the kernel does; give a buffer of
     * {@link #MAX_DATAGRAM_BYTES} to see every datagram whole.
     */
    SocketAddress receive(ByteBuffer into);

    /**
     * The channel whose OP_READ readiness tells a blocked owner that {@link #receive} has something.
     * Register it with a {@link java.nio.channels.Selector}; do not read from it directly.
     */
    SelectableChannel channel();

    /**
     * The {@link System#nanoTime()} instant by which the owner must call {@link #receive} again
     * although the channel may not be readable: a held or delayed datagram falls due then.
     * {@link Long#MAX_VALUE} when nothing is held; "now" or earlier when something is ready.
     */
    default long nextDueNanos() {
        return Long.MAX_VALUE;
    }

    /** The address this port is bound to (with the ephemeral port filled in). */
    SocketAddress localAddress();

    /** Counters of this port (for a decorator: of the port it decorates). */
    PortCounters counters();

    /** Closes the socket; idempotent, never throws. */
    @Override
    void close();
}
