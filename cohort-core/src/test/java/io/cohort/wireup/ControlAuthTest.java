package io.cohort.wireup;

import io.cohort.auth.JobSecret;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The control connection's challenge-response, both sides, and the attacks it must stop. */
@Timeout(30)
class ControlAuthTest {
    private final JobSecret secret = JobSecret.generate();
    private final PeerRecord rank2 = new PeerRecord(2, 77, "h", Map.of("tcp", "10.0.0.2:1"));

    private static ControlFrame wire(ControlFrame f) throws IOException {
        return ControlFrame.parse(f.encode()); // as the other side reads it
    }

    @Test
    void bothSidesProveTheSecretAndNothingElsePasses() throws IOException {
        String nonce = ControlAuth.newClientNonce();
        ControlFrame hello = rank2.hello("job", nonce);
        ControlAuth client = ControlAuth.client(secret, nonce, hello);
        ControlAuth server = ControlAuth.server(secret, PeerRecord.parseHello(wire(hello)).nonce, wire(hello));
        assertNotNull(server);
        ControlFrame proof = client.answer(wire(server.challenge()));
        assertTrue(server.verify(wire(proof)));
        assertFalse(server.verify(null), "no answer");
        assertFalse(server.verify(ControlFrame.build(ControlMessageType.AUTH_PROOF).putBytes(new byte[16]).frame()));
        assertFalse(server.verify(ControlFrame.build(ControlMessageType.AUTH_PROOF).frame()), "a malformed body");
    }

    @Test
    void aHelloCapturedAndReplayedCannotBeCompletedWithoutTheSecret() throws IOException {
        String nonce = ControlAuth.newClientNonce();
        ControlFrame hello = rank2.hello("job", nonce);
        ControlAuth genuine = ControlAuth.client(secret, nonce, hello);
        ControlAuth first = ControlAuth.server(secret, nonce, wire(hello));
        ControlFrame capturedProof = genuine.answer(wire(first.challenge()));
        // The attacker replays the hello and the proof it saw on a new connection: a new server nonce.
        ControlAuth second = ControlAuth.server(secret, nonce, wire(hello));
        assertFalse(second.verify(wire(capturedProof)));
        // Nor can it answer the new challenge with another job's secret.
        ControlAuth attacker = ControlAuth.client(JobSecret.generate(), nonce, hello);
        assertThrows(IOException.class, () -> attacker.answer(wire(second.challenge())),
                "the attacker cannot even check the controller's proof");
    }

    @Test
    void aHelloAlteredInFlightFailsBothProofs() throws IOException {
        String nonce = ControlAuth.newClientNonce();
        ControlFrame hello = rank2.hello("job", nonce);
        ControlFrame altered = new PeerRecord(2, 77, "h", Map.of("tcp", "10.6.6.6:1")).hello("job", nonce);
        ControlAuth client = ControlAuth.client(secret, nonce, hello);
        ControlAuth server = ControlAuth.server(secret, nonce, wire(altered));
        IOException e = assertThrows(IOException.class, () -> client.answer(wire(server.challenge())));
        assertTrue(e.getMessage().contains("could not prove it holds the job's secret"), e.getMessage());
    }

    @Test
    void aFakeControllerIsRefusedByTheClient() throws IOException {
        String nonce = ControlAuth.newClientNonce();
        ControlFrame hello = rank2.hello("job", nonce);
        ControlAuth client = ControlAuth.client(secret, nonce, hello);
        ControlAuth fake = ControlAuth.server(JobSecret.generate(), nonce, wire(hello));
        assertThrows(IOException.class, () -> client.answer(wire(fake.challenge())));
        assertThrows(IOException.class, () -> client.answer(ControlFrame.build(ControlMessageType.PEER_TABLE).frame()),
                "a table instead of a challenge");
    }

    @Test
    void aNonceThatIsNoNonceIsRefusedUnanswered() {
        ControlFrame hello = rank2.hello("job", "zz");
        assertNull(ControlAuth.server(secret, "zz", hello));
        assertNull(ControlAuth.server(secret, "00", hello), "too short");
        assertNull(ControlAuth.server(secret, "a-job-key-of-old", hello));
    }

    /** Both sides after a completed challenge-response: [client seal, server seal]. */
    private ControlSeal[] sealedPair() throws IOException {
        String nonce = ControlAuth.newClientNonce();
        ControlFrame hello = rank2.hello("job", nonce);
        ControlAuth client = ControlAuth.client(secret, nonce, hello);
        ControlAuth server = ControlAuth.server(secret, nonce, wire(hello));
        assertTrue(server.verify(wire(client.answer(wire(server.challenge())))));
        return new ControlSeal[] {client.clientSeal(), server.serverSeal()};
    }

    @Test
    void framesAfterTheHandshakeAreSealedAndOpenOnlyInTheirOrderAndDirection() throws IOException {
        ControlSeal[] s = sealedPair();
        ControlFrame a = ControlFrame.build(ControlMessageType.PEER_FAILURE).putInt(3).putString("gone").frame();
        ControlFrame b = ControlFrame.build(ControlMessageType.PEER_FINALIZED).frame();
        ControlFrame sa = wire(s[0].seal(a));
        ControlFrame sb = wire(s[0].seal(b));
        ControlFrame opened = s[1].open(sa);
        assertEquals(ControlMessageType.PEER_FAILURE, opened.type());
        assertArrayEquals(a.body(), opened.body());
        assertArrayEquals(b.body(), s[1].open(sb).body());
        // A replay of an earlier frame is out of order now.
        IOException e = assertThrows(IOException.class, () -> s[1].open(sa));
        assertTrue(e.getMessage().contains("tampered"), e.getMessage());
    }

    @Test
    void anInjectedChangedReflectedOrBareFrameIsRefused() throws IOException {
        ControlSeal[] s = sealedPair();
        ControlFrame launch = ControlFrame.build(ControlMessageType.LAUNCH).putString("/tmp").putInt(0).frame();
        // Injected: a frame sealed under another connection's keys.
        ControlSeal[] other = sealedPair();
        assertThrows(IOException.class, () -> s[0].open(wire(other[1].seal(launch))));
        // Changed: one byte of a genuine frame.
        ControlFrame genuine = wire(s[1].seal(launch));
        byte[] body = genuine.body().clone();
        body[0] ^= 1;
        assertThrows(IOException.class, () -> s[0].open(new ControlFrame(genuine.type(), body)));
        // Retyped: the same body under another type.
        assertThrows(IOException.class, () -> s[0].open(new ControlFrame(ControlMessageType.STDIN, genuine.body())));
        // Reflected: the controller's own frame sent back to it.
        assertThrows(IOException.class, () -> s[1].open(genuine));
        // Bare: no tag at all.
        assertThrows(IOException.class, () -> s[0].open(ControlFrame.build(ControlMessageType.ABORT).frame()));
        // The genuine frame, in its place, still opens.
        assertEquals(ControlMessageType.LAUNCH, s[0].open(genuine).type());
    }

    @Test
    void aPeersHelloCannotBeTakenForAnIoManagersOrTheOtherWayRound() throws IOException {
        String nonce = ControlAuth.newClientNonce();
        ControlFrame hello = rank2.hello("job", nonce);
        ControlFrame retyped = new ControlFrame(ControlMessageType.IOM_HELLO, hello.body());
        ControlAuth client = ControlAuth.client(secret, nonce, hello);
        ControlAuth server = ControlAuth.server(secret, nonce, wire(retyped));
        assertThrows(IOException.class, () -> client.answer(wire(server.challenge())));
    }
}
