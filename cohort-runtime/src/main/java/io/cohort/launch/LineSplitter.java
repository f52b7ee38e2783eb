package io.cohort.launch;

import java.io.IOException;

/**
 * Cuts a byte stream into whole lines so that the controller can write each line with one write and
 * lines of different peers never mix. A line ends with '\n' (a preceding '\r' stays in the line, so
 * CRLF output passes through unchanged). A line longer than the limit is emitted in pieces of the
 * limit; the bytes are unchanged, only where they may interleave with other peers' lines differs.
 * Not thread-safe: one splitter per stream, fed by that stream's pump thread.
 */
public final class LineSplitter {
    /** Lines longer than this (1 MiB) are cut. */
    public static final int MAX_LINE_DEFAULT = 1 << 20;

    /** Receives each line (with its '\n' if it had one). The array is the sink's to keep. */
    public interface LineSink {
        void line(byte[] line) throws IOException;
    }

    private final int maxLine;
    private final LineSink sink;
    private byte[] buf = new byte[256];
    private int len;

    public LineSplitter(int maxLine, LineSink sink) {
        if (maxLine < 1) {
            throw new IllegalArgumentException("maxLine must be positive: " + maxLine);
        }
        this.maxLine = maxLine;
        this.sink = sink;
    }

    public LineSplitter(LineSink sink) {
        this(MAX_LINE_DEFAULT, sink);
    }

    public void feed(byte[] b, int off, int n) throws IOException {
        int end = off + n;
        int start = off;
        for (int i = off; i < end; i++) {
            if (b[i] == '\n') {
                append(b, start, i + 1 - start);
                emit();
                start = i + 1;
            } else if (len + (i + 1 - start) >= maxLine) {
                append(b, start, i + 1 - start);
                emit();
                start = i + 1;
            }
        }
        append(b, start, end - start);
    }

    /** Whether an unfinished line is held (bytes after the last '\n'). */
    public boolean pending() {
        return len > 0;
    }

    /**
     * End of stream, or a line left unfinished for a while (a prompt): what is held is emitted as it
     * is, and a later piece of the same line follows as a line of its own.
     */
    public void finish() throws IOException {
        if (len > 0) {
            emit();
        }
    }

    private void append(byte[] b, int off, int n) {
        if (n == 0) {
            return;
        }
        if (len + n > buf.length) {
            byte[] bigger = new byte[Math.max(buf.length * 2, len + n)];
            System.arraycopy(buf, 0, bigger, 0, len);
            buf = bigger;
        }
        System.arraycopy(b, off, buf, len, n);
        len += n;
    }

    private void emit() throws IOException {
        byte[] line = new byte[len];
        System.arraycopy(buf, 0, line, 0, len);
        len = 0;
        if (buf.length > 64 * 1024) {
            buf = new byte[256]; // do not keep a 1 MiB buffer for one long line
        }
        sink.line(line);
    }
}
