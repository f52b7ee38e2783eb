package io.cohort.transport.udp;

import io.cohort.auth.FrameAuthenticator;

import java.nio.ByteBuffer;

/**
 * The layout of every datagram of the {@code udp} transport. Little-endian (like the TCP frames),
 * one frame per datagram followed by its {@value FrameAuthenticator#TAG_BYTES}-byte tag, never larger
 * than the pair's datagram size:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                 magic 0x55484F43 ("COHU")                     |  0
 *  +---------------+---------------+-------------------------------+
 *  | version (u8)  |   type (u8)   |          flags (u16)          |  4
 *  +---------------+---------------+-------------------------------+
 *  |            job tag (int64): which job, not a secret           |  8
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                     sender's rank (int32)                     | 16
 *  +---------------------------------------------------------------+
 *  |          sequence number of this frame (int32, wraps)         | 20
 *  +---------------------------------------------------------------+
 *  |   ack: every frame below this number has arrived (int32)      | 24
 *  +---------------------------------------------------------------+
 *  |   selective ack (int64): bit i set = frame ack+1+i arrived    | 28
 *  |                                                               |
 *  +-------------------------------+-------------------------------+
 *  |     window (u16): frames      |  extra (u16): bytes of the    | 36
 *  |     accepted beyond ack       |  extended SACK map (ACK only) |
 *  +-------------------------------+-------------------------------+
 *  | DATA with FIRST: context (int32), tag (int32),                | 40
 *  |                  message length (int32), payload from 52      |
 *  | DATA without FIRST: payload from 40                           |
 *  | ACK: extended SACK map, bit j of byte k = frame ack+65+8k+j   |
 *  | BYE: nothing                                                  |
 *  +---------------------------------------------------------------+
 *  | tag: HMAC-SHA256 of every byte above, truncated to 16 bytes,  | frame's end
 *  | keyed for the ordered pair (sender, receiver)                 |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <ul>
 *   <li>{@link #TYPE_DATA} and {@link #TYPE_BYE} are sequenced: they occupy a sequence number,
 *       are acknowledged, retransmitted and delivered in order. A message is one or more DATA frames
 *       in consecutive numbers, the first flagged {@link #FLAG_FIRST}; the receiver knows the end from
 *       the message length. BYE follows the last message: nothing is sent after it.</li>
 *   <li>{@link #TYPE_ACK} carries acknowledgements only (when there is no data to piggy-back them on,
 *       when a gap calls for a selective ack at once, and as the keepalive of an idle pair); its
 *       sequence field is the sender's next number and means nothing else.</li>
 *   <li>Sequence numbers are per ordered pair, start at 0 and compare by serial arithmetic
 *       ({@code a - b < 0}), so they may wrap.</li>
 *   <li>Every frame carries the ack fields: acknowledgements are piggy-backed on data.</li>
 *   <li>The tag ({@link io.cohort.auth.FrameAuthenticator}) is keyed by
 *       {@code secret.authenticator("udp", sender, receiver)}: it proves the frame was made by a
 *       member for this receiver and not changed since. The header's offsets and the lengths below
 *       are those of the frame, without the tag.</li>
 * </ul>
 *
 * A datagram that is shorter than its header, has another magic or version, another job tag, an
 * impossible rank, type, flags or length, is dropped and counted by {@link #check}; it never
 * reaches the protocol. {@link #check} reads only what finds the pair's key and says where the
 * frame ends; nothing else of the frame is believed before its tag is verified.
 */
public final class UdpFrameDescriptor {
    public static final int MAGIC = 0x55484F43;
    public static final byte VERSION = 1;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 4;
    public static final int TYPE_OFFSET = 5;
    public static final int FLAGS_OFFSET = 6;
    public static final int JOB_KEY_OFFSET = 8;
    public static final int RANK_OFFSET = 16;
    public static final int SEQ_OFFSET = 20;
    public static final int ACK_OFFSET = 24;
    public static final int SACK_OFFSET = 28;
    public static final int WINDOW_OFFSET = 36;
    public static final int EXTRA_OFFSET = 38;
    public static final int HEADER_LENGTH = 40;

    public static final int CONTEXT_OFFSET = 40;
    public static final int TAG_OFFSET = 44;
    public static final int MESSAGE_LENGTH_OFFSET = 48;
    public static final int FIRST_HEADER_LENGTH = 52;

    public static final byte TYPE_DATA = 1;
    public static final byte TYPE_BYE = 2;
    public static final byte TYPE_ACK = 3;
    public static final short FLAG_FIRST = 1;

    /** Frames the selective-ack field of the header covers. */
    public static final int SACK_BITS = 64;
    /** Longest extended SACK map of an ACK frame (covers a window of 64 + 8 * 504 frames). */
    public static final int MAX_EXTRA = 504;

    /** {@link #check} results below zero: why a datagram was dropped. */
    public static final int TRUNCATED = -1;
    public static final int NOT_COHORT = -2;
    public static final int WRONG_VERSION = -3;
    public static final int WRONG_JOB = -4;
    public static final int BAD_RANK = -5;
    public static final int MALFORMED = -6;

    private UdpFrameDescriptor() {
    }

    /**
     * Checks a received frame at {@code [0, length)} of {@code b} (little-endian; the datagram's
     * length minus its tag) for the job tagged {@code jobTag} of {@code size} peers. Returns the
     * sender's rank, or one of the negative codes above. It checks everything a single frame can
     * show before its tag does; the sequence numbers are the protocol's business.
     */
    public static int check(ByteBuffer b, int length, long jobTag, int size) {
        if (length < HEADER_LENGTH) {
            return length >= 4 && b.getInt(MAGIC_OFFSET) != MAGIC ? NOT_COHORT : TRUNCATED;
        }
        if (b.getInt(MAGIC_OFFSET) != MAGIC) {
            return NOT_COHORT;
        }
        if (b.get(VERSION_OFFSET) != VERSION) {
            return WRONG_VERSION;
        }
        if (b.getLong(JOB_KEY_OFFSET) != jobTag) {
            return WRONG_JOB;
        }
        int rank = b.getInt(RANK_OFFSET);
        if (rank < 0 || rank >= size) {
            return BAD_RANK;
        }
        int window = window(b);
        int extra = extra(b);
        short flags = b.getShort(FLAGS_OFFSET);
        if (window < 1) {
            return MALFORMED;
        }
        switch (b.get(TYPE_OFFSET)) {
            case TYPE_DATA:
                if (extra != 0 || (flags & ~FLAG_FIRST) != 0) {
                    return MALFORMED;
                }
                if ((flags & FLAG_FIRST) != 0) {
                    if (length < FIRST_HEADER_LENGTH) {
                        return TRUNCATED;
                    }
                    int messageLength = b.getInt(MESSAGE_LENGTH_OFFSET);
                    // The first fragment may not carry more than the message; a negative length is absurd.
                    if (messageLength < 0 || messageLength < length - FIRST_HEADER_LENGTH) {
                        return MALFORMED;
                    }
                } else if (length == HEADER_LENGTH) {
                    return MALFORMED; // a continuation carries at least one byte
                }
                return rank;
            case TYPE_BYE:
                return flags == 0 && extra == 0 && length == HEADER_LENGTH ? rank : MALFORMED;
            case TYPE_ACK:
                if (flags != 0 || extra > MAX_EXTRA) {
                    return MALFORMED;
                }
                if (length != HEADER_LENGTH + extra) {
                    return length < HEADER_LENGTH + extra ? TRUNCATED : MALFORMED;
                }
                return rank;
            default:
                return MALFORMED;
        }
    }

    /** Writes the common header at {@code b}'s position 0 (little-endian) and positions {@code b} after it. */
    public static void writeHeader(ByteBuffer b, byte type, short flags, long jobTag, int rank, int seq, int ack,
                                   long sack, int window, int extra) {
        b.putInt(MAGIC_OFFSET, MAGIC);
        b.put(VERSION_OFFSET, VERSION);
        b.put(TYPE_OFFSET, type);
        b.putShort(FLAGS_OFFSET, flags);
        b.putLong(JOB_KEY_OFFSET, jobTag);
        b.putInt(RANK_OFFSET, rank);
        b.putInt(SEQ_OFFSET, seq);
        b.putInt(ACK_OFFSET, ack);
        b.putLong(SACK_OFFSET, sack);
        b.putShort(WINDOW_OFFSET, (short) Math.min(window, 0xFFFF));
        b.putShort(EXTRA_OFFSET, (short) extra);
        b.position(HEADER_LENGTH);
    }

    /** Writes the message header of a FIRST fragment after the common header. */
    public static void writeMessageHeader(ByteBuffer b, int context, int tag, int messageLength) {
        b.putInt(CONTEXT_OFFSET, context);
        b.putInt(TAG_OFFSET, tag);
        b.putInt(MESSAGE_LENGTH_OFFSET, messageLength);
        b.position(FIRST_HEADER_LENGTH);
    }

    public static byte type(ByteBuffer b) {
        return b.get(TYPE_OFFSET);
    }

    public static boolean isFirst(ByteBuffer b) {
        return (b.getShort(FLAGS_OFFSET) & FLAG_FIRST) != 0;
    }

    public static int seq(ByteBuffer b) {
        return b.getInt(SEQ_OFFSET);
    }

    public static int ack(ByteBuffer b) {
        return b.getInt(ACK_OFFSET);
    }

    public static long sack(ByteBuffer b) {
        return b.getLong(SACK_OFFSET);
    }

    public static int window(ByteBuffer b) {
        return b.getShort(WINDOW_OFFSET) & 0xFFFF;
    }

    public static int extra(ByteBuffer b) {
        return b.getShort(EXTRA_OFFSET) & 0xFFFF;
    }

    public static int context(ByteBuffer b) {
        return b.getInt(CONTEXT_OFFSET);
    }

    public static int tag(ByteBuffer b) {
        return b.getInt(TAG_OFFSET);
    }

    public static int messageLength(ByteBuffer b) {
        return b.getInt(MESSAGE_LENGTH_OFFSET);
    }

    /** Where the payload of a DATA frame starts. */
    public static int payloadOffset(ByteBuffer b) {
        return isFirst(b) ? FIRST_HEADER_LENGTH : HEADER_LENGTH;
    }
}
