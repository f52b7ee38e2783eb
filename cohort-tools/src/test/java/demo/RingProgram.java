package demo;

import io.cohort.tools.prof.FakePeer;

/**
 * A user program for the profiler's fixtures, outside the library's packages so its lines are the
 * call sites: a token goes {@code laps} times around the ring (rank 0 sends first), each lap in a
 * region, then an allreduce; rank 0 also probes and waits, and the last rank reports protocol trouble.
 */
public final class RingProgram {
    private RingProgram() {
    }

    public static void run(FakePeer world, int laps, long bytes) {
        int next = (world.rank() + 1) % world.size();
        int prev = (world.rank() - 1 + world.size()) % world.size();
        for (int lap = 0; lap < laps; lap++) {
            int tag = lap;
            world.region("lap", () -> {
                if (world.rank() == 0) {
                    world.send(next, tag, bytes);
                    world.recv(prev, tag, bytes);
                } else {
                    world.recv(prev, tag, bytes);
                    world.send(next, tag, bytes);
                }
            });
        }
        if (world.rank() == 0) {
            world.probe(prev);
            world.waitAll(2);
        }
        if (world.rank() == world.size() - 1) {
            world.protocolTrouble("udp", 0);
        }
        world.collective("allreduce", 8);
    }

    /**
     * Pure arithmetic for about {@code millis} of this thread's CPU time, so method samples land here:
     * counted in CPU time, not wall time, so a busy machine that runs the thread less still gets as
     * many samples (within a wall-clock cap of 30 times as long).
     */
    public static double compute(long millis) {
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        boolean measured = cpu.isCurrentThreadCpuTimeSupported();
        double s = 0;
        long cpuEnd = measured ? cpu.getCurrentThreadCpuTime() + millis * 1_000_000 : 0;
        long wallEnd = System.nanoTime() + millis * 1_000_000 * (measured ? 30 : 1);
        while (System.nanoTime() < wallEnd && (!measured || cpu.getCurrentThreadCpuTime() < cpuEnd)) {
            s += crunch(5_000);
        }
        return s;
    }

    public static double crunch(int n) {
        double s = 0;
        for (int i = 1; i < n; i++) {
            s += Math.sqrt(i) / (i + 1.0);
        }
        return s;
    }
}
