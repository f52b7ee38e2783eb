package io.cohort.daemon;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The one layout of every daemon message, over UDP (one frame per datagram) and TCP (frames back to
 * back, each delimited by its length field). A flyweight: {@link #wrap} a buffer, read or write the
 * fields in place. All integers big-endian (network order).
 *
 * <pre>
 *  offset  size  field
 *   0       4    frame length L: bytes from offset 0 to the end of the MAC (MIN_LENGTH..MAX_LENGTH;
 *                 an answer over TCP up to MAX_ANSWER_LENGTH)
 *   4       2    magic 0x4344 ("CD")
 *   6       1    version (1)
 *   7       1    type ({@link MessageType} code)
 *   8       8    timestamp: the sender's clock, milliseconds since the epoch
 *  16       8    nonce: random, never reused by a sender within the freshness window
 *  24       1    S: length of the sender's name in bytes (1..255)
 *  25       S    sender's name, UTF-8 (a member's name, or a client's "cohort@host")
 *  25+S     B    body: B = L - 25 - S - 32 bytes of {@link MessageBody}
 *  L-32    32    HMAC-SHA256 with the cluster key over bytes 0 .. L-33
 * </pre>
 *
 * The MAC covers the length, type, time, nonce, sender and body, so none can be changed or moved to
 * another message. {@link MessageAuthenticator} writes and checks it. Not thread-safe: one flyweight
 * per thread.
 */
public final class DaemonFrame {
    public static final int LENGTH_OFFSET = 0;
    public static final int MAGIC_OFFSET = 4;
    public static final int VERSION_OFFSET = 6;
    public static final int TYPE_OFFSET = 7;
    public static final int TIMESTAMP_OFFSET = 8;
    public static final int NONCE_OFFSET = 16;
    public static final int SENDER_LENGTH_OFFSET = 24;
    public static final int SENDER_OFFSET = 25;
    public static final int MAC_LENGTH = 32;
    public static final short MAGIC = 0x4344;
    public static final byte VERSION = 1;
    /** Header, a one-byte sender, no body, the MAC. */
    public static final int MIN_LENGTH = SENDER_OFFSET + 1 + MAC_LENGTH;
    /**
     * The largest UDP payload over IPv4: the limit of every datagram, of every request and of every
     * frame a daemon accepts (so no one without the key makes it hold more per connection).
     */
    public static final int MAX_LENGTH = 65_507;
    /**
     * The largest answer a daemon sends over TCP to the client that asked, and that client accepts: the
     * cluster table of a large cluster ({@code STATUS}, about 300 bytes a member) does not fit
     * {@link #MAX_LENGTH}. 32 MiB holds the table of the largest database (65535 members).
     */
    public static final int MAX_ANSWER_LENGTH = 32 << 20;

    private ByteBuffer buffer;
    private int base;

    /** Points this flyweight at a frame starting at {@code offset} of {@code buffer}. */
    public DaemonFrame wrap(ByteBuffer buffer, int offset) {
        this.buffer = buffer.order(ByteOrder.BIG_ENDIAN);
        this.base = offset;
        return this;
    }

    public int frameLength() {
        return buffer.getInt(base + LENGTH_OFFSET);
    }

    public short magic() {
        return buffer.getShort(base + MAGIC_OFFSET);
    }

    public byte version() {
        return buffer.get(base + VERSION_OFFSET);
    }

    public int typeCode() {
        return buffer.get(base + TYPE_OFFSET) & 0xFF;
    }

    public long timestamp() {
        return buffer.getLong(base + TIMESTAMP_OFFSET);
    }

    public long nonce() {
        return buffer.getLong(base + NONCE_OFFSET);
    }

    public int senderLength() {
        return buffer.get(base + SENDER_LENGTH_OFFSET) & 0xFF;
    }

    public String sender() {
        byte[] b = new byte[senderLength()];
        buffer.get(base + SENDER_OFFSET, b);
        return new String(b, StandardCharsets.UTF_8);
    }

    public int bodyOffset() {
        return SENDER_OFFSET + senderLength();
    }

    public int bodyLength() {
        return frameLength() - bodyOffset() - MAC_LENGTH;
    }

    public int macOffset() {
        return frameLength() - MAC_LENGTH;
    }

    /** Writes the header fields (not the MAC); the buffer must hold {@code frameLength} bytes from the offset. */
    public DaemonFrame writeHeader(int frameLength, MessageType type, long timestamp, long nonce, byte[] sender) {
        buffer.putInt(base + LENGTH_OFFSET, frameLength);
        buffer.putShort(base + MAGIC_OFFSET, MAGIC);
        buffer.put(base + VERSION_OFFSET, VERSION);
        buffer.put(base + TYPE_OFFSET, (byte) type.code());
        buffer.putLong(base + TIMESTAMP_OFFSET, timestamp);
        buffer.putLong(base + NONCE_OFFSET, nonce);
        buffer.put(base + SENDER_LENGTH_OFFSET, (byte) sender.length);
        buffer.put(base + SENDER_OFFSET, sender);
        return this;
    }

    /** The length of a frame with this sender and body. */
    public static int lengthOf(int senderBytes, int bodyBytes) {
        return SENDER_OFFSET + senderBytes + bodyBytes + MAC_LENGTH;
    }
}
