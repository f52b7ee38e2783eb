package io.cohort.launch;

import io.cohort.wireup.JobEnvironment;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Per-peer crash-file directories ({@code cohort run --core-dir DIR}), PSE's per-peer core
 * directories for the JVM. Peers share a working directory, so without care their crash files would
 * mix; each peer gets its own directory instead:
 *
 * <pre>
 *  DIR/                               --core-dir, or $COHORT_CORE_DIR
 *   └─ App.1a2b3c4d/                  the main class's simple name . the job id: one per job
 *       ├─ rank-0/                    one per peer ($COHORT_CRASH_DIR in its environment)
 *       │   ├─ hs_err_pid4711.log     the JVM's fatal-error log (-XX:ErrorFile)
 *       │   ├─ java_pid4711.hprof     a heap dump on OutOfMemoryError (-XX:HeapDumpPath)
 *       │   └─ uncaught-exception.txt traces of exceptions no code caught (PeerMain)
 *       └─ rank-1/ ...
 * </pre>
 *
 * The controller names the directories and adds the JVM flags; the io-manager of the peer's host
 * creates the directory before the peer starts (the JVM writes there but does not create it),
 * lists what the peer left once it has exited (the list travels in EXITED, so it works across
 * hosts), and removes a directory the peer left empty, then the job's directory if nothing is left
 * in it: what remains is only the causes.
 */
public final class CrashDirectories {
    /** The launcher's environment variable that turns crash files on without {@code --core-dir}. */
    public static final String CORE_DIR_ENV_NAME = "COHORT_CORE_DIR";
    private static final int CREATE_TRIES = 3;

    private CrashDirectories() {
    }

    /** {@code root/App.jobId}: the job's directory, named after the main class's simple name. */
    public static Path jobDirectory(Path root, String mainClass, String jobId) {
        String simple = mainClass.substring(mainClass.lastIndexOf('.') + 1);
        StringBuilder app = new StringBuilder();
        for (int i = 0; i < simple.length(); i++) {
            char c = simple.charAt(i);
            app.append(Character.isLetterOrDigit(c) || c == '_' || c == '-' ? c : '_');
        }
        return root.resolve((app.length() == 0 ? "app" : app) + "." + jobId);
    }

    /** {@code jobDirectory/rank-R}. */
    public static Path rankDirectory(Path jobDirectory, int rank) {
        return jobDirectory.resolve("rank-" + rank);
    }

    /**
     * The peer JVM's flags that put its fatal-error log and heap dumps in {@code dir}. They come
     * before the user's {@code --jvm-opt}s, which therefore win (e.g. {@code -XX:-HeapDumpOnOutOfMemoryError}).
     * The directory must not contain '%' (the JVM expands it in these paths), which the command line checks.
     */
    public static List<String> jvmFlags(Path dir) {
        return List.of("-XX:ErrorFile=" + dir.resolve("hs_err_pid%p.log"),
                "-XX:+HeapDumpOnOutOfMemoryError",
                "-XX:HeapDumpPath=" + dir + "/");
    }

    /**
     * Creates the directory and its parents. A few tries: the io-manager of another host on a shared
     * file system may be removing the (empty) job directory at the same moment.
     */
    static void create(Path dir) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                Files.createDirectories(dir);
                return;
            } catch (NoSuchFileException e) {
                if (attempt == CREATE_TRIES) {
                    throw e;
                }
            }
        }
    }

    /**
     * What a peer that has exited left in its directory, as sorted absolute paths; an empty directory
     * is removed (and the empty list returned). Never throws: a directory that cannot be read counts as empty.
     */
    static List<String> collect(Path dir) {
        List<String> files = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                files.add(p.toAbsolutePath().toString());
            }
        } catch (IOException e) {
            return files;
        }
        if (files.isEmpty()) {
            removeIfEmpty(dir);
        }
        files.sort(null);
        if (files.size() > REPORTED_FILES_MAX) {
            // The EXITED frame has room for a bounded list; a program that writes thousands of
            // files there gets the first ones named and the directory for the rest.
            int more = files.size() - REPORTED_FILES_MAX + 1;
            List<String> head = new ArrayList<>(files.subList(0, REPORTED_FILES_MAX - 1));
            head.add(dir.toAbsolutePath() + " (" + more + " more files)");
            return head;
        }
        return files;
    }

    /** At most this many names per peer go into its EXITED frame (well below {@code ExitReport}'s limit). */
    static final int REPORTED_FILES_MAX = 32;

    /** Removes the directory if it is empty; true if it is gone. */
    static boolean removeIfEmpty(Path dir) {
        try {
            Files.deleteIfExists(dir);
            return true;
        } catch (IOException e) { // DirectoryNotEmptyException above all: some peer left files
            return false;
        }
    }

    /** The peer's directory from the environment its LAUNCH gave it, or null without --core-dir. */
    static Path ofPeer(java.util.Map<String, String> environment) {
        String dir = environment.get(JobEnvironment.CRASH_DIR);
        return dir == null || dir.isEmpty() ? null : Path.of(dir);
    }
}
