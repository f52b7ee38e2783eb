package io.cohort.transport.shm;

import io.cohort.transport.InboundSink;
import io.cohort.transport.InboundTarget;

import java.nio.ByteBuffer;

import static io.cohort.transport.shm.ShmRecordDescriptor.TYPE_BYE;
import static io.cohort.transport.shm.ShmRecordDescriptor.TYPE_FIRST;
import static io.cohort.transport.shm.ShmRecordDescriptor.TYPE_MESSAGE;
import static io.cohort.transport.shm.ShmRecordDescriptor.TYPE_MORE;

/**
 * The consumer side of one ring: turns records back into messages for the engine. Only the
 * progress owner calls it. A one-record message is matched and copied straight out of the ring
 * ({@link InboundSink#deliver}); a fragmented one gets its target when its first record arrives
 * and every fragment is copied from the ring into that target, so a posted receive is filled with
 * one copy.
 */
final class ShmReceiver {
    /** Records taken per poll before the owner moves on to other peers. */
    static final int RECORDS_PER_POLL = 64;

    private final int peer;
    private final ShmRing ring;
    private final InboundSink sink;
    private final ByteBuffer data;
    private InboundTarget target;
    private ByteBuffer targetBuf;
    private volatile boolean byeReceived;
    private String malformed;

    ShmReceiver(int peer, ShmRing ring, InboundSink sink) {
        this.peer = peer;
        this.ring = ring;
        this.sink = sink;
        this.data = ring.data();
    }

    /**
     * Takes what has arrived, up to the end of the first complete message; returns the number of
     * records. Check {@link #malformed()} afterwards.
     *
     * <p>Stopping after one message is deliberate: a thread waiting for that message returns to
     * its program, which usually posts the next receive before the next poll, so the next message
     * (often already in the ring) is matched to it instead of being copied into the unexpected
     * queue first. Messages nobody has asked for wait in the ring, which is free, instead of in
     * freshly allocated arrays. It also makes polling fair between peers.
     */
    int poll() {
        int records = 0;
        while (records < RECORDS_PER_POLL && malformed == null) {
            int at = ring.poll();
            if (at < 0) {
                if (at == ShmRing.MALFORMED) {
                    malformed = "a record with an impossible length";
                }
                break;
            }
            boolean completed = take(at);
            ring.consume(at);
            records++;
            if (completed) {
                break;
            }
        }
        return records;
    }

    /** Takes one record; true when it completed a message. */
    private boolean take(int at) {
        short type = ring.type(at);
        int length = ring.payloadLength(at);
        int from = ring.payloadIndex(at);
        switch (type) {
            case TYPE_MESSAGE:
                if (targetBuf != null || byeReceived || ring.messageLength(at) != length) {
                    malformed = "a message record out of place or with a wrong length";
                    return false;
                }
                sink.deliver(peer, ring.context(at), ring.tag(at), data, from, length);
                return true;
            case TYPE_FIRST:
                int total = ring.messageLength(at);
                if (targetBuf != null || byeReceived || total <= length) {
                    malformed = "a first fragment out of place or with a wrong length";
                    return false;
                }
                target = sink.begin(peer, ring.context(at), ring.tag(at), total);
                targetBuf = target.buffer();
                copy(from, length);
                return false;
            case TYPE_MORE:
                if (targetBuf == null || length > targetBuf.remaining() || length == 0) {
                    malformed = "a fragment that belongs to no message";
                    return false;
                }
                copy(from, length);
                if (targetBuf.hasRemaining()) {
                    return false;
                }
                InboundTarget t = target;
                target = null;
                targetBuf = null;
                t.complete();
                return true;
            case TYPE_BYE:
                if (targetBuf != null || length != 0) {
                    malformed = "a goodbye in the middle of a message";
                    return false;
                }
                byeReceived = true;
                return true;
            default:
                malformed = "a record of unknown type " + type;
                return false;
        }
    }

    private void copy(int from, int length) {
        int p = targetBuf.position();
        targetBuf.put(p, data, from, length);
        targetBuf.position(p + length);
    }

    boolean byeReceived() {
        return byeReceived;
    }

    /** What was wrong with the ring, or null: a peer that writes garbage has to be given up. */
    String malformed() {
        return malformed;
    }

    /** Whether a fragmented message is half received (a peer that dies now leaves it unfinished). */
    boolean midMessage() {
        return targetBuf != null;
    }
}
