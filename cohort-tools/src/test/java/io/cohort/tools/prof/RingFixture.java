package io.cohort.tools.prof;

import demo.RingProgram;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Recordings of a ring job, one file per simulated peer ({@code Ring.prof.<rank>.jfr}): {@code LAPS}
 * laps of {@code BYTES}-byte messages, ranks 0-1 on host {@code node-a}, the others on {@code node-b};
 * rank 0 also computes for a while under the method sampler. Recorded once per test JVM
 * ({@link #shared()}); tests only read it.
 */
final class RingFixture {
    static final int SIZE = 4;
    static final int LAPS = 10;
    static final long BYTES = 1000;
    static final long COMPUTE_MILLIS = 300;
    private static Path shared;

    private RingFixture() {
    }

    static synchronized Path shared() {
        if (shared == null) {
            try {
                Path dir = Files.createTempDirectory("cohort-prof-ring");
                Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir)));
                shared = write(dir);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return shared;
    }

    static ProfileSet load() {
        try {
            return ProfileSet.load(shared(), w -> {
                throw new AssertionError("unexpected warning: " + w);
            });
        } catch (ProfileInputException e) {
            throw new AssertionError(e);
        }
    }

    static Path write(Path dir) throws IOException {
        for (int r = 0; r < SIZE; r++) {
            FakePeer.Options o = FakePeer.Options.of("Ring", r < 2 ? "node-a" : "node-b");
            if (r == 0) {
                o = o.sampled();
            }
            // JFR's sampler sometimes takes no sample of a short burst of computing (seen in full module
            // runs, where the loop is compiled early): the reports are tested on rank 0's samples, so
            // its recording is made again until it holds some, at most five times.
            for (int attempt = 0; attempt < 5; attempt++) {
                Path file = FakePeer.record(dir, r, SIZE, o, world -> {
                    if (world.rank() == 0) {
                        RingProgram.compute(COMPUTE_MILLIS);
                    }
                    RingProgram.run(world, LAPS, BYTES);
                });
                if (r != 0 || computeSamples(file) > 0) {
                    break;
                }
            }
        }
        return dir;
    }

    /** Execution samples whose top frame is the ring program's arithmetic. */
    private static long computeSamples(Path file) throws IOException {
        long n = 0;
        try (jdk.jfr.consumer.RecordingFile in = new jdk.jfr.consumer.RecordingFile(file)) {
            while (in.hasMoreEvents()) {
                jdk.jfr.consumer.RecordedEvent e = in.readEvent();
                if (e.getEventType().getName().equals(ProfileEvents.EXECUTION_SAMPLE) && e.getStackTrace() != null
                        && !e.getStackTrace().getFrames().isEmpty()
                        && e.getStackTrace().getFrames().get(0).getMethod().getName().equals("crunch")) {
                    n++;
                }
            }
        }
        return n;
    }

    static void delete(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // A temporary directory left behind is harmless.
        }
    }
}
