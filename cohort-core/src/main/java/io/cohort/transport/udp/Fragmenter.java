package io.cohort.transport.udp;

/**
 * Cuts messages into frames that fit the pair's datagram size: the first fragment carries the
 * message header ({@link UdpFrameDescriptor#FIRST_HEADER_LENGTH} bytes of header in all), the rest
 * only the common header. A zero-length message is one first fragment without payload; the
 * goodbye is one frame without any. Messages up to 2 GiB - 1 need at most about 1.5 million
 * fragments at the smallest datagram size, far below the sequence space.
 */
final class Fragmenter {
    private final int firstCapacity;
    private final int moreCapacity;

    Fragmenter(int datagramBytes) {
        this.firstCapacity = datagramBytes - UdpFrameDescriptor.FIRST_HEADER_LENGTH;
        this.moreCapacity = datagramBytes - UdpFrameDescriptor.HEADER_LENGTH;
        if (firstCapacity < 1) {
            throw new IllegalArgumentException("datagrams of " + datagramBytes + " bytes cannot carry a message");
        }
    }

    /**
     * Cuts the next fragment of {@code m} and returns its payload length; the fragment's offset in the
     * message is {@code m.fragmented} before the call. Call only while {@code !m.fullyFragmented()}.
     */
    int next(OutboundMessage m) {
        boolean first = !m.started;
        int n = Math.min(m.length - m.fragmented, first ? firstCapacity : moreCapacity);
        m.started = true;
        m.fragmented += n;
        return n;
    }

    /** How many frames a message of {@code length} bytes takes. */
    long fragments(long length) {
        if (length <= firstCapacity) {
            return 1;
        }
        return 1 + (length - firstCapacity + moreCapacity - 1) / moreCapacity;
    }

    int firstCapacity() {
        return firstCapacity;
    }

    int moreCapacity() {
        return moreCapacity;
    }
}
