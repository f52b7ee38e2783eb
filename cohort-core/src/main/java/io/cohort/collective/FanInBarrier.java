package io.cohort.collective;

import io.cohort.Request;

import java.util.ArrayList;
import java.util.List;

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
 *
 * <p>Threads: the thread running the collective.
 */
final class FanInBarrier {
    private FanInBarrier() {
    }

    static void binomial(Exchange x) {
        int n = x.size;
        List<Request> sends = new ArrayList<>();
        int mask = 1;
        for (; mask < n; mask <<= 1) {
            if ((x.rank & mask) != 0) {
                sends.add(x.send(x.rank - mask, 0, Exchange.empty()));
                x.recv(x.rank - mask, 1);
                break;
            }
            if (x.rank + mask < n) {
                x.recv(x.rank + mask, 0);
            }
        }
        for (mask >>= 1; mask > 0; mask >>= 1) {
            if (x.rank + mask < n) {
                sends.add(x.send(x.rank + mask, 1, Exchange.empty()));
            }
        }
        Request.awaitAll(sends);
    }

    static void linear(Exchange x) {
        int n = x.size;
        if (x.rank != 0) {
            Request arrived = x.send(0, 0, Exchange.empty());
            x.recv(0, 1);
            arrived.await();
            return;
        }
        for (int q = 1; q < n; q++) {
            x.recv(q, 0);
        }
        List<Request> sends = new ArrayList<>(n - 1);
        for (int q = 1; q < n; q++) {
            sends.add(x.send(q, 1, Exchange.empty()));
        }
        Request.awaitAll(sends);
    }
}
