package io.cohort.transport.udp;

import io.cohort.transport.InboundSink;

import java.nio.ByteBuffer;

/**
 * The receive side of one pair: takes the peer's sequenced frames (DATA and BYE) as they come,
 * holds early ones in the {@link ReceiveWindow}, and hands every frame to the {@link Reassembler}
 * exactly once and in order, the frame that fills a gap followed by every held frame after it. It
 * also answers what the acknowledgements must say (the cumulative ack and the selective maps).
 *
 * <p>A frame that cannot belong to the stream (data after the goodbye, a goodbye inside a message,
 * a fragment that does not fit its message) is counted as malformed and breaks the stream: the
 * pair fails the peer with the reason {@link #failure()} gives. Such a frame passed every check a
 * single datagram allows, its tag included, so the peer itself made it: a broken peer, not a
 * stranger.
 *
 * <p>Threads: the progress owner only, except {@link #byeReceived()} (volatile: the close check may
 * run on a parked waiter's thread) and {@link #windowFrames()} (final).
 */
final class InboundSequencer {
    /** {@link #accept} results. */
    static final int IN_ORDER = 0;
    static final int EARLY = 1;
    static final int DUPLICATE = 2;
    static final int BROKEN = -1;

    private final ReceiveWindow window;
    private final Reassembler reassembler;
    private final UdpCounters counters;
    private final String peerName;
    private volatile boolean byeReceived;
    private boolean byeJustReceived;
    private String failure;

    InboundSequencer(int peer, String peerName, int windowFrames, InboundSink sink, UdpCounters counters) {
        this.window = new ReceiveWindow(windowFrames);
        this.reassembler = new Reassembler(peer, sink);
        this.counters = counters;
        this.peerName = peerName;
    }

    /** Whether a sequenced frame numbered {@code seq} is outside the window (to be dropped unread). */
    boolean outOfWindow(int seq) {
        return window.classify(seq) == ReceiveWindow.OUT_OF_WINDOW;
    }

    /**
     * Takes sequenced frame {@code seq} at {@code [0, length)} of {@code b} (in the window): delivers it
     * and every held frame it unblocks, or holds it, or recognises a duplicate. Returns
     * {@link #IN_ORDER}, {@link #EARLY}, {@link #DUPLICATE} or {@link #BROKEN}.
     */
    int accept(int seq, ByteBuffer b, int length) {
        switch (window.classify(seq)) {
            case ReceiveWindow.DUPLICATE:
                counters.duplicates.incrementAndGet();
                return DUPLICATE;
            case ReceiveWindow.EARLY:
                window.hold(seq, b, length);
                return EARLY;
            case ReceiveWindow.IN_ORDER:
                if (!deliver(b, length)) {
                    return BROKEN;
                }
                window.advance();
                ByteBuffer held;
                while ((held = window.nextHeld()) != null) {
                    if (!deliver(held, held.limit())) {
                        return BROKEN;
                    }
                    window.releaseHeld();
                }
                return IN_ORDER;
            default: // not reached: the pair drops frames outside the window before their acks are read
                counters.outOfWindow.incrementAndGet();
                return DUPLICATE;
        }
    }

    private boolean deliver(ByteBuffer b, int length) {
        if (byeReceived) {
            return broken(peerName + " sent data after its goodbye; treating it as failed");
        }
        if (UdpFrameDescriptor.type(b) == UdpFrameDescriptor.TYPE_BYE) {
            if (reassembler.inMessage()) {
                return broken(peerName + " said goodbye in the middle of a message; treating it as failed");
            }
            byeReceived = true;
            byeJustReceived = true;
            return true;
        }
        int r = UdpFrameDescriptor.isFirst(b)
                ? reassembler.first(UdpFrameDescriptor.context(b), UdpFrameDescriptor.tag(b),
                        UdpFrameDescriptor.messageLength(b), b, UdpFrameDescriptor.FIRST_HEADER_LENGTH,
                        length - UdpFrameDescriptor.FIRST_HEADER_LENGTH)
                : reassembler.more(b, UdpFrameDescriptor.HEADER_LENGTH, length - UdpFrameDescriptor.HEADER_LENGTH);
        if (r == Reassembler.MALFORMED) {
            return broken(peerName + " sent a fragment that does not fit its message stream; treating it as failed");
        }
        if (r == Reassembler.COMPLETE) {
            counters.messagesDelivered.incrementAndGet();
        }
        return true;
    }

    private boolean broken(String reason) {
        counters.malformed.incrementAndGet();
        failure = reason;
        return false;
    }

    /** Why the stream broke, after {@link #accept} returned {@link #BROKEN}. */
    String failure() {
        return failure;
    }

    boolean byeReceived() {
        return byeReceived;
    }

    /** Whether the goodbye arrived since the last {@link #takeByeJustReceived()}. */
    boolean byeJustReceived() {
        return byeJustReceived;
    }

    /** As {@link #byeJustReceived()}, and forgets it. */
    boolean takeByeJustReceived() {
        boolean b = byeJustReceived;
        byeJustReceived = false;
        return b;
    }

    /** The cumulative ack: every frame below it has arrived. */
    int ack() {
        return window.ack();
    }

    long sackBits() {
        return window.sackBits();
    }

    int extraBytes() {
        return window.extraBytes();
    }

    void writeExtra(ByteBuffer b, int bytes) {
        window.writeExtra(b, bytes);
    }

    int windowFrames() {
        return window.window();
    }

    int held() {
        return window.held();
    }

    int missing() {
        return window.missing();
    }
}
