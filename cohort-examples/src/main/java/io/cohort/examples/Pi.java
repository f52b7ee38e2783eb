package io.cohort.examples;

import io.cohort.Cohort;
import io.cohort.Communicator;

/**
 * pi as the integral of 4 / (1 + x^2) over [0, 1] by the midpoint rule; each peer sums every
 * size-th interval and rank 0 adds the partial sums. Argument: number of intervals (default 10^7).
 */
public final class Pi {
    private Pi() {
    }

    public static void main(String[] args) {
        long intervals = Argument.wholeNumber("pi", args, 10_000_000L);
        try (Communicator world = Cohort.init()) {
            double h = 1.0 / intervals;
            double sum = 0;
            for (long i = world.rank(); i < intervals; i += world.size()) {
                double x = h * (i + 0.5);
                sum += 4.0 / (1.0 + x * x);
            }
            double partial = sum * h;
            if (world.rank() == 0) {
                double pi = partial;
                for (int peer = 1; peer < world.size(); peer++) {
                    pi += world.recv(peer, 0).asDoubles()[0];
                }
                System.out.printf("pi = %.15f (error %.2e) computed by %s%n", pi, Math.abs(pi - Math.PI),
                        Words.count(world.size(), "peer"));
            } else {
                world.send(0, 0, new double[] {partial});
            }
        }
    }
}
