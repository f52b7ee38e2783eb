package io.cohort.testing;

import java.io.OutputStream;

/** A slow peer for time-out tests: writes bytes one at a time with a pause after each, on a daemon thread. */
public final class Trickler {
    private Trickler() {
    }

    /** Starts writing {@code bytes} to {@code out}, one every {@code pauseMillis}; stops quietly when the reader closes. */
    public static Thread start(OutputStream out, byte[] bytes, long pauseMillis) {
        Thread t = new Thread(() -> {
            try {
                for (byte b : bytes) {
                    out.write(b);
                    out.flush();
                    Thread.sleep(pauseMillis); // the peer under test is slow on purpose
                }
            } catch (Exception e) {
                // the reader gave up and closed: expected
            }
        }, "trickler");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
