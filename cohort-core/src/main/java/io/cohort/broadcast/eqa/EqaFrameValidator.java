package io.cohort.broadcast.eqa;

import java.net.SocketAddress;
import java.nio.ByteBuffer;

import static io.cohort.broadcast.eqa.EqaCounters.Counter.*;
import static io.cohort.broadcast.eqa.EqaHeaderDescriptor.*;

/**
 * Decides whether a received datagram is a well-formed frame of this group before anything in it
 * is believed. Strangers' traffic (wrong magic, or a rank whose address is not the datagram's
 * source), other groups (wrong key), other versions, truncated and malformed frames are counted
 * under their own counter and dropped; a frame that passes has every length and index in range,
 * so the handlers need no further checks and nothing on the receive path can throw.
 *
 * <p>Threads: the peer's owner thread (it counts into the peer's {@link EqaCounters}).
 */
final class EqaFrameValidator {
    static final int VALID = 0;
    static final int OWN = 1;
    static final int DROP = 2;

    private final long key;
    private final int self;
    private final SocketAddress[] addresses;
    private final int maxMessageBytes;
    private final EqaCounters counters;

    EqaFrameValidator(long key, int self, SocketAddress[] addresses, int maxMessageBytes, EqaCounters counters) {
        this.key = key;
        this.self = self;
        this.addresses = addresses;
        this.maxMessageBytes = maxMessageBytes;
        this.counters = counters;
    }

    /** Checks the frame in {@code b} (little-endian, index 0, {@code length} bytes) that came from {@code source}. */
    int check(ByteBuffer b, int length, SocketAddress source) {
        if (length < 4 || magic(b) != MAGIC) {
            return drop(DROPPED_FOREIGN);
        }
        if (length < HEADER_LENGTH) {
            return drop(DROPPED_TRUNCATED);
        }
        if (version(b) != VERSION) {
            return drop(DROPPED_VERSION);
        }
        if (key(b) != key) {
            return drop(DROPPED_OTHER_GROUP);
        }
        int sender = sender(b);
        if (size(b) != addresses.length || sender < 0 || sender >= addresses.length) {
            return drop(DROPPED_MALFORMED);
        }
        if (sender == self) {
            counters.increment(OWN_ECHOES); // a multicast group loops our own packets back
            return OWN;
        }
        if (!addresses[sender].equals(source)) {
            return drop(DROPPED_FOREIGN); // right key, wrong address: not the peer it names
        }
        switch (type(b)) {
            case TYPE_DATA:
                return target(b) != 0 ? drop(DROPPED_MALFORMED) : checkData(b, length);
            case TYPE_ACK:
                if (length < AckFrameDescriptor.LENGTH) {
                    return drop(DROPPED_TRUNCATED);
                }
                if (AckFrameDescriptor.next(b) < 0) {
                    return drop(DROPPED_MALFORMED);
                }
                return forUs(b);
            case TYPE_PULL:
                if (length < PullFrameDescriptor.LENGTH) {
                    return drop(DROPPED_TRUNCATED);
                }
                if (PullFrameDescriptor.next(b) < 0 || PullFrameDescriptor.message(b) < 0) {
                    return drop(DROPPED_MALFORMED);
                }
                return forUs(b);
            default:
                return drop(DROPPED_MALFORMED);
        }
    }

    /**
     * An ACK or PULL acknowledges one sender's stream, named in its signed target field. Every member
     * signs with the group's one key and source addresses can be spoofed, so without this an ACK from
     * R to S, captured and replayed to T from R's address, would move T's cursor for R past packets R
     * never got, and R's stream from T would stall for good.
     */
    private int forUs(ByteBuffer b) {
        return target(b) == self ? VALID : drop(DROPPED_NOT_FOR_US);
    }

    private int checkData(ByteBuffer b, int length) {
        if (length < DataFrameDescriptor.PAYLOAD_OFFSET) {
            return drop(DROPPED_TRUNCATED);
        }
        int total = DataFrameDescriptor.messageLength(b);
        int offset = DataFrameDescriptor.fragmentOffset(b);
        int fragment = DataFrameDescriptor.fragmentLength(b);
        int designated = DataFrameDescriptor.designated(b);
        if (fragment < 0 || length < DataFrameDescriptor.PAYLOAD_OFFSET + fragment) {
            return drop(fragment < 0 ? DROPPED_MALFORMED : DROPPED_TRUNCATED);
        }
        if (DataFrameDescriptor.sequence(b) < 0 || DataFrameDescriptor.message(b) < 0 || total < 0
                || total > maxMessageBytes || offset < 0 || (long) offset + fragment > total
                || (fragment == 0 && total != 0) || designated < -1 || designated >= addresses.length) {
            return drop(DROPPED_MALFORMED);
        }
        return VALID;
    }

    private int drop(EqaCounters.Counter c) {
        counters.increment(c);
        return DROP;
    }
}
