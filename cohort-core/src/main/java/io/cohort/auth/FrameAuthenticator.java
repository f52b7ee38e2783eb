package io.cohort.auth;

import javax.crypto.Mac;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;

/**
 * Signs and checks frames with one derived key: the tag is HMAC-SHA256 over the frame's bytes,
 * truncated to {@value #TAG_BYTES} bytes (RFC 4868's HMAC-SHA-256-128), and sits right after the
 * bytes it covers. A frame whose tag does not verify is the caller's to drop and count.
 *
 * <p>Not thread-safe: one per thread that signs or checks (a {@link Mac} keeps state between calls).
 * Neither method allocates, so the hot path pays the hash and nothing else.
 */
public final class FrameAuthenticator {
    /** Bytes of a tag: 128 bits, a forgery chance of 2^-128 per try. */
    public static final int TAG_BYTES = 16;

    private final Mac mac;
    private final byte[] full = new byte[32];
    private final byte[] received = new byte[TAG_BYTES];
    private final byte[] expected = new byte[TAG_BYTES];

    FrameAuthenticator(byte[] key) {
        try {
            mac = Mac.getInstance(JobSecret.HMAC);
            mac.init(new SecretKeySpec(key, JobSecret.HMAC));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no " + JobSecret.HMAC + ", which every Java SE platform must have", e);
        }
    }

    /**
     * Writes the tag of {@code b}'s bytes {@code [from, to)} at {@code [to, to + TAG_BYTES)}, which
     * may lie beyond the buffer's limit. The buffer's position and limit are left as they were.
     */
    public void sign(ByteBuffer b, int from, int to) {
        int position = b.position();
        int limit = b.limit();
        try {
            compute(b, from, to);
            b.put(to, full, 0, TAG_BYTES);
        } finally {
            b.limit(limit).position(position);
        }
    }

    /**
     * Whether the tag at {@code [to, to + TAG_BYTES)} is the one of {@code [from, to)}; compared in
     * constant time, so the time taken tells an attacker nothing of how much of a guess was right.
     * The buffer's position and limit are left as they were.
     */
    public boolean verify(ByteBuffer b, int from, int to) {
        if (from < 0 || to < from || to + TAG_BYTES > b.capacity()) {
            return false;
        }
        int position = b.position();
        int limit = b.limit();
        try {
            compute(b, from, to);
            b.get(to, received, 0, TAG_BYTES);
        } finally {
            b.limit(limit).position(position);
        }
        System.arraycopy(full, 0, expected, 0, TAG_BYTES);
        return MessageDigest.isEqual(expected, received);
    }

    /**
     * A new authenticator keyed by the full HMAC of {@code parts} under this one's key: a key for one
     * connection (its nonces among the parts) derived from a key for many.
     */
    public FrameAuthenticator derive(byte[]... parts) {
        for (byte[] p : parts) {
            mac.update(p);
        }
        return new FrameAuthenticator(mac.doFinal());
    }

    /** The tag of a byte array's whole content (handshakes, which are not on a hot path). */
    public byte[] tag(byte[]... parts) {
        for (byte[] p : parts) {
            mac.update(p);
        }
        byte[] t = new byte[TAG_BYTES];
        System.arraycopy(mac.doFinal(), 0, t, 0, TAG_BYTES);
        return t;
    }

    /** Hashes {@code [from, to)} into {@link #full}; leaves the limit at the capacity, for the tag's absolute access. */
    private void compute(ByteBuffer b, int from, int to) {
        // The capacity first: the caller's limit may lie below from, to or the tag.
        b.limit(b.capacity()).position(from);
        b.limit(to);
        mac.update(b);
        try {
            mac.doFinal(full, 0);
        } catch (ShortBufferException e) {
            throw new IllegalStateException(e); // 32 bytes always hold an HMAC-SHA256
        }
        b.limit(b.capacity());
    }
}
