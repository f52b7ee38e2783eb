package io.cohort.transport.tcp;

import io.cohort.auth.Challenge;
import io.cohort.auth.FrameAuthenticator;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The wire layouts of a new connection's handshake ({@link TcpHandshake} runs it). Both ends send a
 * hello, little-endian, 40 bytes:
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                 magic 0x54484F43 ("COHT")                     |  0
 *  +-------------------------------+-------------------------------+
 *  |        version (int16)        |        reserved (int16)       |  4
 *  +-------------------------------+-------------------------------+
 *  |                       job tag (int64)                         |  8
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                     sender's rank (int32)                     | 16
 *  +---------------------------------------------------------------+
 *  |                        job size (int32)                       | 20
 *  +---------------------------------------------------------------+
 *  |                sender's nonce (16 random bytes)               | 24
 *  |                                                               |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * and then a {@value #PROOF_LENGTH}-byte proof ({@link Challenge#proof}) that it holds the job's
 * handshake key, over its role, both nonces and the claims {@link #bound}. The job tag is no secret:
 * it only lets another job's connection be told apart and refused before any proof is made.
 *
 * <p>A hello with another magic, version, job tag or size, or an impossible rank, is not this job's.
 */
public final class HandshakeDescriptor {
    public static final int MAGIC = 0x54484F43;
    /** 2: the hello carries a nonce and a proof follows it (1 carried the key itself). */
    public static final short VERSION = 2;
    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 4;
    public static final int JOB_TAG_OFFSET = 8;
    public static final int RANK_OFFSET = 16;
    public static final int SIZE_OFFSET = 20;
    public static final int NONCE_OFFSET = 24;
    public static final int LENGTH = NONCE_OFFSET + Challenge.NONCE_BYTES;
    public static final int PROOF_LENGTH = FrameAuthenticator.TAG_BYTES;

    /** The roles the two proofs are made for: each direction its own, so neither can be reflected as the other. */
    public static final String CONNECTOR = "tcp-connector";
    public static final String ACCEPTOR = "tcp-acceptor";

    private HandshakeDescriptor() {
    }

    /** Writes a hello at the buffer's position (which must be little-endian) and advances it. */
    public static void write(ByteBuffer b, long jobTag, int rank, int size, byte[] nonce) {
        int p = b.position();
        b.putInt(p + MAGIC_OFFSET, MAGIC);
        b.putShort(p + VERSION_OFFSET, VERSION);
        b.putShort(p + VERSION_OFFSET + 2, (short) 0);
        b.putLong(p + JOB_TAG_OFFSET, jobTag);
        b.putInt(p + RANK_OFFSET, rank);
        b.putInt(p + SIZE_OFFSET, size);
        b.put(p + NONCE_OFFSET, nonce, 0, Challenge.NONCE_BYTES);
        b.position(p + LENGTH);
    }

    /** Whether the hello at {@code at} is a Cohort hello of this version, whatever its job. */
    public static boolean isCohort(ByteBuffer b, int at) {
        return b.getInt(at + MAGIC_OFFSET) == MAGIC && b.getShort(at + VERSION_OFFSET) == VERSION;
    }

    /** Returns the sender's rank, or -1 if the hello is not one of this job's. */
    public static int validate(ByteBuffer b, int at, long jobTag, int size) {
        if (!isCohort(b, at) || b.getLong(at + JOB_TAG_OFFSET) != jobTag || b.getInt(at + SIZE_OFFSET) != size) {
            return -1;
        }
        int rank = b.getInt(at + RANK_OFFSET);
        return rank >= 0 && rank < size ? rank : -1;
    }

    public static byte[] nonce(ByteBuffer b, int at) {
        byte[] n = new byte[Challenge.NONCE_BYTES];
        b.get(at + NONCE_OFFSET, n);
        return n;
    }

    /**
     * The claims both proofs are bound to: the job tag, who connects, who accepts, and the job's size,
     * so that a proof made for one pair of ranks (or one job) proves nothing for another.
     */
    public static byte[] bound(long jobTag, int connectorRank, int acceptorRank, int size) {
        ByteBuffer b = ByteBuffer.allocate(Long.BYTES + 3 * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(jobTag).putInt(connectorRank).putInt(acceptorRank).putInt(size);
        return b.array();
    }
}
