package io.cohort.tools.prof;

/**
 * Protocol trouble of one transport on one peer (or summed over peers): NACKs sent, retransmissions
 * and their bytes, flow-control stalls and the time spent in them. Mutable while a file is read.
 */
public final class ProtocolStats {
    long nacks;
    long retransmissions;
    long retransmittedBytes;
    long stalls;
    long stallNanos;

    public long nacks() {
        return nacks;
    }

    public long retransmissions() {
        return retransmissions;
    }

    public long retransmittedBytes() {
        return retransmittedBytes;
    }

    public long stalls() {
        return stalls;
    }

    public long stallNanos() {
        return stallNanos;
    }

    void add(ProtocolStats o) {
        nacks += o.nacks;
        retransmissions += o.retransmissions;
        retransmittedBytes += o.retransmittedBytes;
        stalls += o.stalls;
        stallNanos += o.stallNanos;
    }
}
