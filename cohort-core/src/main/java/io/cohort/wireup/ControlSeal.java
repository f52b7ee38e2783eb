package io.cohort.wireup;

import io.cohort.auth.FrameAuthenticator;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.Arrays;

/**
 * The tags on a control connection's frames once {@link ControlAuth} has run: every frame after the
 * challenge-response carries, as the last {@value FrameAuthenticator#TAG_BYTES} bytes of its body, a
 * tag over its number in its direction, its type and its body, under a key of that connection and
 * direction (derived from both nonces). A frame injected into the stream, changed, dropped, replayed or
 * reordered, or sent back the other way, fails its tag, and the connection is given up: the frames
 * that follow the handshake (LAUNCH, STDIN, ABORT, PEER_TABLE...) are believed only from the side that
 * proved itself.
 *
 * <p>{@link #seal} belongs to the sending side's lock (the numbers must follow the bytes' order on
 * the stream), {@link #open} to the one reading thread; the two directions have authenticators of
 * their own, so the two may run at once.
 */
public final class ControlSeal {
    private final FrameAuthenticator out;
    private final FrameAuthenticator in;
    private long sent;
    private long received;

    ControlSeal(FrameAuthenticator out, FrameAuthenticator in) {
        this.out = out;
        this.in = in;
    }

    /** {@code f} with its tag appended; the next frame's number follows. Under the sending lock. */
    public ControlFrame seal(ControlFrame f) {
        byte[] body = f.body();
        byte[] tag = out.tag(header(sent++, f.type()), body);
        byte[] sealed = Arrays.copyOf(body, body.length + tag.length);
        System.arraycopy(tag, 0, sealed, body.length, tag.length);
        return new ControlFrame(f.type(), sealed);
    }

    /**
     * {@code f} without its tag, once the tag has verified as the next frame's of this direction.
     *
     * @throws IOException with one sentence when it does not (the connection must then be closed)
     */
    public ControlFrame open(ControlFrame f) throws IOException {
        byte[] body = f.body();
        if (body.length < FrameAuthenticator.TAG_BYTES) {
            throw new IOException("a control frame arrived without its tag: the connection was tampered with");
        }
        int n = body.length - FrameAuthenticator.TAG_BYTES;
        byte[] content = Arrays.copyOf(body, n);
        byte[] expected = in.tag(header(received, f.type()), content);
        if (!MessageDigest.isEqual(expected, Arrays.copyOfRange(body, n, body.length))) {
            throw new IOException("a control frame failed its tag: the connection was tampered with");
        }
        received++;
        return new ControlFrame(f.type(), content);
    }

    private static byte[] header(long number, int type) {
        return ByteBuffer.allocate(Long.BYTES + Integer.BYTES).putLong(number).putInt(type).array();
    }
}
