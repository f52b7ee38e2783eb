package io.cohort.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(20)
class StdinPumpTest {
    /** Records what the pump sends. */
    static final class Recorder implements StdinPump.Sink {
        final List<String> chunks = new ArrayList<>();
        final CountDownLatch closed = new CountDownLatch(1);

        @Override
        public synchronized void stdin(int rank, byte[] bytes) {
            chunks.add(rank + ":" + new String(bytes, StandardCharsets.UTF_8));
        }

        @Override
        public void stdinClosed(int rank) {
            closed.countDown();
        }

        synchronized List<String> chunks() {
            return List.copyOf(chunks);
        }
    }

    @Test
    void copiesEveryChunkToEveryRankThenCloses() throws Exception {
        Recorder r = new Recorder();
        new StdinPump(new ByteArrayInputStream("abc".getBytes(StandardCharsets.UTF_8)), new int[] {0, 2}, r).start().join();
        assertEquals(List.of("0:abc", "2:abc"), r.chunks());
        assertEquals(0, r.closed.getCount());
    }

    @Test
    void anUnreadableInputInTheForegroundIsItsEnd() throws Exception {
        Recorder r = new Recorder();
        InputStream broken = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("Input/output error");
            }
        };
        new StdinPump(broken, new int[] {0}, r, () -> true).start().join();
        assertTrue(r.chunks().isEmpty());
        assertEquals(0, r.closed.getCount());
    }

    /**
     * A terminal read from the background fails (the launcher ignores SIGTTIN): the pump waits for
     * the foreground and reads on, so the peers lose neither the input nor their open stdin.
     */
    @Test
    void inTheBackgroundItWaitsAndReadsOnOnceInTheForeground() throws Exception {
        AtomicBoolean foreground = new AtomicBoolean(false);
        AtomicInteger failedReads = new AtomicInteger();
        CountDownLatch triedInBackground = new CountDownLatch(1);
        InputStream terminal = new InputStream() {
            private final InputStream typed = new ByteArrayInputStream("typed".getBytes(StandardCharsets.UTF_8));

            @Override
            public int read() throws IOException {
                throw new UnsupportedOperationException();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (!foreground.get()) {
                    failedReads.incrementAndGet();
                    triedInBackground.countDown();
                    throw new IOException("Input/output error"); // what read(2) says to a background reader
                }
                return typed.read(b, off, len);
            }
        };
        Recorder r = new Recorder();
        // The pump is told it may read, finds that it may not, and must then wait for the foreground.
        AtomicBoolean firstLook = new AtomicBoolean(true);
        Thread t = new StdinPump(terminal, new int[] {1}, r, () -> firstLook.getAndSet(false) || foreground.get()).start();
        triedInBackground.await();
        assertFalse(r.closed.await(300, java.util.concurrent.TimeUnit.MILLISECONDS), "stdin closed by a background read");
        assertEquals(1, failedReads.get(), "it read again while in the background");
        foreground.set(true);
        t.join();
        assertEquals(List.of("1:typed"), r.chunks());
        assertEquals(0, r.closed.getCount());
    }

    @Test
    void readsTheForegroundLineOfProc() {
        String stat = "4711 (java (launcher)) S 4700 4711 4600 34816 4711 4194560 1 2 3";
        assertTrue(Foreground.inForeground(stat), "pgrp 4711 is the terminal's foreground group");
        assertFalse(Foreground.inForeground(stat.replace(" 34816 4711 ", " 34816 5000 ")), "another group is");
        assertTrue(Foreground.inForeground(stat.replace(" 34816 4711 ", " 0 -1 ")), "no terminal");
    }
}
