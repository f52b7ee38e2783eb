/**
 * The job's secret and what is made from it: keys for each purpose, a tag on every datagram, and the
 * proofs of a challenge-response. The threat model is {@code docs/security.md}.
 *
 * <p>Everything here is the JDK's {@code javax.crypto} (HMAC-SHA256), used the standard ways: a key
 * per purpose derived from the secret (HKDF's expand step with one block), a tag truncated to 128
 * bits (as RFC 4868 does), tags compared in constant time. Nothing in this package is hand-made
 * cryptography.
 *
 * <p>May depend on {@code io.cohort} (exceptions) and the JDK only.
 */
package io.cohort.auth;
