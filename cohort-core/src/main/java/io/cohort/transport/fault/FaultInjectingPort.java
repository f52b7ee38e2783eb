package io.cohort.transport.fault;

import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.PriorityQueue;
import java.util.function.LongSupplier;

/**
 * A {@link DatagramPort} decorator that loses, duplicates, reorders and delays datagrams as a
 * {@link FaultPlan} says, with one seed per direction so that a failing run replays (the n-th
 * datagram through a direction always meets the n-th decision of {@link FaultDecisions}).
 *
 * <pre>
 *   inner.receive ─► decide ─┬─ drop ───────────────────────────────► (counted)
 *                            ├─ hold back (reorder) ─► after DEPTH later ones, or "hold" ─┐
 *                            ├─ delay / jitter ──────► when due ─────────────────────────┤
 *                            └─ pass (twice if duplicated) ──────────────────────────────┴─► receive()
 * </pre>
 *
 * The send side (when the plan says {@code side=send} or {@code both}) is the same pipeline in
 * front of {@code inner.send}; a datagram that is held or delayed there is sent by a later
 * {@link #send} or {@link #receive} call once due. Nothing that is delayed or held is ever lost:
 * {@link #nextDueNanos()} tells a blocking owner when to come back.
 *
 * <p>Threads: as {@link DatagramPort}. The receive pipeline belongs to the owner; the send pipeline
 * is guarded by its own lock. The clock is injectable so tests need no sleeps.
 */
public final class FaultInjectingPort extends ForwardingDatagramPort {
    private final FaultPlan plan;
    private final LongSupplier clock;
    private final FaultCounters faults = new FaultCounters();
    private final FaultDecisions receiveDecisions;
    private final FaultDecisions sendDecisions;
    private final Shaper receiveShaper;
    private final Shaper sendShaper;
    private final Object sendLock = new Object();

    /** A datagram the pipeline holds: immutable bytes (duplicates share them), where from / to, when due. */
    private static final class Held {
        final byte[] data;
        final int length;
        final SocketAddress address;
        long order;
        long notBefore;
        long holdDeadline;
        int waitFor;

        Held(byte[] data, int length, SocketAddress address) {
            this.data = data;
            this.length = length;
            this.address = address;
        }
    }

    /** One direction's hold-back and delay queues; {@code out} holds what is released, in order. */
    private final class Shaper {
        final ArrayDeque<Held> out = new ArrayDeque<>();
        final PriorityQueue<Held> delayed = new PriorityQueue<>((a, b) -> a.notBefore != b.notBefore
                ? Long.compare(a.notBefore - b.notBefore, 0) : Long.compare(a.order, b.order));
        final ArrayList<Held> held = new ArrayList<>();
        long order;

        boolean isEmpty() {
            return out.isEmpty() && delayed.isEmpty() && held.isEmpty();
        }

        void admit(Held h, boolean hold, long delay, long now) {
            h.order = order++;
            h.notBefore = now + delay;
            if (delay > 0) {
                faults.delayed.incrementAndGet();
            }
            if (hold) {
                faults.reordered.incrementAndGet();
                h.waitFor = plan.reorderDepth;
                h.holdDeadline = now + plan.holdNanos;
                held.add(h);
            } else if (delay > 0) {
                delayed.add(h);
            } else {
                release(h);
            }
        }

        /** Releases a datagram; it counts as one that passed every held one. */
        private void release(Held h) {
            out.add(h);
            for (int i = 0; i < held.size(); i++) {
                Held w = held.get(i);
                if (--w.waitFor <= 0) {
                    held.remove(i--);
                    unhold(w);
                }
            }
        }

        /** A held datagram's wait is over; it still respects its delay. */
        private void unhold(Held w) {
            if (w.notBefore - clock.getAsLong() > 0) {
                delayed.add(w);
            } else {
                out.add(w);
            }
        }

        void promote(long now) {
            for (int i = 0; i < held.size(); i++) {
                Held w = held.get(i);
                if (now - w.holdDeadline >= 0) {
                    held.remove(i--);
                    unhold(w);
                }
            }
            Held d;
            while ((d = delayed.peek()) != null && now - d.notBefore >= 0) {
                release(delayed.poll());
            }
        }

        long nextDue(long now) {
            if (!out.isEmpty()) {
                return now;
            }
            long due = Long.MAX_VALUE;
            Held d = delayed.peek();
            if (d != null) {
                due = d.notBefore;
            }
            for (Held w : held) {
                due = earlier(due, w.holdDeadline);
            }
            return due;
        }
    }

    /** Decorates {@code inner} with {@code plan}, seeded with {@code seed} (see {@link FaultPlan#seedFor}). */
    public FaultInjectingPort(DatagramPort inner, FaultPlan plan, long seed) {
        this(inner, plan, seed, System::nanoTime);
    }

    /** As above with a clock, for tests. */
    public FaultInjectingPort(DatagramPort inner, FaultPlan plan, long seed, LongSupplier nanoClock) {
        super(inner);
        this.plan = plan;
        this.clock = nanoClock;
        this.receiveDecisions = plan.side.receive() ? new FaultDecisions(plan, seed) : null;
        // The send direction draws from its own stream so that side=both does not correlate the two.
        this.sendDecisions = plan.side.send() ? new FaultDecisions(plan, ~seed * 0x9E3779B97F4A7C15L) : null;
        this.receiveShaper = new Shaper();
        this.sendShaper = new Shaper();
    }

    public FaultPlan plan() {
        return plan;
    }

    public FaultCounters faults() {
        return faults;
    }

    // ---- send ---------------------------------------------------------------------------------------

    @Override
    public boolean send(ByteBuffer datagram, SocketAddress target) {
        if (sendDecisions == null) {
            return inner.send(datagram, target);
        }
        synchronized (sendLock) {
            long now = clock.getAsLong();
            flushSendsLocked(now);
            int d = decide(sendDecisions);
            if ((d & FaultDecisions.DROP) != 0) {
                datagram.position(datagram.limit()); // the wire took it and lost it
                return true;
            }
            long delay = sendDecisions.delayNanos();
            if (sendShaper.isEmpty() && delay == 0 && (d & FaultDecisions.HOLD) == 0) {
                ByteBuffer copy = (d & FaultDecisions.DUPLICATE) != 0 ? datagram.duplicate() : null;
                boolean sent = inner.send(datagram, target);
                if (sent && copy != null) {
                    inner.send(copy, target);
                }
                return sent;
            }
            Held h = copyOf(datagram, target);
            datagram.position(datagram.limit());
            sendShaper.admit(h, (d & FaultDecisions.HOLD) != 0, delay, now);
            if ((d & FaultDecisions.DUPLICATE) != 0) {
                sendShaper.admit(new Held(h.data, h.length, target), false, delay, now);
            }
            flushSendsLocked(now);
            return true;
        }
    }

    private void flushSends(long now) {
        if (sendDecisions == null) {
            return;
        }
        synchronized (sendLock) {
            flushSendsLocked(now);
        }
    }

    private void flushSendsLocked(long now) {
        sendShaper.promote(now);
        Held h;
        while ((h = sendShaper.out.poll()) != null) {
            // A refusal now (socket buffer full) is a loss on the wire; the protocol recovers it.
            inner.send(ByteBuffer.wrap(h.data, 0, h.length), h.address);
        }
    }

    // ---- receive ------------------------------------------------------------------------------------

    @Override
    public SocketAddress receive(ByteBuffer into) {
        long now = clock.getAsLong();
        flushSends(now);
        if (receiveDecisions == null) {
            return inner.receive(into);
        }
        receiveShaper.promote(now);
        for (;;) {
            Held ready = receiveShaper.out.poll();
            if (ready != null) {
                int n = Math.min(ready.length, into.remaining());
                into.put(ready.data, 0, n);
                return ready.address;
            }
            int start = into.position();
            SocketAddress source = inner.receive(into);
            if (source == null) {
                return null;
            }
            int d = decide(receiveDecisions);
            if ((d & FaultDecisions.DROP) != 0) {
                into.position(start);
                continue;
            }
            long delay = receiveDecisions.delayNanos();
            if (receiveShaper.isEmpty() && d == FaultDecisions.PASS && delay == 0) {
                return source; // nothing held, nothing to do: the datagram is already in place
            }
            int length = into.position() - start;
            byte[] data = new byte[length];
            into.get(start, data, 0, length);
            into.position(start);
            Held h = new Held(data, length, source);
            receiveShaper.admit(h, (d & FaultDecisions.HOLD) != 0, delay, now);
            if ((d & FaultDecisions.DUPLICATE) != 0) {
                receiveShaper.admit(new Held(data, length, source), false, delay, now);
            }
        }
    }

    private int decide(FaultDecisions decisions) {
        int d = decisions.next();
        faults.seen.incrementAndGet();
        if ((d & FaultDecisions.DROP_LOSS) != 0) {
            faults.dropped.incrementAndGet();
        } else if ((d & FaultDecisions.DROP_BURST) != 0) {
            faults.droppedInBursts.incrementAndGet();
            if (decisions.burstStarted()) {
                faults.bursts.incrementAndGet();
            }
        } else if ((d & FaultDecisions.DUPLICATE) != 0) {
            faults.duplicated.incrementAndGet();
        }
        return d;
    }

    private static Held copyOf(ByteBuffer datagram, SocketAddress target) {
        int length = datagram.remaining();
        byte[] data = new byte[length];
        datagram.get(datagram.position(), data, 0, length);
        return new Held(data, length, target);
    }

    // ---- the rest -----------------------------------------------------------------------------------

    @Override
    public long nextDueNanos() {
        long now = clock.getAsLong();
        long due = earlier(inner.nextDueNanos(), receiveShaper.nextDue(now));
        if (sendDecisions != null) {
            synchronized (sendLock) {
                due = earlier(due, sendShaper.nextDue(now));
            }
        }
        return due;
    }

    /** The earlier of two nanoTime instants, where {@link Long#MAX_VALUE} means "never". */
    static long earlier(long a, long b) {
        if (a == Long.MAX_VALUE) {
            return b;
        }
        if (b == Long.MAX_VALUE) {
            return a;
        }
        return a - b < 0 ? a : b;
    }
}
