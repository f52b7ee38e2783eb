package io.cohort.stacks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * Captures every live thread of this JVM: name, daemon flag, state, the lock it waits on and its
 * owner, and all frames. Uses {@code ThreadMXBean.dumpAllThreads(false, false)}: one safepoint for a
 * consistent picture, with lock names and owners; it does not ask for the synchronizers each thread
 * holds, which would walk the whole heap. Where {@code java.management} is missing (a trimmed
 * runtime) it falls back to {@link Thread#getAllStackTraces()} and {@link LockSupport#getBlocker},
 * which know what a parked thread waits on but not who holds a monitor.
 *
 * <p>The first capture in a JVM loads the management classes (some tens of milliseconds); later
 * ones take about a millisecond for a few dozen threads. Any thread may call it.
 */
public final class StackCapture {
    private static volatile boolean managementMissing;

    private StackCapture() {
    }

    /** Every live thread but {@code exclude} (the capturing thread, or null): main first, then non-daemon, then daemon threads, each by id. */
    public static List<ThreadStack> threads(Thread exclude) {
        long skip = exclude == null ? -1 : exclude.getId();
        List<ThreadStack> threads = null;
        if (!managementMissing) {
            try {
                threads = Management.threads(skip);
            } catch (LinkageError | UnsupportedOperationException | SecurityException e) {
                managementMissing = true;
            }
        }
        if (threads == null) {
            threads = plain(skip);
        }
        threads.sort(ORDER);
        return threads;
    }

    /** A capture encoded for the wire, within {@link PeerStacks#MAX_BYTES}. */
    public static byte[] encoded(Thread exclude) {
        return StacksCodec.encode(threads(exclude), 0, PeerStacks.MAX_BYTES);
    }

    private static final Comparator<ThreadStack> ORDER = Comparator
            .comparingInt((ThreadStack t) -> !t.daemon() && t.name().equals("main") ? 0 : t.daemon() ? 2 : 1)
            .thenComparingLong(ThreadStack::id);

    /** In a class of its own, so that a runtime without java.management fails here, and only once. */
    private static final class Management {
        static List<ThreadStack> threads(long skip) {
            ThreadInfo[] infos = ManagementFactory.getThreadMXBean().dumpAllThreads(false, false);
            List<ThreadStack> out = new ArrayList<>(infos.length);
            for (ThreadInfo i : infos) {
                if (i == null || i.getThreadId() == skip) {
                    continue; // null: the thread ended during the dump
                }
                out.add(new ThreadStack(i.getThreadName(), i.getThreadId(), i.isDaemon(), i.getThreadState(),
                        i.getLockName(), i.getLockOwnerName(), plainFrames(i.getStackTrace())));
            }
            return out;
        }
    }

    private static List<ThreadStack> plain(long skip) {
        List<ThreadStack> out = new ArrayList<>();
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            Thread t = e.getKey();
            if (t.getId() == skip) {
                continue;
            }
            Object blocker = LockSupport.getBlocker(t);
            String lock = blocker == null ? null
                    : blocker.getClass().getName() + "@" + Integer.toHexString(System.identityHashCode(blocker));
            out.add(new ThreadStack(t.getName(), t.getId(), t.isDaemon(), t.getState(), lock, null,
                    plainFrames(e.getValue())));
        }
        return out;
    }

    /** Class, method, file and line only: module and loader names would keep equal frames of different peers apart. */
    private static List<StackTraceElement> plainFrames(StackTraceElement[] frames) {
        List<StackTraceElement> out = new ArrayList<>(frames.length);
        for (StackTraceElement f : frames) {
            out.add(ThreadStack.frame(f.getClassName(), f.getMethodName(), f.getFileName(), f.getLineNumber()));
        }
        return out;
    }
}
