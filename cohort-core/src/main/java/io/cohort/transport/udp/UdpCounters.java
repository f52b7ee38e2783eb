package io.cohort.transport.udp;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What one peer's {@code udp} transport did, for tests, benchmarks and diagnosis. Each counter is
 * atomic; a set of them read one after another is not a snapshot.
 */
public final class UdpCounters {
    final AtomicLong truncated = new AtomicLong();
    final AtomicLong notCohort = new AtomicLong();
    final AtomicLong wrongVersion = new AtomicLong();
    final AtomicLong wrongJob = new AtomicLong();
    final AtomicLong unknownSender = new AtomicLong();
    final AtomicLong forged = new AtomicLong();
    final AtomicLong malformed = new AtomicLong();
    final AtomicLong outOfWindow = new AtomicLong();
    final AtomicLong badAck = new AtomicLong();
    final AtomicLong afterEnd = new AtomicLong();
    final AtomicLong duplicates = new AtomicLong();
    final AtomicLong framesSent = new AtomicLong();
    final AtomicLong retransmissions = new AtomicLong();
    final AtomicLong timeouts = new AtomicLong();
    final AtomicLong acksSent = new AtomicLong();
    final AtomicLong messagesSent = new AtomicLong();
    final AtomicLong messagesDelivered = new AtomicLong();
    final AtomicLong backPressured = new AtomicLong();

    /** Dropped: shorter than their header says. */
    public long truncated() {
        return truncated.get();
    }

    /** Dropped: another magic (not Cohort's). */
    public long notCohort() {
        return notCohort.get();
    }

    /** Dropped: another protocol version. */
    public long wrongVersion() {
        return wrongVersion.get();
    }

    /** Dropped: another job's key. */
    public long wrongJob() {
        return wrongJob.get();
    }

    /**
     * Dropped: a genuine frame from an address that is not the claimed rank's socket, or a rank
     * this peer has no pair with.
     */
    public long unknownSender() {
        return unknownSender.get();
    }

    /**
     * Dropped: failed authentication. The tag is not the one the claimed sender's key gives for
     * this frame: forged, meant for another peer, or changed on the way.
     */
    public long forged() {
        return forged.get();
    }

    /** Dropped: an impossible rank, type, flag, length or message framing. */
    public long malformed() {
        return malformed.get();
    }

    /** Dropped: a sequence number outside the receive window. */
    public long outOfWindow() {
        return outOfWindow.get();
    }

    /** Dropped: acknowledged frames never sent. */
    public long badAck() {
        return badAck.get();
    }

    /** Dropped: from a peer whose connection had ended (closed or failed). */
    public long afterEnd() {
        return afterEnd.get();
    }

    /** Every datagram dropped for one of the reasons above. */
    public long dropped() {
        return truncated() + notCohort() + wrongVersion() + wrongJob() + unknownSender() + forged() + malformed()
                + outOfWindow() + badAck() + afterEnd();
    }

    /** Frames that had arrived before (retransmitted or duplicated on the way); ignored, acknowledged again. */
    public long duplicates() {
        return duplicates.get();
    }

    /** Sequenced frames sent for the first time. */
    public long framesSent() {
        return framesSent.get();
    }

    /** Sequenced frames sent again (after a loss was detected or the timer expired). */
    public long retransmissions() {
        return retransmissions.get();
    }

    /** Retransmission timer expiries. */
    public long timeouts() {
        return timeouts.get();
    }

    /** ACK frames sent (explicit acks and keepalives). */
    public long acksSent() {
        return acksSent.get();
    }

    public long messagesSent() {
        return messagesSent.get();
    }

    public long messagesDelivered() {
        return messagesDelivered.get();
    }

    /** Sends not copied because the overflow limit was reached (they completed only when acknowledged). */
    public long backPressured() {
        return backPressured.get();
    }

    @Override
    public String toString() {
        return "messages sent " + messagesSent() + ", delivered " + messagesDelivered() + "; frames sent " + framesSent()
                + ", retransmitted " + retransmissions() + " (" + timeouts() + " time-outs), acks " + acksSent()
                + ", duplicates " + duplicates() + "; dropped " + dropped() + " (truncated " + truncated() + ", not cohort "
                + notCohort() + ", version " + wrongVersion() + ", wrong job " + wrongJob() + ", unknown sender "
                + unknownSender() + ", failed authentication " + forged() + ", malformed " + malformed() + ", out of window " + outOfWindow() + ", bad ack "
                + badAck() + ", after end " + afterEnd() + ")";
    }
}
