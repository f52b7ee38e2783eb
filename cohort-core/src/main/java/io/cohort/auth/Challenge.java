package io.cohort.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;

/**
 * The proofs of a mutual challenge-response over a stream (the control connection, the TCP mesh):
 * each side sends a fresh random nonce, and each proves it holds the key by a tag over both nonces,
 * its role, and whatever the connection's identity claims ({@code bound}: the rank, the job, the
 * hello's body), so that a proof can be neither replayed on another connection, reflected back as
 * the other side's, nor moved onto other claims.
 *
 * <p>Static helpers; the {@link FrameAuthenticator} passed in is the caller's, of one thread.
 */
public final class Challenge {
    /** Bytes of a nonce: 128 random bits, never repeated in practice. */
    public static final int NONCE_BYTES = 16;
    private static final SecureRandom RANDOM = new SecureRandom();

    private Challenge() {
    }

    public static byte[] nonce() {
        byte[] n = new byte[NONCE_BYTES];
        RANDOM.nextBytes(n);
        return n;
    }

    /**
     * The proof of the side playing {@code role} ("client", "server", ...; each direction its own
     * role) on the connection whose nonces are {@code clientNonce} and {@code serverNonce} (always
     * in that order, whoever proves), for the claims {@code bound}.
     */
    public static byte[] proof(FrameAuthenticator key, String role, byte[] clientNonce, byte[] serverNonce, byte[] bound) {
        byte[] r = role.getBytes(StandardCharsets.UTF_8);
        return key.tag(new byte[] {(byte) r.length}, r, clientNonce, serverNonce, bound);
    }

    /** Whether {@code proof} is the one {@link #proof} gives, compared in constant time. */
    public static boolean check(FrameAuthenticator key, byte[] proof, String role, byte[] clientNonce, byte[] serverNonce,
                                byte[] bound) {
        return proof != null && proof.length == FrameAuthenticator.TAG_BYTES
                && MessageDigest.isEqual(proof(key, role, clientNonce, serverNonce, bound), proof);
    }
}
