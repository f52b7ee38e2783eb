package io.cohort.auth;

import io.cohort.CohortException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class FrameAuthenticatorTest {
    private static JobSecret secret(int fill) {
        byte[] b = new byte[JobSecret.BYTES];
        Arrays.fill(b, (byte) fill);
        return JobSecret.of(b);
    }

    @Test
    void aSignedFrameVerifiesAndAnyChangedBitDoesNot() {
        FrameAuthenticator signer = secret(1).authenticator("udp");
        FrameAuthenticator checker = secret(1).authenticator("udp");
        for (ByteBuffer b : new ByteBuffer[] {ByteBuffer.allocate(200), ByteBuffer.allocateDirect(200)}) {
            for (int i = 0; i < 100; i++) {
                b.put(i, (byte) (i * 7));
            }
            b.position(3).limit(50);
            signer.sign(b, 0, 100);
            assertEquals(3, b.position(), "position left alone");
            assertEquals(50, b.limit(), "limit left alone");
            assertTrue(checker.verify(b, 0, 100));
            b.clear();
            for (int bit = 0; bit < 8 * (100 + FrameAuthenticator.TAG_BYTES); bit += 37) {
                b.put(bit / 8, (byte) (b.get(bit / 8) ^ (1 << (bit % 8))));
                assertFalse(checker.verify(b, 0, 100), "bit " + bit + " flipped still verifies");
                b.put(bit / 8, (byte) (b.get(bit / 8) ^ (1 << (bit % 8))));
            }
            assertTrue(checker.verify(b, 0, 100));
        }
    }

    @Test
    void anotherPurposeContextOrSecretDoesNotVerify() {
        ByteBuffer b = ByteBuffer.allocate(64);
        secret(1).authenticator("bcast", 7).sign(b, 0, 40);
        assertTrue(secret(1).authenticator("bcast", 7).verify(b, 0, 40));
        assertFalse(secret(1).authenticator("bcast", 8).verify(b, 0, 40), "another communicator's domain");
        assertFalse(secret(1).authenticator("udp", 7).verify(b, 0, 40), "another purpose");
        assertFalse(secret(2).authenticator("bcast", 7).verify(b, 0, 40), "another job");
    }

    @Test
    void aTagOutsideTheBufferIsRefusedNotThrown() {
        ByteBuffer b = ByteBuffer.allocate(20);
        assertFalse(secret(1).authenticator("udp").verify(b, 0, 10));
        assertFalse(secret(1).authenticator("udp").verify(b, 5, 2));
    }

    @Test
    void proofsAreBoundToRoleNoncesAndClaims() {
        FrameAuthenticator k = secret(3).authenticator("tcp");
        byte[] c = Challenge.nonce();
        byte[] s = Challenge.nonce();
        byte[] claims = {1, 2, 3};
        byte[] p = Challenge.proof(k, "client", c, s, claims);
        assertTrue(Challenge.check(k, p, "client", c, s, claims));
        assertFalse(Challenge.check(k, p, "server", c, s, claims), "reflected as the other side's");
        assertFalse(Challenge.check(k, p, "client", s, c, claims), "nonces swapped");
        assertFalse(Challenge.check(k, p, "client", c, Challenge.nonce(), claims), "another connection");
        assertFalse(Challenge.check(k, p, "client", c, s, new byte[] {1, 2, 4}), "other claims");
        assertFalse(Challenge.check(secret(4).authenticator("tcp"), p, "client", c, s, claims), "another job");
        assertFalse(Challenge.check(k, null, "client", c, s, claims));
        assertFalse(Challenge.check(k, new byte[3], "client", c, s, claims));
    }

    @Test
    void theSecretRoundTripsInHexAndNeverPrints() {
        JobSecret s = JobSecret.generate();
        JobSecret back = JobSecret.parse(s.toHex(), "COHORT_JOB_KEY");
        assertTrue(s.sameAs(back));
        assertArrayEquals(s.derive("x", 1), back.derive("x", 1));
        assertNotEquals(s.jobTag(), JobSecret.generate().jobTag());
        assertFalse(s.toString().contains(s.toHex().substring(0, 8)));
        CohortException e = assertThrows(CohortException.class, () -> JobSecret.parse("abc", "COHORT_JOB_KEY"));
        assertTrue(e.getMessage().startsWith("COHORT_JOB_KEY is not a job secret"), e.getMessage());
        assertFalse(e.getMessage().contains("abc"), "the value is never echoed");
        assertThrows(CohortException.class, () -> JobSecret.parse("zz".repeat(32), "COHORT_JOB_KEY"));
    }
}
