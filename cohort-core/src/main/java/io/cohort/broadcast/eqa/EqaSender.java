package io.cohort.broadcast.eqa;

import io.cohort.profile.StallSpan;
import io.cohort.profile.Profiling;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;

import static io.cohort.broadcast.eqa.EqaCounters.Counter.*;
import static io.cohort.broadcast.eqa.EqaHeaderDescriptor.*;

/**
 * One peer's broadcasting side (the paper's send DP with its linked lightweight DPs): cuts queued
 * messages into packets, broadcasts each once into the {@link RetransmissionBuffer}, and keeps every
 * receiver reliable by go-back-N from that receiver's cursor, point to point.
 *
 * <pre>
 *   SIMPLE:     packets ─► broadcast while the window (lowest cursor + 16) has room
 *   PUSH_PULL:  BTP1 packet, BTP2 packet (PUSH_END, names a designated receiver) ─► wait
 *               designated receiver ── PULL ──► rest of the message as SIMPLE
 *   recovery:   GAP ACK from r ─► resend cursor(r).. to r only (at most once per gap hold)
 *               r silent for its retransmit timeout with packets outstanding ─► the same
 *               no PULL within the timeout ─► resend the PUSH_END packet to the designated receiver
 * </pre>
 *
 * Each receiver's retransmit timeout follows its measured round trip ({@link RetransmitTimers}).
 *
 * A push that some receivers lost does not hold the pull back: they recover by go-back-N like any
 * other packet, and the window stops the sender until they have (the paper's "suspended").
 *
 * <p>Threads: the peer's owner thread only.
 */
final class EqaSender {
    /** The protocol's name in the profiler's events. */
    static final String TRANSPORT_NAME = "eqa";
    /** A message waiting to be, or being, sent. */
    private static final class Outgoing {
        final byte[] data;
        final BroadcastMode mode;
        final long message;

        Outgoing(byte[] data, BroadcastMode mode, long message) {
            this.data = data;
            this.mode = mode;
            this.message = message;
        }
    }

    private enum Phase { PUSH, AWAIT_PULL, STREAM }

    private final EqaContext ctx;
    private final int self;
    private final int size;
    private final long key;
    private final int[] receiverRanks;
    private final RetransmissionBuffer buffer;
    private final FrameOutput out;
    private final EqaCounters counters;
    private final RetransmitTimers timers;
    private final long gapHoldNanos;
    private final ByteBuffer frame;
    private final ByteBuffer resend;

    private final ArrayDeque<Outgoing> queue = new ArrayDeque<>();
    private long nextMessage;
    private Outgoing current;
    private Phase phase;
    private int offset;
    private int pushPackets;
    private int designated;
    private long pushEndSeq = -1;
    private long pullWaitSince;
    private long lastNudgeAt;
    private boolean stalled;
    /** The profiler's event of the current window stall, if a recording wants it. */
    private StallSpan stall;

    /**
     * The receiver that holds the window back (lowest cursor with packets outstanding), or -1: its
     * rank, for the stacks of a caller waiting in multicast. Written by the owner thread when it
     * changes, read by any thread: volatile so a capture sees the current one, an int so it is whole.
     */
    private volatile int laggard = -1;
    private int laggardWritten = -1;

    private final long[] lastProgressAt;
    private final long[] lastGapFrom;
    private final long[] lastGapAt;

    EqaSender(EqaContext ctx, long key, int self, int size, int[] receiverRanks, RetransmissionBuffer buffer,
              FrameOutput out, EqaCounters counters) {
        this.ctx = ctx;
        this.key = key;
        this.self = self;
        this.size = size;
        this.receiverRanks = receiverRanks;
        this.buffer = buffer;
        this.out = out;
        this.counters = counters;
        this.timers = new RetransmitTimers(receiverRanks.length, buffer.window(), ctx.retransmitTimeoutMicros() * 1000);
        this.gapHoldNanos = ctx.gapHoldMicros() * 1000;
        int max = DataFrameDescriptor.PAYLOAD_OFFSET + ctx.packetPayloadBytes();
        this.frame = ByteBuffer.allocate(max).order(ByteOrder.LITTLE_ENDIAN);
        this.resend = ByteBuffer.allocate(max).order(ByteOrder.LITTLE_ENDIAN);
        this.lastProgressAt = new long[receiverRanks.length];
        this.lastGapFrom = new long[receiverRanks.length];
        this.lastGapAt = new long[receiverRanks.length];
        java.util.Arrays.fill(lastGapFrom, -1);
    }

    /** Queues a message; its number in this sender's stream is returned. */
    long enqueue(byte[] data, BroadcastMode mode) {
        long m = nextMessage++;
        queue.add(new Outgoing(data, mode.resolve(data.length, ctx.btp()), m));
        return m;
    }

    /** True when nothing is queued and every receiver has acknowledged everything. */
    boolean idle() {
        return current == null && queue.isEmpty() && buffer.lowestCursor() == buffer.nextSequence();
    }

    RetransmissionBuffer buffer() {
        return buffer;
    }

    /** Sends what the window allows and runs the timers; returns the frames sent. */
    int doWork(long now) {
        int work = 0;
        while (true) {
            if (current == null && !startNext()) {
                break;
            }
            if (phase == Phase.AWAIT_PULL) {
                break;
            }
            if (!buffer.hasRoom()) {
                if (!stalled) {
                    stalled = true;
                    counters.increment(WINDOW_STALLS);
                    stall = Profiling.startStall(TRANSPORT_NAME, -1);
                }
                break;
            }
            stalled = false;
            if (stall != null) {
                stall.finish();
                stall = null;
            }
            sendNextPacket(now);
            work++;
        }
        return work + runTimers(now);
    }

    private boolean startNext() {
        current = queue.poll();
        if (current == null) {
            return false;
        }
        offset = 0;
        pushPackets = 0;
        boolean push = current.mode == BroadcastMode.PUSH_PULL && current.data.length > ctx.btp();
        phase = push ? Phase.PUSH : Phase.STREAM;
        designated = push ? receiverRanks[(int) (current.message % receiverRanks.length)] : -1;
        return true;
    }

    private void sendNextPacket(long now) {
        byte[] data = current.data;
        int flags = 0;
        int length;
        int designatedField = -1;
        if (phase == Phase.PUSH) {
            flags = FLAG_PUSH;
            designatedField = designated;
            length = Math.min(pushPackets == 0 ? ctx.btp1() : ctx.btp2(), data.length - offset);
            pushPackets++;
            if (pushPackets == 2 || ctx.btp2() == 0) {
                flags |= FLAG_PUSH_END;
            }
        } else {
            length = Math.min(ctx.packetPayloadBytes(), data.length - offset);
        }
        long seq = buffer.nextSequence();
        frame.clear();
        EqaHeaderDescriptor.write(frame, TYPE_DATA, flags, key, self, size);
        DataFrameDescriptor.write(frame, seq, current.message, data.length, offset, length, designatedField);
        frame.put(DataFrameDescriptor.PAYLOAD_OFFSET, data, offset, length);
        int frameLength = DataFrameDescriptor.PAYLOAD_OFFSET + length;
        frame.limit(frameLength);
        buffer.store(frame);
        timers.broadcast(seq, now);
        for (int r = 0; r < receiverRanks.length; r++) {
            if (buffer.cursor(r) == seq) {
                lastProgressAt[r] = now; // r was up to date: its timeout starts with this packet
            }
        }
        int refused = out.sendToAll(frame, frameLength);
        for (int i = 0; i < refused; i++) {
            counters.increment(SENDS_REFUSED);
        }
        counters.increment(PACKETS_BROADCAST);
        offset += length;
        if ((flags & FLAG_PUSH_END) != 0) {
            phase = Phase.AWAIT_PULL;
            pushEndSeq = seq;
            pullWaitSince = now;
            lastNudgeAt = now;
            counters.increment(PULL_WAITS);
        } else if (offset == data.length) {
            current = null;
            counters.increment(MESSAGES_SENT);
        }
    }

    private int runTimers(long now) {
        int work = 0;
        long next = buffer.nextSequence();
        int behind = -1;
        if (buffer.lowestCursor() < next) {
            long lowest = next;
            for (int r = 0; r < receiverRanks.length; r++) {
                long c = buffer.cursor(r);
                if (c < lowest) {
                    lowest = c;
                    behind = receiverRanks[r];
                }
                if (phase == Phase.AWAIT_PULL && current != null && receiverRanks[r] != designated) {
                    continue; // silent by design until the pull: a lost push shows as a gap once the rest flows
                }
                if (c < next && now - lastProgressAt[r] >= timers.timeout(r)) {
                    counters.increment(TIMEOUT_RESENDS);
                    timers.backOff(r);
                    work += resendFrom(r, c, now);
                }
            }
        }
        if (behind != laggardWritten) {
            laggardWritten = behind;
            laggard = behind;
        }
        int slot = phase == Phase.AWAIT_PULL && current != null ? slotOf(designated) : -1;
        if (slot >= 0 && now - lastNudgeAt >= timers.timeout(slot)) {
            lastNudgeAt = now;
            resend.clear();
            int length = buffer.copy(slot, pushEndSeq, resend);
            if (length < 0) {
                pullGranted(now); // the designated receiver acknowledged past the push: it has it all
            } else {
                EqaHeaderDescriptor.flags(resend, EqaHeaderDescriptor.flags(resend) | FLAG_RESEND);
                out.sendTo(designated, resend, length);
                counters.increment(PULL_NUDGES);
                Profiling.retransmission(TRANSPORT_NAME, designated, pushEndSeq, length);
                work++;
            }
        }
        return work;
    }

    /** Go-back-N to one receiver: every packet from {@code from} on, point to point, the last asking for an ACK. */
    private int resendFrom(int slot, long from, long now) {
        long next = buffer.nextSequence();
        int sent = 0;
        for (long s = from; s < next; s++) {
            resend.clear();
            int length = buffer.copy(slot, s, resend);
            if (length < 0) {
                continue;
            }
            int flags = EqaHeaderDescriptor.flags(resend) | FLAG_RESEND;
            if (s == next - 1) {
                flags |= FLAG_ACK_REQUEST;
            }
            EqaHeaderDescriptor.flags(resend, flags);
            if (!out.sendTo(receiverRanks[slot], resend, length)) {
                counters.increment(SENDS_REFUSED);
            }
            counters.increment(PACKETS_RESENT);
            Profiling.retransmission(TRANSPORT_NAME, receiverRanks[slot], s, length);
            sent++;
        }
        lastProgressAt[slot] = now; // the next timeout counts from this resend
        timers.resent(slot, next); // Karn: an ACK of these may answer either copy, so it is no sample
        return sent;
    }

    /** A validated ACK (or the acknowledgement in a PULL) from {@code rank}. */
    void onAck(int rank, long next, boolean gap, long now) {
        int slot = slotOf(rank);
        if (slot < 0) {
            return;
        }
        counters.increment(ACKS_RECEIVED);
        long before = buffer.cursor(slot);
        if (buffer.acknowledge(slot, next) >= 0) {
            lastProgressAt[slot] = now;
            if (next > before) {
                // next - 1 was at or past the cursor, so still in the window and its send time with it
                timers.acknowledged(slot, next, now);
            }
        }
        if (phase == Phase.AWAIT_PULL && rank == designated && next > pushEndSeq) {
            pullGranted(now);
        }
        if (gap && next == buffer.cursor(slot) && next < buffer.nextSequence()
                && (next != lastGapFrom[slot] || now - lastGapAt[slot] >= gapHoldNanos)) {
            lastGapFrom[slot] = next;
            lastGapAt[slot] = now;
            counters.increment(GAP_RESENDS);
            resendFrom(slot, next, now);
        }
    }

    /** A validated PULL from {@code rank} for {@code message}. */
    void onPull(int rank, long message, long next, long now) {
        counters.increment(PULLS_RECEIVED);
        onAck(rank, next, false, now);
        if (phase == Phase.AWAIT_PULL && current != null && current.message == message) {
            pullGranted(now);
        }
    }

    private void pullGranted(long now) {
        phase = Phase.STREAM;
        for (int r = 0; r < receiverRanks.length; r++) {
            lastProgressAt[r] = now; // the silent receivers' timeouts count from the resumption
        }
    }

    /** The rank whose acknowledgements hold the window back now, or -1 (any thread). */
    int laggard() {
        return laggard;
    }

    private int slotOf(int rank) {
        // Receivers are every rank but self, in order: rank r sits at r or r - 1.
        if (rank < 0 || rank >= size || rank == self) {
            return -1;
        }
        return rank < self ? rank : rank - 1;
    }
}
