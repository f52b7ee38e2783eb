package io.cohort.launch;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.function.BooleanSupplier;

/**
 * Copies the launcher's standard input to the peers that get it, in chunks, and closes their stdin
 * at end of input. Runs on its own daemon thread because reading a terminal cannot be interrupted;
 * the launcher exits without waiting for it. A terminal is read only while the launcher is in the
 * foreground ({@link Foreground}): in the background the pump waits, and the job runs on.
 */
final class StdinPump implements Runnable {
    /** Where the chunks go; implemented by the controller (it knows the io-manager of each rank). */
    interface Sink {
        /** Sends a chunk; may block until the rank's io-manager has room for it. */
        void stdin(int rank, byte[] bytes) throws InterruptedException;

        void stdinClosed(int rank);
    }

    /** How often a launcher in the background looks whether it is in the foreground again. */
    static final long BACKGROUND_CHECK_MILLIS = 100;

    private final InputStream in;
    private final int[] ranks;
    private final Sink sink;
    /** Whether {@link #in} may be read now; false while it is a terminal and the launcher is in the background. */
    private final BooleanSupplier mayRead;

    StdinPump(InputStream in, int[] ranks, Sink sink) {
        this(in, ranks, sink, () -> true);
    }

    StdinPump(InputStream in, int[] ranks, Sink sink, BooleanSupplier mayRead) {
        this.in = in;
        this.ranks = ranks.clone();
        this.sink = sink;
        this.mayRead = mayRead;
    }

    Thread start() {
        Thread t = new Thread(this, "cohort-stdin");
        t.setDaemon(true);
        t.start();
        return t;
    }

    @Override
    public void run() {
        byte[] buf = new byte[64 * 1024];
        try {
            for (;;) {
                awaitMayRead();
                int n;
                try {
                    n = in.read(buf);
                } catch (IOException e) {
                    if (mayRead.getAsBoolean()) {
                        break; // an unreadable stdin is treated as its end
                    }
                    continue; // a terminal read from the background (SIGTTIN ignored): wait for the foreground
                }
                if (n < 0) {
                    break;
                }
                if (n > 0) {
                    byte[] chunk = Arrays.copyOf(buf, n);
                    for (int r : ranks) {
                        sink.stdin(r, chunk);
                    }
                }
            }
        } catch (InterruptedException e) {
            return; // the launcher is ending; nothing more is sent
        }
        for (int r : ranks) {
            sink.stdinClosed(r);
        }
    }

    private void awaitMayRead() throws InterruptedException {
        while (!mayRead.getAsBoolean()) {
            Thread.sleep(BACKGROUND_CHECK_MILLIS);
        }
    }
}
