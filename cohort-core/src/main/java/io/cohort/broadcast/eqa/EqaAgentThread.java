package io.cohort.broadcast.eqa;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;
import io.cohort.transport.fault.DatagramPort;

/**
 * Runs one {@link EqaPeer} on its own daemon thread, {@code cohort-eqa-<rank>}: it calls
 * {@link EqaPeer#doWork} while there is work, and otherwise blocks in a {@link Selector} on the
 * peer's socket for at most {@link #IDLE_MILLIS} (timers and held fault-injected datagrams need it
 * back that often); {@link EqaPeer#broadcast} wakes it. Polite on a 2-core machine shared by many
 * peers: an idle peer costs no CPU. In a job the agent follows the peer's idle strategy
 * ({@code --idle}): {@link Idle#SPIN} for {@code busy-spin}, {@link Idle#YIELD} for {@code yield},
 * {@link Idle#BLOCK} (the selector, as above) for {@code backoff} and {@code park}.
 *
 * <p>Threads: {@link #start} and {@link #close} from any thread; the loop is the only caller of
 * the peer's {@link EqaPeer#doWork} while it runs.
 */
public final class EqaAgentThread implements AutoCloseable {
    /** Longest block of an idle agent: the finest timer it must honour. */
    public static final long IDLE_MILLIS = 1;
    /** Longest block of an agent whose sender has nothing outstanding: only a datagram or a broadcast needs it. */
    public static final long QUIET_MILLIS = 100;

    /** What the agent does when a pass found no work. */
    public enum Idle {
        /** Polls again at once ({@code --idle busy-spin}: the peer gave the job its cores). */
        SPIN,
        /** Yields the processor, then polls ({@code --idle yield}). */
        YIELD,
        /** Blocks in the selector until a datagram, a wake-up or the next timer (the default). */
        BLOCK;

        /** The agent's idling for a peer idle strategy's name ({@code io.cohort.idle.IdleStrategies}). */
        public static Idle forStrategy(String name) {
            return switch (name) {
                case "busy-spin" -> SPIN;
                case "yield" -> YIELD;
                default -> BLOCK;
            };
        }
    }

    private final EqaPeer peer;
    private final Thread thread;
    private final Selector selector;
    private final Idle idle;
    private final DatagramPort[] ports;
    private volatile boolean running = true;
    private volatile Throwable failure;

    /** Prepares (does not start) the agent of {@code peer}. */
    public EqaAgentThread(EqaPeer peer) throws IOException {
        this(peer, Idle.BLOCK);
    }

    /** Prepares (does not start) the agent of {@code peer}, idling as {@code idle} says. */
    public EqaAgentThread(EqaPeer peer, Idle idle) throws IOException {
        this.peer = peer;
        this.idle = idle;
        this.selector = Selector.open();
        this.ports = peer.receivePorts();
        try {
            for (DatagramPort p : ports) {
                if (p.channel() != null) {
                    p.channel().register(selector, SelectionKey.OP_READ);
                }
            }
        } catch (IOException | RuntimeException e) {
            // Nobody else holds the selector yet: close it here, or its descriptors leak.
            try {
                selector.close();
            } catch (IOException x) {
                e.addSuppressed(x);
            }
            throw e;
        }
        this.thread = new Thread(this::run, "cohort-eqa-" + peer.rank());
        thread.setDaemon(true);
        peer.wakeup(selector::wakeup);
    }

    /** Starts the thread; returns this. */
    public EqaAgentThread start() {
        thread.start();
        return this;
    }

    private void run() {
        try {
            while (running) {
                if (peer.doWork(System.nanoTime()) == 0) {
                    if (idle == Idle.SPIN) {
                        Thread.onSpinWait();
                        continue;
                    }
                    if (idle == Idle.YIELD) {
                        Thread.yield();
                        continue;
                    }
                    long due = Long.MAX_VALUE;
                    for (DatagramPort p : ports) {
                        due = Math.min(due, p.nextDueNanos());
                    }
                    long dueIn = due - System.nanoTime();
                    // Timers run only while the sender has packets outstanding (a receiver acts on
                    // arrivals alone), so a peer with nothing in flight blocks until a datagram or a
                    // broadcast wakes it. busy() is volatile and broadcast() sets it before it wakes
                    // the selector, and a wake-up before select() makes select() return at once: no
                    // broadcast is left waiting for the long block.
                    long cap = peer.busy() ? IDLE_MILLIS : QUIET_MILLIS;
                    long millis = Math.max(0, Math.min(cap, TimeUnit.NANOSECONDS.toMillis(dueIn)));
                    if (millis == 0) {
                        selector.selectNow();
                    } else {
                        selector.select(millis);
                    }
                    selector.selectedKeys().clear();
                }
            }
        } catch (Throwable t) {
            failure = t;
        }
    }

    /** What ended the loop abnormally, or null. */
    public Throwable failure() {
        return failure;
    }

    /** Stops and joins the thread (the peer stays open). */
    @Override
    public void close() {
        running = false;
        selector.wakeup();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // nothing registered needs flushing
        }
    }
}
