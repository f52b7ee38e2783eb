package io.cohort.launch;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Copies the launcher's standard input to the peers that get it, in chunks, and closes their stdin
 * at end of input. Runs on its own daemon thread because reading a terminal cannot be interrupted;
 * the launcher exits without waiting for it.
 */
final class StdinPump implements Runnable {
    /** Where the chunks go; implemented by the controller (it knows the io-manager of each rank). */
    interface Sink {
        /** Sends a chunk; may block until the rank's io-manager has room for it. */
        void stdin(int rank, byte[] bytes) throws InterruptedException;

        void stdinClosed(int rank);
    }

    private final InputStream in;
    private final int[] ranks;
    private final Sink sink;

    StdinPump(InputStream in, int[] ranks, Sink sink) {
        this.in = in;
        this.ranks = ranks.clone();
        this.sink = sink;
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
            int n;
            while ((n = in.read(buf)) >= 0) {
                if (n > 0) {
                    byte[] chunk = Arrays.copyOf(buf, n);
                    for (int r : ranks) {
                        sink.stdin(r, chunk);
                    }
                }
            }
        } catch (IOException e) {
            // An unreadable stdin is treated as its end.
        } catch (InterruptedException e) {
            return; // the launcher is ending; nothing more is sent
        }
        for (int r : ranks) {
            sink.stdinClosed(r);
        }
    }
}
