package io.cohort.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a short system command ({@code id}, {@code chrt}, {@code renice}) with a real time-out: the
 * command's output is read only once it has exited or been killed, so a command stuck in a slow name
 * service lookup cannot hold the caller. Output beyond a pipe's buffer (64 KiB) is not expected from
 * these commands. {@code POSIXLY_CORRECT} is removed from the environment, since it changes how
 * util-linux reads some options. Any thread.
 */
public final class Commands {
    public static final long TIMEOUT_SECONDS = 5;

    private Commands() {
    }

    /**
     * The command's standard output and error, trimmed.
     *
     * @throws IOException when it cannot start, does not finish within {@value #TIMEOUT_SECONDS} s, or
     *                     exits non-zero (the message then is its first line of output)
     */
    public static String output(List<String> command) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().remove("POSIXLY_CORRECT");
        Process p = pb.start();
        p.getOutputStream().close();
        try {
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(command.get(0) + " did not finish in " + TIMEOUT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + command.get(0));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.exitValue() != 0) {
            throw new IOException(command.get(0) + " refused: " + (out.isEmpty() ? "exit " + p.exitValue() : out.lines().findFirst().orElse("")));
        }
        return out;
    }
}
