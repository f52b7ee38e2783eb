package io.cohort.bench;

import io.cohort.transport.shm.ShmRecordDescriptor;
import io.cohort.transport.shm.ShmRing;
import io.cohort.transport.shm.ShmSegmentDescriptor;

import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * The floors the shared-memory figures are reported beside: (1) a ping-pong of 8-byte records
 * between two threads through two bare {@link ShmRing}s, with no engine or matching:
 * what the ring itself costs; (2) the rate of a single-threaded copy of 1 MiB between direct
 * buffers, the memcpy-like ceiling for shared-memory bandwidth.
 */
public final class SharedMemoryFloor {
    private SharedMemoryFloor() {
    }

    public static void main(String[] args) throws Exception {
        boolean quick = args.length > 0 && args[0].equals("--quick");
        int iterations = quick ? 100_000 : 5_000_000;
        System.out.printf(Locale.ROOT, "| floor | value |%n|---|---:|%n");
        System.out.printf(Locale.ROOT, "| two-thread ring ping-pong, 8 B, half round trip | %.3f us |%n", ringPingPong(iterations));
        System.out.printf(Locale.ROOT, "| single-threaded 1 MiB copy between direct buffers | %.0f MiB/s |%n", copyRate(quick));
    }

    private static ShmRing ring() {
        int capacity = 1 << 16;
        ByteBuffer segment = ByteBuffer.allocateDirect((int) ShmSegmentDescriptor.segmentBytes(capacity));
        ShmRing.format(segment, 1, 0, 1, capacity);
        return ShmRing.attach(segment, 1, 0, 1);
    }

    static double ringPingPong(int iterations) throws InterruptedException {
        ShmRing ping = ring();
        ShmRing pong = ring();
        Thread echo = new Thread(() -> {
            ByteBuffer b = ByteBuffer.allocateDirect(8);
            for (int i = 0; i < iterations; i++) {
                int at;
                while ((at = ping.poll()) < 0) {
                    Thread.onSpinWait();
                }
                b.put(0, ping.data(), ping.payloadIndex(at), 8);
                ping.consume(at);
                while (!pong.offer(ShmRecordDescriptor.TYPE_MESSAGE, 0, 0, 8, b, 0, 8)) {
                    Thread.onSpinWait();
                }
            }
        });
        echo.start();
        ByteBuffer b = ByteBuffer.allocateDirect(8);
        long t0 = 0;
        int warmup = iterations / 10;
        for (int i = 0; i < iterations; i++) {
            if (i == warmup) {
                t0 = System.nanoTime();
            }
            while (!ping.offer(ShmRecordDescriptor.TYPE_MESSAGE, 0, 0, 8, b, 0, 8)) {
                Thread.onSpinWait();
            }
            int at;
            while ((at = pong.poll()) < 0) {
                Thread.onSpinWait();
            }
            b.put(0, pong.data(), pong.payloadIndex(at), 8);
            pong.consume(at);
        }
        long elapsed = System.nanoTime() - t0;
        echo.join();
        return elapsed / 1000.0 / (iterations - warmup) / 2;
    }

    static double copyRate(boolean quick) {
        ByteBuffer from = ByteBuffer.allocateDirect(1 << 20);
        ByteBuffer to = ByteBuffer.allocateDirect(1 << 20);
        int rounds = quick ? 200 : 5_000;
        for (int i = 0; i < rounds / 5; i++) {
            to.clear();
            to.put(from.clear());
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < rounds; i++) {
            to.clear();
            to.put(from.clear());
        }
        return rounds / ((System.nanoTime() - t0) / 1e9);
    }
}
