package io.cohort.profile;

import jdk.jfr.Configuration;
import jdk.jfr.Recording;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;

/**
 * Records this peer's profile, as {@code cohort run --profile} asks for it, in one of two
 * {@link Mode}s: where the file goes, what it is called, and starting it. (What a recorded file
 * holds, once read back, is {@code cohort-tools}' {@code io.cohort.tools.prof.PeerProfile}.)
 *
 * <p>Files are named after PSE's profiler, uniquely by application, kind of data and rank:
 * {@code DIR/<App>.prof.<rank>.tsv} (summary) or {@code .jfr} (full), {@code App} the main class's
 * simple name. Either is written when the JVM exits (return from {@code main}, {@code System.exit},
 * SIGTERM) by a shutdown hook: the summary by ours, the full recording by the Flight Recorder's.
 */
public final class ProfileRecording {
    /** The recording's settings, a resource beside this class in cohort-core.jar. */
    public static final String SETTINGS_RESOURCE = "cohort.jfc";
    /** The kind of data in PSE's file names: {@code <App>.prof.<rank>}. */
    public static final String KIND = "prof";
    public static final String EXTENSION = ".jfr";

    /** What a profile records. */
    public enum Mode {
        /**
         * Totals per operation, peer, size class and call site, kept in memory and written at exit
         * ({@link Summary}), and method samples ({@link StackSampler}): no Flight Recorder runs.
         */
        SUMMARY,
        /**
         * A Flight Recorder recording with every call as an event (the timeline needs them), the
         * JDK's method sampler, GC and park events ({@value #SETTINGS_RESOURCE}); costs a Flight
         * Recorder's start (about a second of CPU) and some microseconds per call.
         */
        FULL;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** {@code summary} or {@code full}, any case; null for anything else. */
        public static Mode of(String label) {
            for (Mode m : values()) {
                if (m.label().equalsIgnoreCase(label == null ? "" : label.trim())) {
                    return m;
                }
            }
            return null;
        }
    }
    /**
     * JVM options {@code cohort run --profile} gives every peer in summary mode. Inlined into every
     * send, receive and wait of the library, the summary's bookkeeping ({@code Summary.call}) made
     * the JIT compile it a dozen times over: on a short message-heavy job the peers' compilers
     * worked about 0.3 s more each, most of what profiling cost. Kept out of line it is compiled
     * once, and a call pays one real call instead. {@code quiet} keeps the JVM from announcing
     * the command on the program's output.
     */
    public static final java.util.List<String> SUMMARY_JVM_OPTIONS = java.util.List.of(
            "-XX:CompileCommand=quiet", "-XX:CompileCommand=dontinline,io.cohort.profile.Summary::call");

    /** The directory when {@code --profile} has no value; {@code %j} is the job id. */
    public static final String DEFAULT_DIRECTORY = "cohort-prof-%j";

    private ProfileRecording() {
    }

    /** {@code com.x.Solver} and rank 3: {@code Solver.prof.3.jfr}. */
    public static String fileName(String mainClass, int rank) {
        return fileName(mainClass, rank, Mode.FULL);
    }

    /** {@code com.x.Solver}, rank 3: {@code Solver.prof.3.tsv} (summary) or {@code Solver.prof.3.jfr} (full). */
    public static String fileName(String mainClass, int rank, Mode mode) {
        return simpleName(mainClass) + "." + KIND + "." + rank + (mode == Mode.SUMMARY ? SummaryFormat.EXTENSION : EXTENSION);
    }

    /** The class name after its package: {@code com.x.Solver} is {@code Solver}, {@code com.x.A$B} is {@code A$B}. */
    public static String simpleName(String mainClass) {
        return mainClass.substring(mainClass.lastIndexOf('.') + 1);
    }

    /**
     * The directory a spec names for a job: {@code %j} is the job id, {@code %%} a percent sign.
     *
     * @throws IllegalArgumentException for any other {@code %} sequence
     */
    public static String directory(String spec, String jobId) {
        StringBuilder b = new StringBuilder(spec.length() + 8);
        for (int i = 0; i < spec.length(); i++) {
            char c = spec.charAt(i);
            if (c != '%') {
                b.append(c);
                continue;
            }
            char next = i + 1 < spec.length() ? spec.charAt(i + 1) : 0;
            if (next == 'j') {
                b.append(jobId);
            } else if (next == '%') {
                b.append('%');
            } else {
                throw new IllegalArgumentException("'" + spec + "' has a % that is neither %j (the job id) nor %% (a percent sign)");
            }
            i++;
        }
        return b.toString();
    }

    /**
     * Starts this peer's full recording into {@code directory} (created if missing; relative to the
     * working directory), written when the JVM exits. Returns the file it will write.
     *
     * @throws IOException if the directory cannot be made or the file cannot be written
     */
    public static Path start(Path directory, String mainClass, int rank) throws IOException {
        return start(directory, mainClass, rank, Mode.FULL);
    }

    /**
     * Starts this peer's profile in {@code mode} into {@code directory} (created if missing; relative
     * to the working directory), written when the JVM exits. Returns the file it will write.
     *
     * @throws IOException if the directory cannot be made or the file cannot be written
     */
    public static Path start(Path directory, String mainClass, int rank, Mode mode) throws IOException {
        Path dir = directory.toAbsolutePath();
        Files.createDirectories(dir);
        Path file = dir.resolve(fileName(mainClass, rank, mode));
        Profiling.application(mainClass);
        if (mode == Mode.SUMMARY) {
            if (!Files.isWritable(dir)) {
                throw new java.nio.file.AccessDeniedException(dir.toString());
            }
            StackSampler sampler = new StackSampler();
            Profiling.summaryStarted();
            Runtime.getRuntime().addShutdownHook(new SummaryWriter(file, sampler, rank));
            sampler.start();
            return file;
        }
        Recording r = new Recording(settings());
        r.setName("cohort-profile-" + rank);
        r.setToDisk(true); // a long job's events outgrow the in-memory buffers; the repository holds them
        r.setDumpOnExit(true);
        r.setDestination(file);
        r.start();
        Profiling.recorderStarted();
        return file;
    }

    /** Writes the summary when the JVM exits; a class, not a lambda, to keep a short peer's start-up short. */
    private static final class SummaryWriter extends Thread {
        private final Path file;
        private final StackSampler sampler;
        private final int rank;

        SummaryWriter(Path file, StackSampler sampler, int rank) {
            super("cohort-profile-writer");
            this.file = file;
            this.sampler = sampler;
            this.rank = rank;
        }

        @Override
        public void run() {
            sampler.finish(); // a world never closed (System.exit, SIGTERM) is written with its job open
            try {
                Summary.write(file, sampler, rank);
            } catch (IOException | RuntimeException e) {
                System.err.println("cohort: rank " + rank + " could not write its profile " + file + ": "
                        + (e.getMessage() != null ? e.getMessage() : e.toString()));
            }
        }
    }

    /** The settings shipped in {@value #SETTINGS_RESOURCE}. */
    public static Configuration settings() throws IOException {
        try (InputStream in = ProfileRecording.class.getResourceAsStream(SETTINGS_RESOURCE)) {
            if (in == null) {
                throw new IOException(SETTINGS_RESOURCE + " is missing from cohort-core.jar; rebuild Cohort");
            }
            try (Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
                return Configuration.create(reader);
            }
        } catch (ParseException e) {
            throw new IOException(SETTINGS_RESOURCE + " is not a valid Flight Recorder configuration: " + e.getMessage(), e);
        }
    }
}
