package io.cohort.transport.shm;

import io.cohort.CohortException;
import io.cohort.PeerFailedException;
import io.cohort.concurrent.CasLock;
import io.cohort.transport.SendCompletion;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;

import static io.cohort.transport.shm.ShmRecordDescriptor.TYPE_BYE;
import static io.cohort.transport.shm.ShmRecordDescriptor.TYPE_FIRST;
import static io.cohort.transport.shm.ShmRecordDescriptor.TYPE_MESSAGE;
import static io.cohort.transport.shm.ShmRecordDescriptor.TYPE_MORE;

/**
 * The producer side of one ring: turns messages into records. Any sending thread may call it;
 * every method holds the sender's {@link CasLock}, so one message's fragments are never
 * interleaved with another's.
 *
 * <p>A message that fits one record goes straight from the caller's buffer into the ring and its
 * send completes at once: one copy, no allocation. A longer one is cut into fragments of
 * {@link #FRAGMENT_BYTES} so the receiver copies one fragment out while the next is copied in; its
 * send completes when the last fragment is in the ring. When the ring is full, frames wait in a
 * queue (small ones as private copies, so their senders are free at once) and the progress owner
 * pushes them on with {@link #flush}.
 */
final class ShmSender {
    /** Payload per fragment of a long message: small enough to pipeline, big enough to amortise a header. */
    static final int FRAGMENT_BYTES = 64 * 1024 - ShmRecordDescriptor.HEADER_LENGTH;
    /** Queued messages up to this size are copied so that their send completes at once, as with TCP. */
    static final int COPY_WHEN_QUEUED_MAX = 64 * 1024;
    /**
     * Bound on the bytes held in such copies: beyond it a send completes only when its bytes are in
     * the ring, so a sender that outruns its receiver waits (back-pressure) instead of growing the heap.
     */
    static final long COPIED_BYTES_MAX = 4L * 1024 * 1024;

    private final int peer;
    private final ShmRing ring;
    private final int fragmentBytes;
    private final CasLock lock = new CasLock();
    private final ArrayDeque<Outgoing> queue = new ArrayDeque<>();
    private long copiedBytes;
    private boolean byeQueued;
    private String endReason;
    /** Written under the lock; read without it by the progress owner's poll and by isEnded. */
    private volatile boolean ended;
    private volatile boolean pending;

    /** A message on its way into the ring. */
    private static final class Outgoing {
        final short type;
        final int context;
        final int tag;
        final ByteBuffer payload;
        final int length;
        /** A private copy, counted in copiedBytes; its sender was told at once. */
        final boolean copied;
        int sent = -1; // -1 before the first record
        SendCompletion completion;

        Outgoing(short type, int context, int tag, ByteBuffer payload, SendCompletion completion) {
            this.copied = type == TYPE_MESSAGE && completion == null;
            this.type = type;
            this.context = context;
            this.tag = tag;
            this.payload = payload;
            this.length = payload.remaining();
            this.completion = completion;
        }
    }

    /** The receiver's doorbell and ours to ring it with; null when either end has none. */
    private final ShmDoorbell bell;
    private final InetSocketAddress bellTarget;

    ShmSender(int peer, ShmRing ring, ShmDoorbell bell) {
        this.peer = peer;
        this.ring = ring;
        boolean rings = bell != null && ring.doorbellPort() != 0;
        this.bell = rings ? bell : null;
        this.bellTarget = rings ? ShmDoorbell.at(ring.doorbellPort()) : null;
        this.fragmentBytes = Math.min(FRAGMENT_BYTES, ring.maxPayload());
    }

    /** Sends {@code length} bytes of {@code payload} from index {@code offset} (its position and limit are not used). */
    void send(int context, int tag, ByteBuffer payload, int offset, int length, SendCompletion completion) {
        lock.lock();
        try {
            sendLocked(context, tag, payload, offset, length, completion);
        } finally {
            lock.unlock();
        }
        ringIfAsleep();
    }

    /** After publishing: wakes the receiver if it went to sleep waiting for records. */
    private void ringIfAsleep() {
        if (bell != null && ring.receiverWaiting()) {
            ring(); // out of line: the send path's compiled code stays as small as it was
        }
    }

    private void ring() {
        if (ring.takeDoorbell()) {
            bell.ring(bellTarget);
        }
    }

    /** Progress owner, about to sleep: asks the receiver to ring us when it frees room, if we wait for it. */
    void armRoomBell() {
        if (pending) {
            ring.armRoomBell();
        }
    }

    void disarmRoomBell() {
        ring.disarmRoomBell();
    }

    private void sendLocked(int context, int tag, ByteBuffer payload, int offset, int length,
                            SendCompletion completion) {
        if (ended || byeQueued) {
            completion.failed(endReason != null ? new PeerFailedException(peer, endReason)
                    : new CohortException("cannot send to rank " + peer + ": this peer is closing its communicator"));
            return;
        }
        if (queue.isEmpty()) {
            if (length <= fragmentBytes) {
                if (ring.offer(TYPE_MESSAGE, context, tag, length, payload, offset, length)) {
                    completion.sent();
                    return;
                }
            } else {
                // Straight from the caller's buffer, as far as the ring takes it; the rest follows from flush.
                Outgoing o = new Outgoing(TYPE_MESSAGE, context, tag, payload.slice(offset, length), completion);
                if (push(o)) {
                    completion.sent();
                } else {
                    queue.add(o);
                    pending = true;
                }
                return;
            }
        }
        if (length <= COPY_WHEN_QUEUED_MAX && copiedBytes + length <= COPIED_BYTES_MAX) {
            ByteBuffer copy = ByteBuffer.allocate(length);
            copy.put(0, payload, offset, length);
            copiedBytes += length;
            queue.add(new Outgoing(TYPE_MESSAGE, context, tag, copy, null));
            completion.sent();
        } else {
            queue.add(new Outgoing(TYPE_MESSAGE, context, tag, payload.slice(offset, length), completion));
        }
        flushLocked();
    }

    /** Queues the goodbye record: nothing may be sent after it. */
    void sendBye() {
        lock.lock();
        try {
            if (ended || byeQueued) {
                return;
            }
            byeQueued = true;
            queue.add(new Outgoing(TYPE_BYE, 0, 0, ByteBuffer.allocate(0), null));
            flushLocked();
        } finally {
            lock.unlock();
        }
        ringIfAsleep();
    }

    /** Whether queued records wait for room (a cheap volatile read for the progress owner). */
    boolean isPending() {
        return pending;
    }

    /** Pushes queued records on as far as the ring takes them; true if anything went in. */
    boolean flush() {
        long before;
        lock.lock();
        try {
            before = ring.producedBytes();
            flushLocked();
            before -= ring.producedBytes();
        } finally {
            lock.unlock();
        }
        ringIfAsleep();
        return before != 0;
    }

    boolean hasPending() {
        lock.lock();
        try {
            return !ended && !queue.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    boolean isEnded() {
        return ended;
    }

    private void flushLocked() {
        Outgoing o;
        while (!ended && (o = queue.peek()) != null) {
            if (!push(o)) {
                pending = true;
                return;
            }
            queue.poll();
            if (o.copied) {
                copiedBytes -= o.length;
            }
            if (o.completion != null) {
                SendCompletion c = o.completion;
                o.completion = null;
                c.sent();
            }
        }
        pending = false;
    }

    /** Writes as much of {@code o} as fits; true when all of it is in the ring. */
    private boolean push(Outgoing o) {
        ByteBuffer p = o.payload;
        int base = p.position();
        if (o.sent < 0) {
            if (o.type == TYPE_BYE) {
                if (!ring.offer(TYPE_BYE, 0, 0, 0, p, base, 0)) {
                    return false;
                }
                o.sent = 0;
                return true;
            }
            int n = Math.min(o.length, fragmentBytes);
            short type = n == o.length ? TYPE_MESSAGE : TYPE_FIRST;
            if (!ring.offer(type, o.context, o.tag, o.length, p, base, n)) {
                return false;
            }
            o.sent = n;
        }
        while (o.sent < o.length) {
            int n = Math.min(o.length - o.sent, fragmentBytes);
            if (!ring.offer(TYPE_MORE, 0, 0, 0, p, base + o.sent, n)) {
                return false;
            }
            o.sent += n;
        }
        return true;
    }

    /**
     * Ends the sender. With a {@code reason} (the peer is lost) later sends fail with it and so do
     * queued sends that had not finished; with null (a normal end after goodbyes) nothing is
     * pending. Returns false if it had ended before.
     */
    boolean end(String reason) {
        SendCompletion[] unfinished;
        lock.lock();
        try {
            if (ended) {
                return false;
            }
            ended = true;
            endReason = reason;
            pending = false;
            java.util.List<SendCompletion> waiting = new java.util.ArrayList<>();
            for (Outgoing o : queue) {
                if (o.completion != null) {
                    waiting.add(o.completion);
                }
            }
            unfinished = waiting.toArray(new SendCompletion[0]);
            queue.clear();
        } finally {
            lock.unlock();
        }
        if (reason != null) {
            PeerFailedException cause = new PeerFailedException(peer, reason);
            for (SendCompletion c : unfinished) {
                c.failed(cause);
            }
        }
        return true;
    }
}
