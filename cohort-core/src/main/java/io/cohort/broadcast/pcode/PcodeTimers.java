package io.cohort.broadcast.pcode;

/**
 * Every time-driven action of the protocol (section 5.7), run by whoever polls:
 *
 * How long each waits is {@link NackPacing}'s: the settings, lengthened when this domain measures
 * that originals arrive later, or answers come back slower, than they allow.
 *
 * <ul>
 *   <li>the REQUEST NACK of the one pending request: first after REQUEST_NACK_DELAY, then every
 *       NACK_INTERVAL (P0's timer, with PCODE's initial delay);</li>
 *   <li>one PERSONAL_GAP NACK timer per stream and one GLOBAL_GAP timer: first after
 *       GAP_NACK_DELAY (a gap is often just reordering), then every NACK_INTERVAL while the gap
 *       lasts;</li>
 *   <li>STATUS: when the global counter grew by STATUS_WINDOW since the last one, when something
 *       was handled and none went out for STATUS_IDLE, and soon after another peer asked for
 *       PROGRESS (5.5);</li>
 *   <li>while a multicast is stalled (full sent buffer, closed flow window): a STATUS carrying a
 *       PROGRESS request every NACK_INTERVAL, so the peers we wait for report.</li>
 * </ul>
 *
 * Runs under the domain's lock.
 */
final class PcodeTimers {
    /** A requested STATUS is sent at most this often, however many peers ask. */
    static final long STATUS_ANSWER_GAP_NANOS = 100_000;
    private final PcodeDomain d;
    private final NackTimer request = new NackTimer();
    private int requestStream = -1;
    private final NackTimer[] personalGap;
    private final NackTimer globalGap = new NackTimer();
    private final NackTimer stall = new NackTimer();
    private long lastStatusCounter;
    private long lastStatusNanos;
    private boolean handledSinceStatus;
    private boolean progressRequested;

    PcodeTimers(PcodeDomain domain) {
        this.d = domain;
        this.personalGap = new NackTimer[2 * domain.size];
        for (int i = 0; i < personalGap.length; i++) {
            personalGap[i] = new NackTimer();
        }
        this.lastStatusNanos = System.nanoTime();
    }

    void requestPending(int stream, long now) {
        if (requestStream != stream) {
            request.disarm();
            requestStream = stream;
        }
        if (!request.isArmed()) {
            d.pacing.need(stream, expected(stream), now);
            request.armIfIdle(now, d.pacing.requestDelay());
        }
    }

    private long expected(int stream) {
        return stream >= d.size ? d.p2pReceived.expected(stream - d.size) : d.pcv.expected(stream);
    }

    void requestSatisfied() {
        request.disarm();
        requestStream = -1;
    }

    void personalGap(int stream, long now) {
        if (!personalGap[stream].isArmed()) {
            d.pacing.need(stream, expected(stream), now);
            personalGap[stream].armIfIdle(now, d.ctx.gapNackDelayNanos);
        }
    }

    void globalGap(long now) {
        globalGap.armIfIdle(now, d.ctx.gapNackDelayNanos);
    }

    void stalled(boolean yes, long now) {
        if (yes) {
            stall.armIfIdle(now, 0);
        } else {
            stall.disarm();
        }
    }

    void handled() {
        handledSinceStatus = true;
    }

    void sentOriginal() {
        // nothing to arm: run() compares the counter with the last STATUS
    }

    void progressRequested() {
        progressRequested = true;
    }

    void statusSent(long now) {
        lastStatusCounter = d.globalCounter.value();
        lastStatusNanos = now;
        handledSinceStatus = false;
        progressRequested = false;
    }

    /** Fires what is due; returns the number of frames sent. */
    int run(long now) {
        int work = 0;
        if (requestStream >= 0 && request.fire(now, d.pacing.repeatInterval(requestStream))) {
            int stream = requestStream;
            boolean p2p = stream >= d.size;
            int from = p2p ? stream - d.size : stream;
            long last = (p2p ? d.p2pReceived : d.pcv).get(from);
            long upTo = d.early.lowest(stream);
            d.sender.sendPersonalNack(NackFrameDescriptor.KIND_REQUEST, from, p2p, last,
                    upTo == Long.MAX_VALUE ? Long.MAX_VALUE : upTo - 1);
            d.pacing.nackSent(stream, now);
            work++;
        }
        for (int stream = 0; stream < personalGap.length; stream++) {
            NackTimer t = personalGap[stream];
            if (!t.isArmed()) {
                continue;
            }
            if (!d.receiver.hasGap(stream)) {
                t.disarm();
            } else if (t.fire(now, d.pacing.repeatInterval(stream))) {
                boolean p2p = stream >= d.size;
                int from = p2p ? stream - d.size : stream;
                long last = (p2p ? d.p2pReceived : d.pcv).get(from);
                long upTo = Math.min(d.early.lowest(stream) - 1, d.highestSeen[stream]);
                d.sender.sendPersonalNack(NackFrameDescriptor.KIND_PERSONAL_GAP, from, p2p, last, upTo);
                d.pacing.nackSent(stream, now);
                work++;
            }
        }
        if (globalGap.isArmed()) {
            if (!d.globalCounter.hasGap()) {
                globalGap.disarm();
            } else if (globalGap.fire(now, d.pacing.baseInterval())) {
                d.sender.sendGlobalNack(d.globalCounter.gapFrom(), d.globalCounter.gapTo());
                work++;
            }
        }
        if (stall.fire(now, d.pacing.baseInterval())) {
            d.sender.sendStatus(BcastHeaderDescriptor.FLAG_PROGRESS_REQUEST, now);
            work++;
        } else if (d.globalCounter.value() - lastStatusCounter >= d.ctx.statusWindow
                || (handledSinceStatus && now - lastStatusNanos >= d.ctx.statusIdleNanos)
                || (progressRequested && now - lastStatusNanos >= STATUS_ANSWER_GAP_NANOS)) {
            d.sender.sendStatus(0, now);
            work++;
        }
        return work;
    }

    /** The earliest instant a timer wants to run. */
    long nextDue(long now) {
        long due = Math.min(request.due(), Math.min(globalGap.due(), stall.due()));
        for (NackTimer t : personalGap) {
            due = Math.min(due, t.due());
        }
        if (handledSinceStatus) {
            due = Math.min(due, lastStatusNanos + d.ctx.statusIdleNanos);
        }
        if (progressRequested) {
            due = Math.min(due, lastStatusNanos + STATUS_ANSWER_GAP_NANOS);
        }
        return Math.max(due, now);
    }
}
