package io.cohort.launch;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the peers' output lines where the user asked: the launcher's stdout/stderr (optionally
 * tagged "[rank] "), or one file per peer ({@code --output PATTERN}, both streams into the same file,
 * in the order the io-manager read them). Each line is written with one call under the target's
 * lock, so lines of different peers never mix; a peer's unfinished line (its last, or a piece of a
 * very long one) is ended with a newline only if another peer's line comes next to the same place.
 * The launcher's stdout and stderr are {@link OutputQueue}s, written by threads of their own; the
 * files are written by the calling thread. Thread-safe.
 */
public final class OutputRouter implements Closeable {
    private final boolean tag;
    private final OutputQueue out;
    private final OutputQueue err;
    private final OutputStream[] files;
    /** The path of each rank's file, for messages; null without --output. */
    private final Path[] paths;
    /** Targets whose last write ended without a newline, and whose line it was; guarded by the target's lock. */
    private final Map<OutputStream, MidLine> midLine = new java.util.concurrent.ConcurrentHashMap<>();
    /** Whether the launcher's stdout and stderr go to one place (one terminal, pipe or file: 2>&1). */
    private final boolean onePlace;
    /** Set once the peers' stdout is all written: a line it left open can then be ended on stderr. */
    private volatile boolean stdoutWritten;

    private record MidLine(int rank) {
    }

    /**
     * @param pattern per-peer file pattern ("%r" rank, "%j" job id) or null; peers whose pattern
     *                expands to the same path share one file
     */
    public OutputRouter(int size, boolean tag, String pattern, String jobId, OutputStream out, OutputStream err)
            throws IOException {
        this(size, tag, pattern, jobId, out, err, onePlace(out, err));
    }

    /** As the public constructor, with whether {@code out} and {@code err} go to one place given (for tests). */
    OutputRouter(int size, boolean tag, String pattern, String jobId, OutputStream out, OutputStream err, boolean onePlace)
            throws IOException {
        this.tag = tag;
        if (pattern == null) {
            files = null;
            paths = null;
        } else {
            files = new OutputStream[size];
            paths = new Path[size];
            Map<Path, OutputStream> opened = new HashMap<>();
            for (int r = 0; r < size; r++) {
                Path p = outputPath(pattern, r, jobId).toAbsolutePath();
                OutputStream os = opened.get(p);
                if (os == null) {
                    os = open(p, opened.values());
                    opened.put(p, os);
                }
                files[r] = os;
                paths[r] = p;
            }
        }
        this.onePlace = onePlace;
        this.out = new OutputQueue(out, "cohort-stdout", this::failedWriting);
        this.err = new OutputQueue(err, "cohort-stderr", this::failedWriting);
    }

    /**
     * Whether {@code out} and {@code err} are this process's file descriptors 1 and 2 and lead to the
     * same place, as after {@code 2>&1} or on one terminal; false where /proc cannot tell.
     */
    static boolean onePlace(OutputStream out, OutputStream err) {
        try {
            if (out instanceof java.io.FileOutputStream o && o.getFD() == java.io.FileDescriptor.out
                    && err instanceof java.io.FileOutputStream e && e.getFD() == java.io.FileDescriptor.err) {
                return Files.readSymbolicLink(Path.of("/proc/self/fd/1"))
                        .equals(Files.readSymbolicLink(Path.of("/proc/self/fd/2")));
            }
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            // Not Linux, or not allowed to look: lines may share a line, as before.
        }
        return false;
    }

    /** Creates one output file and its directories; on failure closes {@code others} and says which file, in one sentence. */
    private static OutputStream open(Path p, java.util.Collection<OutputStream> others) throws IOException {
        try {
            if (p.getParent() != null) {
                Files.createDirectories(p.getParent());
            }
            return new BufferedOutputStream(Files.newOutputStream(p), 64 * 1024);
        } catch (IOException e) {
            for (OutputStream o : others) {
                try {
                    o.close();
                } catch (IOException ignored) {
                    // Already failing.
                }
            }
            String why;
            if (e instanceof java.nio.file.NoSuchFileException) {
                why = "no such directory, and it cannot be created";
            } else if (e instanceof java.nio.file.FileAlreadyExistsException) {
                why = e.getMessage() + " is in the way (not a directory)";
            } else {
                why = io.cohort.cluster.TextFiles.reason(e);
            }
            throw new IOException("cannot create the output file " + p + " (--output): " + why, e);
        }
    }

    /** The file of one peer: "%r" is its rank, "%j" the job id, "%%" a percent sign. */
    public static Path outputPath(String pattern, int rank, String jobId) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '%' && i + 1 < pattern.length()) {
                char n = pattern.charAt(i + 1);
                if (n == 'r') {
                    b.append(rank);
                    i++;
                    continue;
                } else if (n == 'j') {
                    b.append(jobId);
                    i++;
                    continue;
                } else if (n == '%') {
                    b.append('%');
                    i++;
                    continue;
                }
            }
            b.append(c);
        }
        return Path.of(b.toString());
    }

    /**
     * One line of a peer's stream (1 stdout, 2 stderr), or the unfinished start of one; the array
     * becomes the router's. Waits while the launcher's stdout or stderr has {@link OutputQueue#LIMIT}
     * bytes queued, until the job is being stopped ({@link #release()}).
     */
    public void write(int rank, int stream, byte[] line) {
        OutputStream target = files != null ? files[rank] : stream == 2 ? err : out;
        if (target instanceof OutputQueue q) {
            q.awaitRoom(line.length + 16); // outside the lock: the launcher's own lines never wait behind it
        }
        synchronized (target) {
            if (failed(target)) {
                return; // its reader is gone or its device full: failure() says so, once
            }
            try {
                MidLine open = midLine.get(target);
                boolean continues = open != null && open.rank == rank;
                if (open != null && !continues) {
                    put(target, NEWLINE); // another peer's unfinished line must not swallow the start of this one
                }
                if (line.length > 0 && line[line.length - 1] != '\n') {
                    midLine.put(target, new MidLine(rank));
                } else {
                    midLine.remove(target);
                }
                put(target, tag && !continues ? tagged(rank, line) : line);
            } catch (IOException e) {
                failedWriting(target, e);
            }
        }
    }

    private static final byte[] NEWLINE = {'\n'};

    /** Writes {@code bytes} to a file, or queues them for the launcher's stdout or stderr without waiting. */
    private static void put(OutputStream target, byte[] bytes) throws IOException {
        if (target instanceof OutputQueue q) {
            q.add(bytes);
        } else {
            target.write(bytes);
        }
    }

    /** "[rank] " and the line: the rest of an unfinished line of the same peer continues it untagged. */
    private static byte[] tagged(int rank, byte[] line) {
        byte[] prefix = ("[" + rank + "] ").getBytes(StandardCharsets.US_ASCII);
        byte[] bytes = new byte[prefix.length + line.length];
        System.arraycopy(prefix, 0, bytes, 0, prefix.length);
        System.arraycopy(line, 0, bytes, prefix.length, line.length);
        return bytes;
    }

    /**
     * The job is being stopped: its peers are ending, and the output they still send must not hold up
     * the reading of their exit reports; see {@link OutputQueue}.
     */
    public void release() {
        out.release();
        err.release();
    }

    /** What could not be written, the first time a write or flush failed; null while all is well. */
    private final java.util.concurrent.atomic.AtomicReference<WriteFailure> failure =
            new java.util.concurrent.atomic.AtomicReference<>();
    private final java.util.Set<OutputStream> failedTargets = java.util.Collections.newSetFromMap(
            new java.util.concurrent.ConcurrentHashMap<>());

    /**
     * The first failure to write the job's output: {@code where} is "its standard output", "its
     * standard error" or the {@code --output} file of a rank; {@code brokenPipe} when the reader went away (a pipe into
     * {@code head}), which Unix tools answer by ending quietly.
     */
    public record WriteFailure(String where, String reason, boolean brokenPipe) {
    }

    /** The first failure to write the job's output, or null. Later lines to a failed target are dropped. */
    public WriteFailure failure() {
        return failure.get();
    }

    private boolean failed(OutputStream target) {
        return failedTargets.contains(target);
    }

    private void failedWriting(OutputStream target, IOException e) {
        if (!failedTargets.add(target)) {
            return;
        }
        String where = target == out ? "its standard output" : target == err ? "its standard error" : fileOf(target);
        String reason = String.valueOf(e.getMessage());
        if (failure.compareAndSet(null, new WriteFailure(where, reason, brokenPipe(reason)))) {
            Runnable l = listener;
            if (l != null) {
                l.run();
            }
        }
    }

    /** Whether {@code reason} is EPIPE's text, in English or in the locale the JVM took its messages from. */
    static boolean brokenPipe(String reason) {
        return reason.contains("Broken pipe") || reason.equals(EpipeText.TEXT);
    }

    /** EPIPE's message in this JVM's locale: a write to a pipe whose reader is closed, once. */
    private static final class EpipeText {
        static final String TEXT = probe();

        private static String probe() {
            try {
                java.nio.channels.Pipe pipe = java.nio.channels.Pipe.open();
                pipe.source().close();
                try (java.nio.channels.Pipe.SinkChannel sink = pipe.sink()) {
                    sink.write(java.nio.ByteBuffer.allocate(1));
                }
                return "\u0000"; // no error: matches no message
            } catch (IOException e) {
                return String.valueOf(e.getMessage());
            }
        }
    }

    private String fileOf(OutputStream target) {
        for (int r = 0; files != null && r < files.length; r++) {
            if (files[r] == target) {
                return "the output file of rank " + r + " (" + paths[r] + ")";
            }
        }
        return "an output file";
    }

    private volatile Runnable listener;

    /** Runs {@code l} once, on the writing thread, when the first write fails. */
    public void onFailure(Runnable l) {
        listener = l;
    }

    /**
     * A line of the launcher's own (a debugger's port, the job's summary) for its stderr, queued in
     * order with the peers' stderr lines; a peer's unfinished line there (a peer killed while
     * printing) is ended first, so the two never share a line. So is a peer's unfinished last line
     * on stdout, once all of stdout is written, where stdout and stderr go to one place; stdout itself
     * is left as the peer wrote it.
     */
    public void launcherLine(String line) {
        writeLauncherBlock((line + System.lineSeparator()).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A block of the launcher's own lines for its stderr (the merged stacks on SIGQUIT), queued as one
     * piece between the peers' lines, so that no peer's line lands inside it.
     */
    public void writeLauncherBlock(byte[] block) {
        synchronized (err) { // never waits for room: the controller's event thread calls this
            boolean stdoutOpen = onePlace && stdoutWritten && midLine.remove(out) != null;
            if (midLine.remove(err) != null | stdoutOpen) {
                err.add(NEWLINE);
            }
            err.add(block);
        }
    }

    /** Writes what the output files hold; the launcher's stdout and stderr flush by themselves. */
    public void flush() {
        if (files != null) {
            for (OutputStream f : files) {
                flush(f);
            }
        }
    }

    private void flush(OutputStream os) {
        synchronized (os) {
            try {
                if (!failed(os)) {
                    os.flush();
                }
            } catch (IOException e) {
                failedWriting(os, e);
            }
        }
    }

    /** What was not written at the end of a job: to the launcher's stdout, and to its stderr. */
    public record Unwritten(long stdout, long stderr) {
        public long total() {
            return stdout + stderr;
        }
    }

    /**
     * Waits until the peers' output is written (see {@link OutputQueue#drain}), then writes and
     * closes the output files. A tagged peer's unfinished last line is ended with a newline.
     *
     * @param stallNanos how long a reader may make no progress before the rest is given up; Long.MAX_VALUE waits for ever
     */
    public Unwritten drain(long stallNanos) {
        if (tag) {
            for (OutputStream target : files == null ? List.of(out, err) : List.of(files)) {
                synchronized (target) {
                    if (midLine.remove(target) != null && !failed(target)) {
                        try {
                            put(target, NEWLINE);
                        } catch (IOException e) {
                            failedWriting(target, e);
                        }
                    }
                }
            }
        }
        long outLeft = out.drain(stallNanos);
        // All written (not given up on a stalled reader), and the peers have ended: nothing more comes.
        stdoutWritten = out.idle();
        Unwritten left = new Unwritten(outLeft, err.drain(stallNanos));
        closeFiles();
        return left;
    }

    /**
     * Ends the router: waits (as {@link #drain}) for what is queued, the launcher's own lines
     * included, and stops the writer threads. A writer still blocked on a reader that stalls is left
     * behind; it is a daemon thread.
     */
    public void close(long stallNanos) {
        drain(stallNanos);
        out.close();
        err.close();
    }

    @Override
    public void close() {
        close(Long.MAX_VALUE);
    }

    /** From now on, {@link #drain} and {@link #close} wait at most {@code stallNanos} for a reader that takes nothing. */
    public void limitStall(long stallNanos) {
        out.limitStall(stallNanos);
        err.limitStall(stallNanos);
    }

    private void closeFiles() {
        if (files == null) {
            return;
        }
        for (OutputStream f : new java.util.LinkedHashSet<>(List.of(files))) {
            synchronized (f) {
                try {
                    if (!failed(f)) {
                        f.close();
                    }
                } catch (IOException e) {
                    failedWriting(f, e); // a file system may report a lost write only now
                }
            }
        }
    }
}
