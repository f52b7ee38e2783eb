package io.cohort.auth;

import io.cohort.CohortException;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * A job's secret: 256 random bits made by the launcher, handed to each io-manager on a pipe (over
 * ssh's encrypted channel for a remote host) and to each peer in its environment, never on a command
 * line, never in a frame. Everything that must prove membership is keyed by a key derived from it,
 * one per purpose and context, so that a frame of one purpose (or one communicator's broadcast
 * domain) never verifies as another's.
 *
 * <p>Immutable and thread-safe. {@link #toString()} never shows the bytes.
 */
public final class JobSecret {
    /** Bytes of a secret: as many as the HMAC-SHA256 block's hash output, the key size HMAC is strongest with. */
    public static final int BYTES = 32;
    static final String HMAC = "HmacSHA256";
    /** Every derivation's label starts with this, so that a later version's keys differ from this one's. */
    private static final String LABEL_PREFIX = "cohort/1/";

    private final byte[] secret;

    private JobSecret(byte[] secret) {
        this.secret = secret;
    }

    /** A new secret from the system's strong random source. */
    public static JobSecret generate() {
        byte[] b = new byte[BYTES];
        new SecureRandom().nextBytes(b);
        return new JobSecret(b);
    }

    /**
     * Parses the hex form {@link #toHex} made.
     *
     * @throws CohortException naming {@code where} (never the value) when it is not {@value #BYTES} bytes of hex
     */
    public static JobSecret parse(String hex, String where) {
        if (hex == null || hex.length() != 2 * BYTES) {
            throw new CohortException(where + " is not a job secret of " + BYTES + " bytes; start the program with cohort run");
        }
        try {
            return new JobSecret(HexFormat.of().parseHex(hex));
        } catch (IllegalArgumentException e) {
            throw new CohortException(where + " is not a job secret of " + BYTES + " bytes; start the program with cohort run");
        }
    }

    /** The hex form, for a pipe or a child's environment only: never a command line, a log or a frame. */
    public String toHex() {
        return HexFormat.of().formatHex(secret);
    }

    /**
     * The key for {@code purpose} in {@code context}: HMAC-SHA256(secret, "cohort/1/" purpose 0x00
     * context...), HKDF's expand step with a single block (RFC 5869 section 2.3, the secret being
     * uniformly random already, so no extract step is needed).
     */
    public byte[] derive(String purpose, long... context) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(secret, HMAC));
            mac.update((LABEL_PREFIX + purpose).getBytes(StandardCharsets.UTF_8));
            mac.update((byte) 0);
            ByteBuffer b = ByteBuffer.allocate(Long.BYTES * context.length).order(ByteOrder.BIG_ENDIAN);
            for (long c : context) {
                b.putLong(c);
            }
            mac.update(b.array());
            mac.update((byte) 1); // HKDF's block counter
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no " + HMAC + ", which every Java SE platform must have", e);
        }
    }

    /** A tag maker for {@code purpose} in {@code context}; one per thread. */
    public FrameAuthenticator authenticator(String purpose, long... context) {
        return new FrameAuthenticator(derive(purpose, context));
    }

    /**
     * A 64-bit value that tells this job's frames from other jobs' quickly, before their tags are
     * checked: derived from the secret, so nobody can choose a collision with it, but not a secret
     * (it travels in clear) and no proof of anything.
     */
    public long jobTag() {
        return ByteBuffer.wrap(derive("job-tag")).getLong();
    }

    /** Whether two secrets are the same, in constant time. */
    public boolean sameAs(JobSecret other) {
        return MessageDigest.isEqual(secret, other.secret);
    }

    @Override
    public String toString() {
        return "JobSecret[" + BYTES + " bytes, not shown]";
    }

    /** For tests: a secret made of {@code bytes}. */
    static JobSecret of(byte[] bytes) {
        if (bytes.length != BYTES) {
            throw new IllegalArgumentException("a job secret has " + BYTES + " bytes");
        }
        return new JobSecret(Arrays.copyOf(bytes, BYTES));
    }
}
