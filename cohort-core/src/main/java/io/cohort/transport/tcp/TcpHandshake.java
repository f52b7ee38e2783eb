package io.cohort.transport.tcp;

import io.cohort.auth.Challenge;
import io.cohort.auth.FrameAuthenticator;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.util.function.IntPredicate;

/**
 * One new connection's mutual challenge-response ({@link HandshakeDescriptor}), driven by the mesh's
 * selector: it never blocks, and reads exactly the bytes of the step it is in, so that what follows
 * the handshake stays in the socket for the frame reader.
 *
 * <pre>
 *  connector                                   acceptor
 *    hello(rank, nonce C)          ─────►        checks the hello is this job's and the rank admissible
 *                                  ◄─────        hello(rank, nonce A) + proof("tcp-acceptor", C, A, claims)
 *    checks the hello and proof
 *    proof("tcp-connector", C, A, claims) ───►   checks the proof
 * </pre>
 *
 * The acceptor says nothing to a connection until it has sent a hello of this job, so that a port
 * scan or another job's peer learns nothing and is refused before any proof is computed. Each proof
 * covers the other side's fresh nonce, so a handshake recorded from another connection proves
 * nothing on this one; and its own role, so neither proof can be reflected as the other's.
 *
 * <p>Owned by the thread that runs the mesh, as its {@link FrameAuthenticator} is.
 */
final class TcpHandshake {
    /** What the last {@link #read} found. */
    enum Step {
        /** Not finished: wait for more bytes. */
        WAITING,
        /** Both ends proved they hold the job's key: the channel is {@link #peer()}'s. */
        DONE,
        /** The other end's hello is not this job's: another job, another program, or claims this job cannot have. */
        NOT_OF_THIS_JOB,
        /** The other end sent a hello of this job but could not prove it holds the key. */
        FAILED_AUTHENTICATION,
        /** The other end closed or reset the connection before the handshake finished, or would not take our bytes. */
        CLOSED
    }

    /** What this end knows of itself: the same for every connection of one mesh. */
    record Self(int rank, int size, long jobTag, FrameAuthenticator key) {
    }

    final SocketChannel channel;
    /** The rank this end connects to, or -1 for an accepted connection. */
    final int expected;
    private final Self self;
    /** For an accepted connection: whether the rank its hello claims may connect now (higher, wanted, not yet a peer). */
    private final IntPredicate admissible;
    private final byte[] ownNonce = Challenge.nonce();
    private final ByteBuffer in = ByteBuffer.allocate(HandshakeDescriptor.LENGTH + HandshakeDescriptor.PROOF_LENGTH)
            .order(ByteOrder.LITTLE_ENDIAN);
    private byte[] theirNonce;
    private int peer = -1;

    private TcpHandshake(SocketChannel channel, int expected, Self self, IntPredicate admissible) {
        this.channel = channel;
        this.expected = expected;
        this.self = self;
        this.admissible = admissible;
        // The connector reads the acceptor's hello and proof together; the acceptor the hello first.
        in.limit(expected >= 0 ? in.capacity() : HandshakeDescriptor.LENGTH);
    }

    /** This end connects to {@code peer}: call {@link #start} once the connection is made. */
    static TcpHandshake connecting(SocketChannel channel, int peer, Self self) {
        return new TcpHandshake(channel, peer, self, r -> r == peer);
    }

    /** A connection this end accepted: it waits for the other end's hello. */
    static TcpHandshake accepted(SocketChannel channel, Self self, IntPredicate admissible) {
        return new TcpHandshake(channel, -1, self, admissible);
    }

    boolean isConnector() {
        return expected >= 0;
    }

    /** The other end's rank, once {@link Step#DONE}. */
    int peer() {
        return peer;
    }

    /**
     * Whether the other end has sent a hello of this job: if it now fails or stalls, it failed to
     * authenticate, rather than being a stranger.
     */
    boolean claimedMembership() {
        return theirNonce != null;
    }

    /** The connector's first move, once its connection is made. Returns false if the hello could not be sent. */
    boolean start() {
        return send(hello());
    }

    /** Reads what has arrived and takes every step it allows. */
    Step read() {
        int n;
        try {
            n = channel.read(in);
        } catch (IOException e) {
            n = -1;
        }
        if (n < 0) {
            return Step.CLOSED;
        }
        if (in.hasRemaining()) {
            return Step.WAITING;
        }
        return isConnector() ? connectorStep() : acceptorStep();
    }

    /** The connector has the acceptor's hello and proof: check both, then prove in turn. */
    private Step connectorStep() {
        Step hello = takeHello();
        if (hello != null) {
            return hello;
        }
        byte[] proof = new byte[HandshakeDescriptor.PROOF_LENGTH];
        in.get(HandshakeDescriptor.LENGTH, proof);
        byte[] bound = HandshakeDescriptor.bound(self.jobTag(), self.rank(), peer, self.size());
        if (!Challenge.check(self.key(), proof, HandshakeDescriptor.ACCEPTOR, ownNonce, theirNonce, bound)) {
            return Step.FAILED_AUTHENTICATION;
        }
        byte[] ours = Challenge.proof(self.key(), HandshakeDescriptor.CONNECTOR, ownNonce, theirNonce, bound);
        return send(ours) ? Step.DONE : Step.CLOSED;
    }

    /** The acceptor has the connector's hello (first call) or its proof (second call). */
    private Step acceptorStep() {
        if (theirNonce == null) {
            Step hello = takeHello();
            if (hello != null) {
                return hello;
            }
            // Only now, to a connection that claims to be a member we wait for, does this end speak.
            byte[] bound = HandshakeDescriptor.bound(self.jobTag(), peer, self.rank(), self.size());
            byte[] proof = Challenge.proof(self.key(), HandshakeDescriptor.ACCEPTOR, theirNonce, ownNonce, bound);
            ByteBuffer out = hello();
            ByteBuffer both = ByteBuffer.allocate(out.remaining() + proof.length).put(out).put(proof).flip();
            if (!send(both)) {
                return Step.CLOSED;
            }
            in.limit(in.capacity()); // then exactly the proof: the frames after it are the frame reader's
            return read();
        }
        byte[] proof = new byte[HandshakeDescriptor.PROOF_LENGTH];
        in.get(HandshakeDescriptor.LENGTH, proof);
        byte[] bound = HandshakeDescriptor.bound(self.jobTag(), peer, self.rank(), self.size());
        return Challenge.check(self.key(), proof, HandshakeDescriptor.CONNECTOR, theirNonce, ownNonce, bound)
                ? Step.DONE : Step.FAILED_AUTHENTICATION;
    }

    /** Checks the other end's hello and keeps its rank and nonce; returns null when it is this job's and admissible. */
    private Step takeHello() {
        int claimed = HandshakeDescriptor.validate(in, 0, self.jobTag(), self.size());
        if (claimed < 0 || claimed == self.rank() || !admissible.test(claimed)) {
            return Step.NOT_OF_THIS_JOB;
        }
        peer = claimed;
        theirNonce = HandshakeDescriptor.nonce(in, 0);
        return null;
    }

    private ByteBuffer hello() {
        ByteBuffer out = ByteBuffer.allocate(HandshakeDescriptor.LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        HandshakeDescriptor.write(out, self.jobTag(), self.rank(), self.size(), ownNonce);
        return out.flip();
    }

    /**
     * Writes {@code out} whole or reports that it could not. A new connection's empty send buffer
     * always takes a handshake's few dozen bytes, so a short write means a peer that does not read:
     * it is dropped rather than waited for (never spin on a stranger).
     */
    private boolean send(ByteBuffer out) {
        try {
            channel.write(out);
        } catch (IOException e) {
            return false;
        }
        return !out.hasRemaining();
    }

    private boolean send(byte[] out) {
        return send(ByteBuffer.wrap(out));
    }
}
