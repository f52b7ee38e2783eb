package io.cohort.transport.udp;

import io.cohort.auth.FrameAuthenticator;
import io.cohort.auth.JobSecret;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Hand-made datagrams for tests: a frame followed by a tag, either the one a member of the job
 * would write ({@link #seal}, the pair's key from {@link UdpChannel#signer}) or any other
 * ({@link #withTag}, what a forger without the secret can do).
 */
final class SignedFrames {
    private SignedFrames() {
    }

    /** {@code frame} with the tag {@code sender} writes for {@code receiver}. */
    static byte[] seal(JobSecret secret, int sender, int receiver, byte[] frame) {
        ByteBuffer b = ByteBuffer.allocate(frame.length + FrameAuthenticator.TAG_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.put(0, frame);
        UdpChannel.signer(secret, sender, receiver).sign(b, 0, frame.length);
        return b.array();
    }

    /** As {@link #seal}, the sender being the rank the frame's header claims (0 if it has none in range). */
    static byte[] sealAsClaimed(JobSecret secret, int size, int receiver, byte[] frame) {
        int claimed = frame.length >= UdpFrameDescriptor.RANK_OFFSET + 4
                ? ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN).getInt(UdpFrameDescriptor.RANK_OFFSET) : 0;
        return seal(secret, claimed >= 0 && claimed < size ? claimed : 0, receiver, frame);
    }

    /** {@code frame} followed by {@code tag} (any {@value FrameAuthenticator#TAG_BYTES} bytes). */
    static byte[] withTag(byte[] frame, byte[] tag) {
        byte[] d = Arrays.copyOf(frame, frame.length + FrameAuthenticator.TAG_BYTES);
        System.arraycopy(tag, 0, d, frame.length, FrameAuthenticator.TAG_BYTES);
        return d;
    }
}
