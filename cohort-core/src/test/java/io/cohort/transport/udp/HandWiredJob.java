package io.cohort.transport.udp;

import io.cohort.Communicator;
import io.cohort.auth.JobSecret;
import io.cohort.comm.EngineCommunicator;
import io.cohort.engine.ProgressEngine;
import io.cohort.idle.IdleStrategies;
import io.cohort.transport.fault.DatagramPort;
import io.cohort.transport.fault.FaultPlan;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;

/**
 * A job of N peers as threads over udp transports the test builds itself (with a port decorator per
 * rank and a known job secret), for tests that need more access than {@code LocalCohort} gives.
 */
final class HandWiredJob {
    /** What each peer runs. */
    @FunctionalInterface
    interface Body {
        void run(Communicator world) throws Exception;
    }

    final JobSecret secret;
    final UdpTransport[] transports;
    final ProgressEngine[] engines;

    HandWiredJob(int n, JobSecret secret, UdpSettings settings, IntFunction<UnaryOperator<DatagramPort>> decorators)
            throws IOException {
        this.secret = secret;
        this.transports = new UdpTransport[n];
        this.engines = new ProgressEngine[n];
        UdpEndpoint[] endpoints = new UdpEndpoint[n];
        String[] names = new String[n];
        for (int i = 0; i < n; i++) {
            transports[i] = new UdpTransport(i, n, secret, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    settings, FaultPlan.NONE, decorators.apply(i));
            endpoints[i] = transports[i].localEndpoint();
            names[i] = "rank " + i;
        }
        for (int i = 0; i < n; i++) {
            engines[i] = new ProgressEngine(i, n, IdleStrategies.configured());
            transports[i].connect(endpoints, names, engines[i]);
            engines[i].attach(transports[i], transports[i].peers());
        }
    }

    InetSocketAddress address(int rank) {
        return transports[rank].localEndpoint().address();
    }

    /** Runs the body on every peer, closes each world, rethrows the first failure. */
    void run(Body body, long timeoutSeconds) throws Exception {
        int n = engines.length;
        Throwable[] failures = new Throwable[n];
        Thread[] threads = new Thread[n];
        for (int i = 0; i < n; i++) {
            int rank = i;
            threads[i] = new Thread(() -> {
                try (Communicator world = new EngineCommunicator(engines[rank], 0, engines[rank]::shutdown)) {
                    body.run(world);
                } catch (Throwable e) {
                    failures[rank] = e;
                    engines[rank].abort();
                    for (ProgressEngine other : engines) {
                        other.notePeerGone(rank, "rank " + rank + " failed: " + e);
                    }
                }
            }, "hand-wired-" + i);
            threads[i].setDaemon(true);
            threads[i].start();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        for (Thread t : threads) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (t.isAlive()) {
                for (ProgressEngine e : engines) {
                    e.abort();
                }
                throw new AssertionError(t.getName() + " did not finish within " + timeoutSeconds + " s");
            }
        }
        for (Throwable f : failures) {
            if (f instanceof Exception e) {
                throw e;
            }
            if (f != null) {
                throw new AssertionError(f);
            }
        }
    }
}
