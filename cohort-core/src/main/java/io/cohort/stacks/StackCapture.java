package io.cohort.stacks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * Captures every live thread of this JVM: name, daemon flag, state, the lock it waits on and its
 * owner, and all frames.
 *
 * <p>First {@link Thread#getAllStackTraces()} (one safepoint for all stacks, well under a
 * millisecond; taken twice, see {@link #plain}) with each thread's state and, for a parked thread,
 * {@link LockSupport#getBlocker}:
 * that covers the waits of a message-passing program (receives, barriers, latches, sleeps). Only if
 * some thread is blocked on a monitor or waits in {@code Object.wait}, whose lock only the VM knows,
 * is the capture taken again with {@code ThreadMXBean.dumpAllThreads(false, false)}, which names the
 * lock and its owner. That bean costs a peer some tens of milliseconds the first time (its classes
 * load and initialise) and needs {@code java.management}; where that module is missing the first
 * capture stands. Neither asks for the synchronizers a thread holds, which would walk the heap.
 *
 * <p>Then the collective each thread is in ({@link CollectiveCalls}) and the message it waits for
 * ({@link PeerWaits}), read just after the stacks. A
 * thread of a hung job stays where it is; one that moves on in between may be shown with the
 * collective it has entered or left since, as its state may be.
 *
 * <p>No lambdas: a peer may never have linked one, and the first costs more than this whole capture.
 * Any thread may call it.
 */
public final class StackCapture {
    private static volatile boolean managementMissing;

    private StackCapture() {
    }

    /** Every live thread but {@code exclude} (the capturing thread, or null): main first, then non-daemon, then daemon threads, each by id. */
    public static List<ThreadStack> threads(Thread exclude) {
        long skip = exclude == null ? -1 : exclude.getId();
        List<ThreadStack> threads = plain(skip);
        if (needsMonitors(threads) && !managementMissing) {
            try {
                threads = Management.threads(skip);
            } catch (LinkageError | UnsupportedOperationException | SecurityException e) {
                managementMissing = true;
            }
        }
        Map<Long, CollectiveCall> calls = CollectiveCalls.snapshot();
        Map<Long, PeerWait> waits = PeerWaits.snapshot();
        if (!calls.isEmpty() || !waits.isEmpty()) {
            for (int i = 0; i < threads.size(); i++) {
                ThreadStack t = threads.get(i);
                CollectiveCall c = calls.get(t.id());
                PeerWait w = waits.get(t.id());
                if (c != null) {
                    t = t.withCall(c);
                }
                if (w != null) {
                    t = t.withWait(w);
                }
                threads.set(i, t);
            }
        }
        threads.sort(ORDER);
        return threads;
    }

    /**
     * Some thread waits for a monitor: only the VM can say which, and who holds it. The JDK's own
     * reference-queue threads (Finalizer, cleaners) wait in {@code Object.wait} on Java 17 all the
     * time; they alone are no reason to load the management classes.
     */
    private static boolean needsMonitors(List<ThreadStack> threads) {
        for (ThreadStack t : threads) {
            if (t.state() == Thread.State.BLOCKED) {
                return true;
            }
            if (t.state() == Thread.State.WAITING || t.state() == Thread.State.TIMED_WAITING) {
                List<StackTraceElement> f = t.frames();
                int i = 0;
                while (i < f.size() && f.get(i).getClassName().equals("java.lang.Object")) {
                    i++; // Object.wait, and wait0 below it on newer JDKs
                }
                if (i > 0 && f.get(0).getMethodName().startsWith("wait")
                        && !(i < f.size() && f.get(i).getClassName().equals("java.lang.ref.ReferenceQueue"))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A capture encoded for the wire, within {@link PeerStacks#MAX_BYTES}. */
    public static byte[] encoded(Thread exclude) {
        return StacksCodec.encode(threads(exclude), 0, PeerStacks.MAX_BYTES);
    }

    private static final Comparator<ThreadStack> ORDER = new Order();

    /** Main first, then other non-daemon threads, then daemon threads; by id within each. */
    private static final class Order implements Comparator<ThreadStack> {
        @Override
        public int compare(ThreadStack a, ThreadStack b) {
            int c = Integer.compare(group(a), group(b));
            return c != 0 ? c : Long.compare(a.id(), b.id());
        }

        private static int group(ThreadStack t) {
            return t.daemon() ? 2 : t.name().equals("main") ? 0 : 1;
        }
    }

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

    /**
     * A thread's state is read apart from its stack, so the stacks are taken twice around it: a
     * thread whose stack did not change in between was in that state at those frames; one that moved
     * is shown as RUNNABLE at its second stack, whatever state it has reached meanwhile.
     */
    private static List<ThreadStack> plain(long skip) {
        Map<Thread, StackTraceElement[]> before = Thread.getAllStackTraces();
        Map<Thread, Thread.State> states = new HashMap<>();
        Map<Thread, Object> blockers = new HashMap<>();
        for (Thread t : before.keySet()) {
            states.put(t, t.getState());
            Object blocker = LockSupport.getBlocker(t);
            if (blocker != null) {
                blockers.put(t, blocker);
            }
        }
        Map<Thread, StackTraceElement[]> after = Thread.getAllStackTraces();
        List<ThreadStack> out = new ArrayList<>();
        for (Map.Entry<Thread, StackTraceElement[]> e : after.entrySet()) {
            Thread t = e.getKey();
            Thread.State state = states.get(t);
            if (t.getId() == skip || state == null || state == Thread.State.TERMINATED) {
                continue; // the capturing thread, or one that started or ended during the capture
            }
            boolean still = Arrays.equals(before.get(t), e.getValue());
            Object blocker = still ? blockers.get(t) : null;
            String lock = blocker == null ? null
                    : blocker.getClass().getName() + "@" + Integer.toHexString(System.identityHashCode(blocker));
            out.add(new ThreadStack(t.getName(), t.getId(), t.isDaemon(), still ? state : Thread.State.RUNNABLE, lock, null,
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
