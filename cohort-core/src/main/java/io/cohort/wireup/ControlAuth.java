package io.cohort.wireup;

import io.cohort.auth.Challenge;
import io.cohort.auth.FrameAuthenticator;
import io.cohort.auth.JobSecret;

import java.io.IOException;
import java.util.HexFormat;

/**
 * The mutual challenge-response that opens every control connection of a job (a peer's or an
 * io-manager's to the controller), so that neither the job's secret nor anything a listener could
 * replay crosses the network:
 *
 * <pre>
 *   client ── hello (its claims, and a fresh client nonce) ──────────────────────► controller
 *   client ◄── {@link ControlMessageType#AUTH_CHALLENGE}: server nonce, server proof ── controller
 *   client ── {@link ControlMessageType#AUTH_PROOF}: client proof ─────────────────► controller
 * </pre>
 *
 * Each proof is {@link Challenge#proof} under a key derived from the job's secret, over both nonces
 * and the hello's whole body: a captured hello replayed on a new connection meets a new server nonce
 * and cannot be answered; a hello altered in flight (another rank, other endpoints) no longer matches
 * either proof. The client believes nothing the controller sends before the controller's proof has
 * verified, and the controller counts a client as one of the job's only once the client's has. Every
 * frame after that carries a tag of its own ({@link ControlSeal}).
 *
 * <p>One object per connection and side; not thread-safe.
 */
public final class ControlAuth {
    private static final String SERVER = "control-server";
    private static final String CLIENT = "control-client";

    private final FrameAuthenticator key;
    private final byte[] clientNonce;
    private final byte[] hello;
    private byte[] serverNonce;

    private ControlAuth(JobSecret secret, byte[] clientNonce, ControlFrame hello) {
        this.key = secret.authenticator("control");
        this.clientNonce = clientNonce;
        // The type too: a peer's hello and an io-manager's share the key and the roles.
        this.hello = new byte[1 + hello.body().length];
        this.hello[0] = (byte) hello.type();
        System.arraycopy(hello.body(), 0, this.hello, 1, hello.body().length);
    }

    /** A fresh client nonce, in the hex form a hello carries it in. */
    public static String newClientNonce() {
        return HexFormat.of().formatHex(Challenge.nonce());
    }

    // ---- the client: a peer or an io-manager ---------------------------------------------------------

    /** The client's side of the connection whose hello (carrying {@code clientNonce}) is {@code hello}. */
    public static ControlAuth client(JobSecret secret, String clientNonce, ControlFrame hello) {
        return new ControlAuth(secret, HexFormat.of().parseHex(clientNonce), hello);
    }

    /**
     * Checks the controller's {@link ControlMessageType#AUTH_CHALLENGE} and returns the
     * {@link ControlMessageType#AUTH_PROOF} to send.
     *
     * @throws IOException with one sentence when the challenge is malformed or the controller cannot
     *                     prove it holds the job's secret (someone else answered on its address)
     */
    public ControlFrame answer(ControlFrame challenge) throws IOException {
        if (challenge.type() != ControlMessageType.AUTH_CHALLENGE) {
            throw new IOException("the launcher did not authenticate itself (frame type " + challenge.type() + ")");
        }
        ControlFrame.BodyReader r = challenge.reader();
        byte[] nonce = r.getBytes();
        byte[] proof = r.getBytes();
        if (nonce.length != Challenge.NONCE_BYTES || !Challenge.check(key, proof, SERVER, clientNonce, nonce, hello)) {
            throw new IOException("the process at the launcher's address could not prove it holds the job's secret");
        }
        serverNonce = nonce;
        return ControlFrame.build(ControlMessageType.AUTH_PROOF)
                .putBytes(Challenge.proof(key, CLIENT, clientNonce, serverNonce, hello)).frame();
    }

    /**
     * The tags of every later frame ({@link ControlSeal}), for the client once {@link #answer} has
     * returned: its frames to the controller go out sealed from the next one on, and every frame the
     * controller sends after its challenge comes sealed.
     */
    public ControlSeal clientSeal() {
        return new ControlSeal(streamKey(CLIENT), streamKey(SERVER));
    }

    // ---- the controller ------------------------------------------------------------------------------

    /**
     * The controller's side for a connection whose first frame was {@code hello}, carrying the hex
     * {@code clientNonce}; null when that is no nonce (the connection is then refused unanswered).
     */
    public static ControlAuth server(JobSecret secret, String clientNonce, ControlFrame hello) {
        byte[] nonce;
        try {
            nonce = HexFormat.of().parseHex(clientNonce);
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (nonce.length != Challenge.NONCE_BYTES) {
            return null;
        }
        ControlAuth a = new ControlAuth(secret, nonce, hello);
        a.serverNonce = Challenge.nonce();
        return a;
    }

    /** The {@link ControlMessageType#AUTH_CHALLENGE} to send: our nonce, and our proof. */
    public ControlFrame challenge() {
        return ControlFrame.build(ControlMessageType.AUTH_CHALLENGE).putBytes(serverNonce)
                .putBytes(Challenge.proof(key, SERVER, clientNonce, serverNonce, hello)).frame();
    }

    /** The controller's {@link ControlSeal}, once {@link #verify} has said yes. */
    public ControlSeal serverSeal() {
        return new ControlSeal(streamKey(SERVER), streamKey(CLIENT));
    }

    /** The key of the frames {@code role} sends on this connection: its own nonces make it this connection's alone. */
    private FrameAuthenticator streamKey(String role) {
        if (serverNonce == null) {
            throw new IllegalStateException("no seal before the challenge-response");
        }
        return key.derive(("control-stream/" + role).getBytes(java.nio.charset.StandardCharsets.UTF_8), clientNonce,
                serverNonce);
    }

    /** Whether {@code reply} is the client's valid {@link ControlMessageType#AUTH_PROOF}. */
    public boolean verify(ControlFrame reply) {
        if (reply == null || reply.type() != ControlMessageType.AUTH_PROOF) {
            return false;
        }
        try {
            return Challenge.check(key, reply.reader().getBytes(), CLIENT, clientNonce, serverNonce, hello);
        } catch (IOException e) {
            return false; // a malformed body
        }
    }
}
