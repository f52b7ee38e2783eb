package io.cohort.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The processor time this process has used so far, in nanoseconds: the sum over its threads of
 * the first field of {@code /proc/self/task/TID/schedstat} (time on a processor, in ns). The
 * per-process figures the JDK offers ({@code OperatingSystemMXBean.getProcessCpuTime}, and
 * {@code /proc/PID/stat}) count clock ticks of 10 ms, too coarse for one peer's share of a
 * few hundred collectives. A thread that ends between two readings takes its time with it; the
 * benchmarks read before and after a timed loop, in which no thread starts or ends.
 * <p>
 * Used by {@link CollectiveLatencyJob} and MpjColl (compiled with it by
 * {@code scripts/bench-collectives-box.sh}); the C twin is {@code clock_gettime(CLOCK_PROCESS_CPUTIME_ID)}.
 */
public final class ProcessCpu {
    private static final Path TASKS = Path.of("/proc/self/task");

    private ProcessCpu() {
    }

    /** Nanoseconds on a processor over all this process's live threads; -1 where /proc has no schedstat. */
    public static long nanos() {
        long sum = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path t : tasks) {
                try {
                    String s = Files.readString(t.resolve("schedstat"));
                    int end = s.indexOf(' ');
                    sum += Long.parseLong(end < 0 ? s.strip() : s.substring(0, end));
                } catch (NoSuchFileException gone) {
                    // the thread ended while the directory was read
                }
            }
        } catch (NoSuchFileException noProc) {
            return -1;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sum;
    }
}
