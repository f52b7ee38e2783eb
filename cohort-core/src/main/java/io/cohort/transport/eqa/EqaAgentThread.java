package io.cohort.transport.eqa;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;

/**
 * Runs one {@link EqaPeer} on its own daemon thread, {@code cohort-eqa-<rank>}: it calls
 * {@link EqaPeer#doWork} while there is work, and otherwise blocks in a {@link Selector} on the
 * peer's socket for at most {@link #IDLE_MILLIS} (timers and held fault-injected datagrams need it
 * back that often); {@link EqaPeer#broadcast} wakes it. Polite on a 2-core machine shared by many
 * peers: an idle peer costs no CPU.
 *
 * <p>Threads: {@link #start} and {@link #close} from any thread; the loop is the only caller of
 * the peer's {@link EqaPeer#doWork} while it runs.
 */
public final class EqaAgentThread implements AutoCloseable {
    /** Longest block of an idle agent: the finest timer it must honour. */
    public static final long IDLE_MILLIS = 1;

    private final EqaPeer peer;
    private final Thread thread;
    private final Selector selector;
    private volatile boolean running = true;
    private volatile Throwable failure;

    /** Prepares (does not start) the agent of {@code peer}. */
    public EqaAgentThread(EqaPeer peer) throws IOException {
        this.peer = peer;
        this.selector = Selector.open();
        if (peer.port().channel() != null) {
            peer.port().channel().register(selector, SelectionKey.OP_READ);
        }
        this.thread = new Thread(this::run, "cohort-eqa-" + peer.rank());
        thread.setDaemon(true);
        peer.wakeup(selector::wakeup);
    }

    /** Starts the thread; returns this. */
    public EqaAgentThread start() {
        thread.start();
        return this;
    }

    private void run() {
        try {
            while (running) {
                if (peer.doWork(System.nanoTime()) == 0) {
                    long dueIn = peer.port().nextDueNanos() - System.nanoTime();
                    long millis = Math.max(0, Math.min(IDLE_MILLIS, TimeUnit.NANOSECONDS.toMillis(dueIn)));
                    if (millis == 0) {
                        selector.selectNow();
                    } else {
                        selector.select(millis);
                    }
                    selector.selectedKeys().clear();
                }
            }
        } catch (Throwable t) {
            failure = t;
        }
    }

    /** What ended the loop abnormally, or null. */
    public Throwable failure() {
        return failure;
    }

    /** Stops and joins the thread (the peer stays open). */
    @Override
    public void close() {
        running = false;
        selector.wakeup();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // nothing registered needs flushing
        }
    }
}
