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
 * This peer's profile: the Flight Recorder recording {@code cohort run --profile} asks for.
 *
 * <p>Files are named after PSE's profiler, uniquely by application, kind of data and rank:
 * {@code DIR/<App>.prof.<rank>.jfr}, {@code App} the main class's simple name. The recording uses
 * the settings in {@value #SETTINGS_RESOURCE} beside this class and is written to its file when
 * the JVM exits (return from {@code main}, {@code System.exit}, SIGTERM), by the Flight Recorder's
 * own shutdown hook.
 */
public final class PeerProfile {
    /** The recording's settings, a resource beside this class in cohort-core.jar. */
    public static final String SETTINGS_RESOURCE = "cohort.jfc";
    /** The kind of data in PSE's file names: {@code <App>.prof.<rank>}. */
    public static final String KIND = "prof";
    public static final String EXTENSION = ".jfr";
    /** The directory when {@code --profile} has no value; {@code %j} is the job id. */
    public static final String DEFAULT_DIRECTORY = "cohort-prof-%j";

    private PeerProfile() {
    }

    /** {@code com.x.Solver} and rank 3: {@code Solver.prof.3.jfr}. */
    public static String fileName(String mainClass, int rank) {
        return simpleName(mainClass) + "." + KIND + "." + rank + EXTENSION;
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
     * Starts this peer's recording into {@code directory} (created if missing; relative to the
     * working directory), written when the JVM exits. Returns the file it will write.
     *
     * @throws IOException if the directory cannot be made or the file cannot be written
     */
    public static Path start(Path directory, String mainClass, int rank) throws IOException {
        Path dir = directory.toAbsolutePath();
        Files.createDirectories(dir);
        Path file = dir.resolve(fileName(mainClass, rank));
        Recording r = new Recording(settings());
        r.setName("cohort-profile-" + rank);
        r.setToDisk(true); // a long job's events outgrow the in-memory buffers; the repository holds them
        r.setDumpOnExit(true);
        r.setDestination(file);
        Profiling.application(mainClass);
        r.start();
        Profiling.recorderStarted();
        return file;
    }

    /** The settings shipped in {@value #SETTINGS_RESOURCE}. */
    public static Configuration settings() throws IOException {
        try (InputStream in = PeerProfile.class.getResourceAsStream(SETTINGS_RESOURCE)) {
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
