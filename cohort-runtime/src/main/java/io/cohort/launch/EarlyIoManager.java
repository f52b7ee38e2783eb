package io.cohort.launch;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
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
        command.addAll(Controller.ioManagerJvm());
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
     * Hands the early io-manager its parameters (the trailing arguments of {@code ioManagerCommand},
     * after the main class) and returns it, or returns null if there is none or it is gone.
     */
    static Process takeOver(List<String> ioManagerCommand) {
        Process p = early;
        early = null;
        if (p == null || !p.isAlive()) {
            return null;
        }
        int main = ioManagerCommand.indexOf(IoManagerMain.class.getName());
        if (main < 0 || !ioManagerCommand.subList(0, main).equals(Controller.ioManagerJvm().subList(0, main))) {
            p.destroy(); // started with other settings than this job wants: not the one to use
            return null;
        }
        try {
            OutputStream in = p.getOutputStream();
            in.write((String.join("\t", ioManagerCommand.subList(main + 1, ioManagerCommand.size())) + "\n")
                    .getBytes(StandardCharsets.UTF_8));
            in.close();
            return p;
        } catch (IOException e) {
            p.destroy();
            return null;
        }
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
