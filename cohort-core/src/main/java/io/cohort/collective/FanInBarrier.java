package io.cohort.collective;

import io.cohort.Request;

/**
 * Barrier as a fan-in of empty messages to rank 0 and a fan-out back: 2 (N - 1) messages where
 * dissemination sends N ceil(log2 N). Dissemination's ceil(log2 N) rounds are the shorter path
 * when every peer has a core; where peers outnumber cores every message is a wake-up that waits for
 * a core, and the total count is what the barrier costs (the reasoning of
 * {@link ReduceBcastAllreduce}, for an allreduce of nothing).
 * <ul>
 *   <li>{@link #binomial}: both halves along the binomial tree rooted at 0, 2 ceil(log2 N) rounds;
 *       rank 0 hears ceil(log2 N) messages and sends as many;</li>
 *   <li>{@link #linear}: every peer sends to rank 0, which answers each once all have arrived; two
 *       rounds, with rank 0 receiving and sending N - 1 messages.</li>
 * </ul>
 * The fan-out is a bcast of an empty message ({@link BinomialBcast}, {@link LinearBcast}) in
 * phase 1; the fan-in uses phase 0.
 *
 * <p>Threads: the thread running the collective.
 */
final class FanInBarrier {
    private FanInBarrier() {
    }

    static void binomial(Exchange x) {
        Request up = null;
        for (int mask = 1; mask < x.size; mask <<= 1) {
            if ((x.rank & mask) != 0) {
                up = x.send(x.rank - mask, 0, Exchange.empty());
                break;
            }
            if (x.rank + mask < x.size) {
                x.recv(x.rank + mask, 0);
            }
        }
        BinomialBcast.run(x.from(1), 0, Exchange.empty());
        if (up != null) {
            up.await();
        }
    }

    static void linear(Exchange x) {
        Request up = null;
        if (x.rank != 0) {
            up = x.send(0, 0, Exchange.empty());
        } else {
            for (int q = 1; q < x.size; q++) {
                x.recv(q, 0);
            }
        }
        LinearBcast.run(x.from(1), 0, Exchange.empty());
        if (up != null) {
            up.await();
        }
    }
}
