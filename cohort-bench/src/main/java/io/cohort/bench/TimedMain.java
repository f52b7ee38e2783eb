package io.cohort.bench;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Runs another program's {@code main} and prints, from rank 0 on stderr, how long it took:
 * {@code timed_main_ms=N}. {@code scripts/bench-tools.sh} runs the unmodified {@code alltoall}
 * example through it, so the profiler's overhead on the program itself (the JVM's own start and the
 * Flight Recorder's start and final dump happen before and after) is measured beside the whole job's
 * wall time. Usage: {@code TimedMain MAIN_CLASS args...}.
 */
public final class TimedMain {
    private TimedMain() {
    }

    public static void main(String[] args) throws Throwable {
        Method main = Class.forName(args[0]).getMethod("main", String[].class);
        long t0 = System.nanoTime();
        try {
            main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        if ("0".equals(System.getenv("COHORT_RANK"))) {
            System.err.println("timed_main_ms=" + ms);
        }
    }
}
