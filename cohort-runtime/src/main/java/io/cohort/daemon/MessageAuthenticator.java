package io.cohort.daemon;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;

/**
 * Seals outgoing daemon messages and opens incoming ones ({@link DaemonFrame} is the layout).
 *
 * <p>{@link #seal} stamps the sender's name, this clock's time and a random 64-bit nonce, then the
 * HMAC-SHA256 of all of it plus the body <em>and the recipient's name</em>, which is not sent: only the
 * daemon (or client) the message was sealed for computes the same MAC, so a captured message cannot be
 * replayed to another daemon, whose replay guard has never seen its nonce. {@link #open} checks, in this order: the lengths add up
 * ({@link Refusal#MALFORMED}), magic, version and type ({@link Refusal#FOREIGN}), the MAC
 * ({@link Refusal#BAD_MAC}; before anything is remembered, so forgeries cannot fill the replay guard),
 * the timestamp within {@code daemon.max_skew} ({@link Refusal#STALE}), the timestamp not before the
 * daemon's start ({@link Refusal#PREDATES_START}, see {@link ReplayGuard}), the nonce not seen before
 * ({@link Refusal#REPLAYED}), and the body. It never throws for bad input: it returns the refusal.
 *
 * <p>Thread-safe: any thread may seal and open (a {@link Mac} per thread; the guard is synchronized).
 */
public final class MessageAuthenticator {
    private static final String ALGORITHM = "HmacSHA256";

    /**
     * What {@link #open} found: exactly one of {@code message} and {@code refusal} is non-null;
     * {@code retryAfterMillis}, for {@link Refusal#PREDATES_START}, is how far the frame's timestamp lies
     * before the daemon's start (what a sender whose clock is behind waits before asking again).
     */
    public record Opened(DaemonMessage message, Refusal refusal, String detail, long retryAfterMillis) {
        static Opened refused(Refusal r, String detail) {
            return new Opened(null, r, detail, 0);
        }

        public boolean ok() {
            return message != null;
        }
    }

    private final SecretKeySpec key;
    private final byte[] sender;
    private final String senderName;
    private final Clock clock;
    private final long maxSkewMillis;
    private final ReplayGuard guard;
    private final SecureRandom random = new SecureRandom();
    private final ThreadLocal<Mac> macs;

    public MessageAuthenticator(ClusterKey key, String senderName, Clock clock, long maxSkewMillis, ReplayGuard guard) {
        this.key = new SecretKeySpec(key.bytes(), ALGORITHM);
        this.senderName = senderName;
        this.sender = senderName.getBytes(StandardCharsets.UTF_8);
        if (sender.length < 1 || sender.length > 255) {
            throw new IllegalArgumentException("a sender name has 1 to 255 bytes: '" + senderName + "'");
        }
        this.clock = clock;
        this.maxSkewMillis = maxSkewMillis;
        this.guard = guard;
        this.macs = ThreadLocal.withInitial(this::newMac);
    }

    private Mac newMac() {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK has no " + ALGORITHM, e); // every JDK must have it
        }
    }

    public String senderName() {
        return senderName;
    }

    public Clock clock() {
        return clock;
    }

    /** A complete frame of {@code type} with {@code body} for {@code recipient} (its member or client name), stamped now. */
    public byte[] seal(MessageType type, MessageBody body, String recipient) {
        return seal(type, body, recipient, clock.millis(), random.nextLong());
    }

    /** As {@link #seal(MessageType, MessageBody, String)}, for a frame of up to {@code maxLength} bytes (an answer over TCP). */
    public byte[] seal(MessageType type, MessageBody body, String recipient, int maxLength) {
        return seal(type, body, recipient, clock.millis(), random.nextLong(), maxLength);
    }

    /** As {@link #seal(MessageType, MessageBody, String)} with a given time and nonce (tests forge with it). */
    byte[] seal(MessageType type, MessageBody body, String recipient, long timestamp, long nonce) {
        return seal(type, body, recipient, timestamp, nonce, DaemonFrame.MAX_LENGTH);
    }

    private byte[] seal(MessageType type, MessageBody body, String recipient, long timestamp, long nonce, int maxLength) {
        return sealParts(type, body, recipient, timestamp, nonce, maxLength).whole();
    }

    /**
     * As {@link #seal(MessageType, MessageBody, String, int)}, in three parts: the body is the body's own
     * encoding, not copied, so that a long answer shared by many connections is held once.
     */
    public SealedFrame sealParts(MessageType type, MessageBody body, String recipient, int maxLength) {
        return sealParts(type, body, recipient, clock.millis(), random.nextLong(), maxLength);
    }

    private SealedFrame sealParts(MessageType type, MessageBody body, String recipient, long timestamp, long nonce, int maxLength) {
        byte[] bodyBytes = body.encode();
        int length = DaemonFrame.lengthOf(sender.length, bodyBytes.length);
        if (length > maxLength) {
            throw new IllegalArgumentException("a daemon message of " + length + " bytes exceeds " + maxLength);
        }
        byte[] head = new byte[DaemonFrame.SENDER_OFFSET + sender.length];
        new DaemonFrame().wrap(ByteBuffer.wrap(head), 0).writeHeader(length, type, timestamp, nonce, sender);
        Mac mac = macs.get();
        mac.update(head);
        mac.update(bodyBytes);
        mac.update(recipient.getBytes(StandardCharsets.UTF_8));
        return new SealedFrame(head, bodyBytes, mac.doFinal());
    }

    /**
     * Checks {@code length} bytes of {@code bytes} from {@code offset} as one frame sealed for this
     * authenticator's own name (a frame sealed for another daemon fails as {@link Refusal#BAD_MAC}).
     */
    public Opened open(byte[] bytes, int offset, int length) {
        return open(bytes, offset, length, DaemonFrame.MAX_LENGTH);
    }

    /** As {@link #open(byte[], int, int)}, for a frame of up to {@code maxLength} bytes (an answer over TCP). */
    Opened open(byte[] bytes, int offset, int length, int maxLength) {
        if (length < DaemonFrame.MIN_LENGTH || length > maxLength) {
            return Opened.refused(Refusal.MALFORMED, length + " bytes");
        }
        DaemonFrame f = new DaemonFrame().wrap(ByteBuffer.wrap(bytes), offset);
        if (f.magic() != DaemonFrame.MAGIC || f.version() != DaemonFrame.VERSION) {
            return Opened.refused(Refusal.FOREIGN, "magic or version");
        }
        if (f.frameLength() != length) {
            return Opened.refused(Refusal.MALFORMED, "length field " + f.frameLength() + " but " + length + " bytes");
        }
        if (f.senderLength() < 1 || f.bodyLength() < 0) {
            return Opened.refused(Refusal.MALFORMED, "sender length " + f.senderLength());
        }
        MessageType type = MessageType.of(f.typeCode());
        if (type == null) {
            return Opened.refused(Refusal.FOREIGN, "type " + f.typeCode()); // whoever sealed it: not a frame this daemon knows
        }
        Mac mac = macs.get();
        mac.update(bytes, offset, length - DaemonFrame.MAC_LENGTH);
        byte[] expected = mac.doFinal(sender); // sealed for this name, or it does not verify
        byte[] actual = new byte[DaemonFrame.MAC_LENGTH];
        System.arraycopy(bytes, offset + f.macOffset(), actual, 0, actual.length);
        if (!MessageDigest.isEqual(expected, actual)) { // constant time
            return Opened.refused(Refusal.BAD_MAC, "from '" + printable(f.sender()) + "'");
        }
        long now = clock.millis();
        long ts = f.timestamp();
        if (Math.abs(now - ts) > maxSkewMillis) {
            return Opened.refused(Refusal.STALE, "from '" + printable(f.sender()) + "', " + (now - ts) + " ms old");
        }
        long early = guard.beforeStart(ts);
        if (early > 0) {
            return new Opened(null, Refusal.PREDATES_START, "from '" + printable(f.sender()) + "', " + early
                    + " ms before this daemon started", early + 1);
        }
        if (!guard.firstSighting(f.nonce(), ts, now)) {
            return Opened.refused(Refusal.REPLAYED, "from '" + printable(f.sender()) + "'");
        }
        MessageBody body;
        try {
            body = MessageBody.decode(bytes, offset + f.bodyOffset(), f.bodyLength());
        } catch (MalformedMessageException e) {
            return Opened.refused(Refusal.MALFORMED, e.getMessage());
        }
        return new Opened(new DaemonMessage(type, f.sender(), ts, body), null, null, 0);
    }

    /** A name from the wire, safe to put in a log line. */
    static String printable(String s) {
        String t = s.replaceAll("[^\\x20-\\x7e]", "?");
        return t.length() > 64 ? t.substring(0, 64) + "..." : t;
    }
}
