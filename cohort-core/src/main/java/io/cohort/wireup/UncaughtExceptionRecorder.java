package io.cohort.wireup;

import io.cohort.PeerFailedException;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * With {@code cohort run --core-dir}: appends the trace of every exception no code caught to
 * {@value JobEnvironment#UNCAUGHT_EXCEPTION_FILE} in the peer's crash-file directory
 * ({@value JobEnvironment#CRASH_DIR}), the main thread's through {@link PeerMain} and other threads'
 * as the JVM's default uncaught-exception handler, which also prints them as the JVM would.
 *
 * <p>A {@link PeerFailedException} is not recorded: that peer failed because another one vanished,
 * it is collateral and not a cause, and its empty directory is removed at the end so that only the
 * causes' files remain. Writes are serialised; the file is opened per trace, so nothing is held
 * open for the life of the peer.
 */
final class UncaughtExceptionRecorder implements Thread.UncaughtExceptionHandler {
    private final File file;

    private UncaughtExceptionRecorder(File file) {
        this.file = file;
    }

    /** Installs the recorder as the default handler if the launcher gave this peer a crash-file directory; else null. */
    static UncaughtExceptionRecorder installIfWanted() {
        String dir = System.getenv(JobEnvironment.CRASH_DIR);
        if (dir == null || dir.isEmpty()) {
            return null;
        }
        UncaughtExceptionRecorder r = new UncaughtExceptionRecorder(new File(dir, JobEnvironment.UNCAUGHT_EXCEPTION_FILE));
        Thread.setDefaultUncaughtExceptionHandler(r);
        return r;
    }

    @Override
    public void uncaughtException(Thread t, Throwable e) {
        // What ThreadGroup.uncaughtException prints when no default handler is set.
        System.err.print("Exception in thread \"" + t.getName() + "\" ");
        e.printStackTrace(System.err);
        System.err.flush();
        record(t, e);
    }

    /** Appends the trace to the file unless the failure is collateral; a failure to write costs one line on stderr. */
    synchronized void record(Thread t, Throwable e) {
        if (e instanceof PeerFailedException || e instanceof io.cohort.PeerClosedException) {
            return; // collateral: another rank failed, or ended (closing its communicator) while this one needed it
        }
        try (PrintStream out = new PrintStream(new FileOutputStream(file, true), false, StandardCharsets.UTF_8)) {
            out.print("Exception in thread \"" + t.getName() + "\" ");
            e.printStackTrace(out);
            if (out.checkError()) {
                throw new IOException("write failed");
            }
        } catch (IOException | RuntimeException x) {
            System.err.println("cohort: could not record the uncaught exception in " + file + ": " + x.getMessage());
        }
    }
}
