package io.cohort.transport.shm;

import io.cohort.transport.InboundSink;
import io.cohort.transport.SendCompletion;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * One local peer: records in through the ring it writes to us ({@link ShmReceiver}), records out
 * through the ring we write to it ({@link ShmSender}). A ring has no end of stream: a peer that
 * dies is reported by the launcher ({@link #peerGone}), and the ring tells whether it said
 * goodbye first.
 */
final class ShmConnection {
    final int peer;
    final String peerName;
    private final InboundSink sink;
    private final ShmReceiver receiver;
    private final ShmSender sender;
    private final ShmRing in;
    /** The peer's doorbell, rung when it sleeps waiting for room we free; null without doorbells. */
    private final ShmDoorbell bell;
    private final InetSocketAddress peerBell;

    ShmConnection(int peer, String peerName, ShmRing in, ShmRing out, InboundSink sink, ShmDoorbell bell) {
        this.peer = peer;
        this.peerName = peerName;
        this.sink = sink;
        this.in = in;
        this.receiver = new ShmReceiver(peer, in, sink);
        this.sender = new ShmSender(peer, out, bell);
        boolean rings = bell != null && out.doorbellPort() != 0;
        this.bell = rings ? bell : null;
        this.peerBell = rings ? ShmDoorbell.at(out.doorbellPort()) : null;
        if (rings) {
            bell.expect(out.doorbellPort()); // the peer rings us from there
        }
    }

    /** Progress owner, about to sleep: ask to be rung for records, and for room if sends wait for it. */
    void arm() {
        in.armDoorbell();
        sender.armRoomBell();
    }

    void disarm() {
        in.disarmDoorbell();
        sender.disarmRoomBell();
    }

    /** Sends {@code length} bytes of {@code payload} from index {@code offset}. */
    void send(int context, int tag, ByteBuffer payload, int offset, int length, SendCompletion completion) {
        sender.send(context, tag, payload, offset, length, completion);
    }

    void sendBye() {
        sender.sendBye();
    }

    /** The peer's goodbye has been handed to the sink; progress owner only. */
    private boolean byeReported;

    /** Progress owner: read what arrived, push what waits. Returns work done. */
    int poll() {
        if (sender.isEnded()) {
            return 0;
        }
        int work = receiver.poll();
        if (work > 0 && bell != null && in.takeRoomBell()) {
            bell.ring(peerBell);
        }
        if (receiver.malformed() != null) {
            lost(peerName + " wrote " + receiver.malformed() + " into its shared-memory ring; giving it up");
            return work;
        }
        if (!byeReported && receiver.byeReceived()) {
            byeReported = true;
            sink.peerClosed(peer); // the ring is in order: everything the peer sent is delivered
        }
        // Only progress counts as work: a sender waiting for room may then sleep (the receiver rings
        // it when it frees some) instead of spinning on a full ring.
        if (sender.isPending() && sender.flush()) {
            work++;
        }
        return work;
    }

    boolean isCloseComplete() {
        return sender.isEnded() || (receiver.byeReceived() && !sender.hasPending());
    }

    /** The launcher says the peer's process is gone: whatever it wrote is in the ring already. */
    void peerGone(String reason) {
        if (sender.isEnded()) {
            return;
        }
        while (receiver.poll() > 0 && receiver.malformed() == null) {
            // drain: messages the peer finished before it died are still delivered
        }
        if (receiver.byeReceived() && receiver.malformed() == null) {
            endQuietly();
        } else {
            lost(reason);
        }
    }

    /** The first end wins: the sender knows whether it has ended already. */
    void lost(String reason) {
        if (sender.end(reason)) {
            sink.peerFailed(peer, reason);
        }
    }

    void endQuietly() {
        sender.end(null);
    }
}
