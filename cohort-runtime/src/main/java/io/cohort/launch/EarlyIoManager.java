package io.cohort.launch;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * An io-manager JVM started before the command line is parsed, for a job on this host: its JVM
 * boots while the launcher builds its command model, instead of after. It waits for its
 * parameters on standard input ({@code IoManagerMain -}); the first local io-manager of the job
 * takes it over ({@link #takeOver}), and if no job uses it (bad input, another launch agent) it
 * reads end of input and exits without a word ({@link #discard}).
 *
 * <p>Threads: the launcher's main thread only.
 */
public final class EarlyIoManager {
    private static Process early;

    private EarlyIoManager() {
    }

    /** Starts one if none is running; failures are ignored (the job then starts its io-manager the usual way). */
    public static void start() {
        if (early != null) {
            return;
        }
        List<String> command = new ArrayList<>();
        command.add(LocalLaunchAgent.SETSID);
        command.addAll(PeerCommandLines.ioManagerJvm());
        command.add(IoManagerMain.PARAMETERS_ON_STDIN);
        try {
            ProcessBuilder pb = new ProcessBuilder(command);
            pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
            pb.redirectError(ProcessBuilder.Redirect.INHERIT);
            early = pb.start();
        } catch (IOException | RuntimeException e) {
            early = null;
        }
    }

    /**
     * Returns the early io-manager for {@code ioManagerCommand} (whose parameters the caller then
     * writes to its standard input, as to any io-manager's), or null if there is none, it is gone, or
     * it was started with another JVM command.
     */
    static Process takeOver(List<String> ioManagerCommand) {
        Process p = early;
        early = null;
        if (p == null || !p.isAlive()) {
            return null;
        }
        List<String> wanted = new ArrayList<>(PeerCommandLines.ioManagerJvm());
        wanted.add(IoManagerMain.PARAMETERS_ON_STDIN);
        if (!ioManagerCommand.equals(wanted)) {
            p.destroy(); // started with other settings than this job wants: not the one to use
            return null;
        }
        return p;
    }

    /** Lets an unused early io-manager go: it reads end of input and exits quietly. */
    public static void discard() {
        Process p = early;
        early = null;
        if (p != null) {
            try {
                p.getOutputStream().close();
            } catch (IOException e) {
                p.destroy();
            }
        }
    }
}
