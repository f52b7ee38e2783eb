package io.cohort.systest;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * jdb attached to a debugged peer as a plain child process (the JDK's, else the one on the PATH):
 * collects its output as it comes, types commands on its stdin. Tests wait on its output, never on time.
 */
final class JdbProcess implements AutoCloseable {
    private final Process process;
    private final StringBuilder screen = new StringBuilder();

    static Path jdb() {
        Path own = Path.of(System.getProperty("java.home"), "bin", "jdb");
        return Files.isExecutable(own) ? own : Path.of("jdb");
    }

    JdbProcess(String address) throws IOException {
        process = new ProcessBuilder(jdb().toString(), "-attach", address).redirectErrorStream(true).start();
        Thread reader = new Thread(() -> {
            byte[] buf = new byte[4096];
            try (InputStream in = process.getInputStream()) {
                int n;
                while ((n = in.read(buf)) > 0) {
                    synchronized (screen) {
                        screen.append(new String(buf, 0, n, StandardCharsets.UTF_8));
                        screen.notifyAll();
                    }
                }
            } catch (IOException ignored) {
                // jdb ended.
            }
        });
        reader.setDaemon(true);
        reader.start();
    }

    /** Waits for jdb to print {@code text}; false if it ended first. */
    boolean await(String text) throws InterruptedException {
        synchronized (screen) {
            while (!screen.toString().contains(text)) {
                if (!process.isAlive()) {
                    return screen.toString().contains(text);
                }
                screen.wait(100); // woken by each read; the timeout only notices jdb's end
            }
            return true;
        }
    }

    void type(String line) throws IOException {
        OutputStream in = process.getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }

    @Override
    public String toString() {
        synchronized (screen) {
            return screen.toString();
        }
    }
}
