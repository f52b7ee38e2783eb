package io.cohort.broadcast.pcode;

import io.cohort.DomainCounters;
import io.cohort.auth.FrameAuthenticator;

import java.nio.ByteBuffer;

import static io.cohort.broadcast.pcode.BcastHeaderDescriptor.*;

/**
 * Decides whether a received datagram is an authentic, well-formed frame of this domain, before
 * anything in it is believed. The cheap header fields come first (a stranger's traffic and other
 * jobs' cost no hash); then the tag after the frame must verify under this domain's key, so a
 * forged or altered frame is counted as {@code DROPPED_FORGED} and nothing of its body is read;
 * only then are its lengths and indexes checked. Strangers' traffic on the group (wrong magic), other jobs and stale frames from
 * an earlier job (wrong key), other protocol versions, truncated and malformed frames are counted
 * under their own counter and dropped; a frame that passes has every length and index in range,
 * so the handlers need no further checks and nothing on the poll path can throw.
 */
final class FrameValidator {
    static final int VALID = 0;
    static final int OWN = 1;
    static final int DROP = 2;

    private final long key;
    private final int size;
    private final int self;
    private final int maxMessageBytes;
    private final PcodeCounters counters;
    private final FrameAuthenticator auth;

    FrameValidator(long key, int size, int self, long maxMessageBytes, PcodeCounters counters, FrameAuthenticator auth) {
        this.auth = auth;
        this.key = key;
        this.size = size;
        this.self = self;
        this.maxMessageBytes = (int) Math.min(Integer.MAX_VALUE, maxMessageBytes);
        this.counters = counters;
    }

    /**
     * Checks the datagram in {@code b} (little-endian, index 0, {@code datagram} bytes: the frame,
     * then its tag). On {@link #VALID} the frame is {@code datagram - TAG_BYTES} bytes long.
     */
    int check(ByteBuffer b, int datagram) {
        int length = datagram - FrameAuthenticator.TAG_BYTES;
        if (datagram < 4) {
            return drop(DomainCounters.Counter.DROPPED_FOREIGN);
        }
        if (magic(b) != MAGIC) {
            return drop(DomainCounters.Counter.DROPPED_FOREIGN);
        }
        if (length < HEADER_LENGTH) {
            return drop(DomainCounters.Counter.DROPPED_TRUNCATED);
        }
        // Anything else read before the tag is checked decides only how a drop is counted.
        if (version(b) != VERSION) {
            return drop(DomainCounters.Counter.DROPPED_VERSION);
        }
        if (key(b) != key) {
            return drop(DomainCounters.Counter.DROPPED_OTHER_JOB);
        }
        int sender = sender(b);
        if (size(b) != size || sender < 0 || sender >= size || globalCounter(b) < 0) {
            return drop(DomainCounters.Counter.DROPPED_MALFORMED);
        }
        if (sender == self) {
            counters.increment(DomainCounters.Counter.OWN_ECHOES); // multicast loops back to its sender
            return OWN; // dropped unread: a forged "own" frame changes nothing, and a real echo costs no hash
        }
        if (!auth.verify(b, 0, length)) {
            return drop(DomainCounters.Counter.DROPPED_FORGED);
        }
        switch (type(b)) {
            case TYPE_DATA:
                return checkData(b, length, sender);
            case TYPE_NACK:
                return checkNack(b, length);
            case TYPE_STATUS:
                if (length < StatusFrameDescriptor.length(size)) {
                    return drop(DomainCounters.Counter.DROPPED_TRUNCATED);
                }
                return VALID;
            default:
                return drop(DomainCounters.Counter.DROPPED_MALFORMED);
        }
    }

    private int checkData(ByteBuffer b, int length, int sender) {
        int payload = DataFrameDescriptor.payloadOffset(size);
        if (length < payload) {
            return drop(DomainCounters.Counter.DROPPED_TRUNCATED);
        }
        int total = DataFrameDescriptor.messageLength(b);
        int offset = DataFrameDescriptor.fragmentOffset(b);
        int fragment = DataFrameDescriptor.fragmentLength(b);
        if (length < payload + Math.max(0, fragment)) {
            return drop(DomainCounters.Counter.DROPPED_TRUNCATED);
        }
        if (DataFrameDescriptor.personalCount(b) <= 0 || total < 0 || total > maxMessageBytes || offset < 0
                || fragment < 0 || (long) offset + fragment > total || (fragment == 0 && total != 0)
                || DataFrameDescriptor.position(b) <= 0) {
            return drop(DomainCounters.Counter.DROPPED_MALFORMED);
        }
        int members = 0;
        int words = DataFrameDescriptor.targetWords(size);
        for (int w = 0; w < words; w++) {
            long bits = DataFrameDescriptor.targetWord(b, w);
            if (w == words - 1 && (size & 63) != 0 && (bits >>> (size & 63)) != 0) {
                return drop(DomainCounters.Counter.DROPPED_MALFORMED); // a rank beyond the domain
            }
            members += Long.bitCount(bits);
        }
        boolean senderInTargets = (DataFrameDescriptor.targetWord(b, sender >>> 6) & (1L << (sender & 63))) != 0;
        boolean p2p = (flags(b) & FLAG_P2P) != 0;
        boolean selfInTargets = (DataFrameDescriptor.targetWord(b, self >>> 6) & (1L << (self & 63))) != 0;
        if (members == 0 || senderInTargets || (p2p && (members != 1 || !selfInTargets))) {
            return drop(DomainCounters.Counter.DROPPED_MALFORMED);
        }
        return VALID;
    }

    private int checkNack(ByteBuffer b, int length) {
        if (length < NackFrameDescriptor.LENGTH) {
            return drop(DomainCounters.Counter.DROPPED_TRUNCATED);
        }
        int kind = NackFrameDescriptor.kind(b);
        int about = NackFrameDescriptor.about(b);
        if (kind == NackFrameDescriptor.KIND_GLOBAL_GAP) {
            if (length < NackFrameDescriptor.length(kind, size)) {
                return drop(DomainCounters.Counter.DROPPED_TRUNCATED);
            }
            return about == -1 ? VALID : drop(DomainCounters.Counter.DROPPED_MALFORMED);
        }
        if ((kind != NackFrameDescriptor.KIND_REQUEST && kind != NackFrameDescriptor.KIND_PERSONAL_GAP)
                || about < 0 || about >= size || NackFrameDescriptor.lastReceived(b) < 0) {
            return drop(DomainCounters.Counter.DROPPED_MALFORMED);
        }
        return VALID;
    }

    private int drop(DomainCounters.Counter c) {
        counters.increment(c);
        return DROP;
    }
}
