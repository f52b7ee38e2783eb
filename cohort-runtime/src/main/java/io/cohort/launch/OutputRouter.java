package io.cohort.launch;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Writes the peers' output lines where the user asked: the launcher's stdout/stderr (optionally
 * tagged "[rank] "), or one file per peer ({@code --output PATTERN}, both streams into the same file,
 * in the order the io-manager read them). Each line is written with one call under the target's
 * lock, so lines of different peers never mix; a peer's unfinished line (its last, or a piece of a
 * very long one) is ended with a newline only if another peer's line comes next to the same place.
 * Thread-safe.
 */
public final class OutputRouter implements Closeable {
    private final boolean tag;
    private final OutputStream out;
    private final OutputStream err;
    private final OutputStream[] files;
    /** The path of each rank's file, for messages; null without --output. */
    private final Path[] paths;
    /** Targets whose last write ended without a newline, and whose line it was; guarded by the target's lock. */
    private final Map<OutputStream, MidLine> midLine = new java.util.concurrent.ConcurrentHashMap<>();

    private record MidLine(int rank) {
    }

    /**
     * @param pattern per-peer file pattern ("%r" rank, "%j" job id) or null; peers whose pattern
     *                expands to the same path share one file
     */
    public OutputRouter(int size, boolean tag, String pattern, String jobId, OutputStream out, OutputStream err)
            throws IOException {
        this.tag = tag;
        this.out = new BufferedOutputStream(out, 64 * 1024);
        this.err = new BufferedOutputStream(err, 64 * 1024);
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
            } else if (e instanceof java.nio.file.AccessDeniedException) {
                why = "permission denied";
            } else if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) {
                why = f.getReason();
            } else {
                why = String.valueOf(e.getMessage());
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

    /** One line of a peer's stream (1 stdout, 2 stderr). */
    public void write(int rank, int stream, byte[] line) {
        OutputStream target = files != null ? files[rank] : stream == 2 ? err : out;
        byte[] bytes = line;
        if (tag) {
            byte[] prefix = ("[" + rank + "] ").getBytes(StandardCharsets.US_ASCII);
            boolean newline = line.length > 0 && line[line.length - 1] == '\n';
            bytes = new byte[prefix.length + line.length + (newline ? 0 : 1)];
            System.arraycopy(prefix, 0, bytes, 0, prefix.length);
            System.arraycopy(line, 0, bytes, prefix.length, line.length);
            if (!newline) {
                bytes[bytes.length - 1] = '\n'; // a tagged cut or final piece must not run into the next tag
            }
        }
        synchronized (target) {
            if (failed(target)) {
                return; // its reader is gone or its device full: failure() says so, once
            }
            try {
                MidLine open = midLine.get(target);
                if (open != null && open.rank != rank) {
                    target.write('\n'); // another peer's unfinished line must not swallow the start of this one
                }
                if (bytes.length > 0 && bytes[bytes.length - 1] != '\n') {
                    midLine.put(target, new MidLine(rank));
                } else {
                    midLine.remove(target);
                }
                target.write(bytes);
            } catch (IOException e) {
                failedWriting(target, e);
            }
        }
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
     * The launcher is about to write a line of its own to its stderr (the job's summary): a peer's
     * unfinished line there (a peer killed while printing) is ended first, so the two never share a line.
     */
    public void breakStderrLine() {
        synchronized (err) {
            try {
                if (midLine.remove(err) != null) {
                    err.write('\n');
                }
                err.flush();
            } catch (IOException e) {
                // The reader went away (closed pipe); the summary will fail the same way, harmlessly.
            }
        }
    }

    /**
     * A block of the launcher's own lines for its stderr (the merged stacks on SIGQUIT), written with
     * one call between the peers' lines, so that no peer's line lands inside it.
     */
    public void writeLauncherBlock(byte[] block) {
        synchronized (err) {
            try {
                if (midLine.remove(err) != null) {
                    err.write('\n');
                }
                err.write(block);
                err.flush();
            } catch (IOException e) {
                // The reader went away (closed pipe); the job goes on.
            }
        }
    }

    /**
     * Prints one line of the launcher's own on {@code log} (its stderr) while no peer line can be
     * written to stderr, after ending a peer's unfinished line there.
     */
    public void launcherLine(java.io.PrintStream log, String line) {
        synchronized (err) {
            breakStderrLine();
            log.println(line);
            log.flush();
        }
    }

    public void flush() {
        flush(out);
        flush(err);
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

    @Override
    public void close() {
        flush();
        if (files != null) {
            for (OutputStream f : files) {
                try {
                    f.close();
                } catch (IOException e) {
                    failedWriting(f, e); // a file system may report a lost write only now
                }
            }
        }
    }
}
