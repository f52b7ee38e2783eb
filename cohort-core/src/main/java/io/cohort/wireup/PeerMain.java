package io.cohort.wireup;

import io.cohort.Cohort;
import io.cohort.CollectiveMismatchException;
import io.cohort.GlobalProgramException;
import io.cohort.PeerClosedException;
import io.cohort.PeerFailedException;
import io.cohort.profile.ProfileRecording;
import io.cohort.profile.Profiling;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.util.Arrays;

/**
 * What {@code cohort run} starts in every peer JVM: {@code PeerMain <MainClass> args...}. Like
 * PSE's initialization routine that ran before user code, it watches the io-manager (a peer never
 * outlives it), runs the program's {@code main}, closes the world communicator if the program left
 * it open, and turns an escaping exception into exit status 1 at once. With a crash-file directory
 * ({@code cohort run --core-dir}) it also records the traces of uncaught exceptions there
 * ({@link UncaughtExceptionRecorder}).
 *
 * <p>With {@link JobEnvironment#PROFILE} set ({@code cohort run --profile}) it first starts this
 * peer's Flight Recorder recording ({@link ProfileRecording}), which the JVM writes when it exits however
 * it exits (return, {@code System.exit}, an escaping exception, SIGTERM from the launcher; not
 * SIGKILL). A programmatic recording rather than {@code -XX:StartFlightRecording}: the file name
 * needs the rank and the program's name, the directory must exist first, and the settings travel
 * inside cohort-core.jar; the JVM flag can do none of these on a remote host without help.
 */
public final class PeerMain {
    /** Exit status when the main class cannot be found or has no {@code main}. */
    public static final int EXIT_NO_MAIN = 3;

    private PeerMain() {
    }

    public static void main(String[] args) throws Throwable {
        if (args.length == 0) {
            System.err.println("cohort: PeerMain needs the program's main class as its first argument");
            System.exit(EXIT_NO_MAIN);
        }
        watchParent();
        UncaughtExceptionRecorder recorder = UncaughtExceptionRecorder.installIfWanted();
        ProgramEntry main = findMain(args[0]);
        startProfile(args[0]);
        try {
            main.run(Arrays.copyOfRange(args, 1, args.length));
        } catch (InvocationTargetException e) {
            Throwable t = e.getCause();
            boolean verbose = "1".equals(System.getenv(JobEnvironment.VERBOSE));
            int status = 1;
            if (t instanceof StartupFailedException && !verbose) {
                // A set-up fault, not the program's: the message says it all (rank, job, reason).
                System.err.println("cohort: " + t.getMessage());
            } else if ((t instanceof PeerClosedException || t instanceof CollectiveMismatchException
                    || t instanceof GlobalProgramException || t instanceof io.cohort.ObjectRefusedException)
                    && !verbose) {
                // The programs do not match (or the filter refused what one sent): the sentence
                // names the peers, the frame the call.
                System.err.println("cohort: rank " + System.getenv(JobEnvironment.RANK) + ": " + t.getMessage()
                        + userFrame(t));
            } else if (t instanceof NoClassDefFoundError n && n.getCause() instanceof ClassNotFoundException) {
                // A class the program names at run time is missing: the classpath's fault, as at start-up.
                status = EXIT_NO_MAIN;
                if (verbose) {
                    System.err.print("Exception in thread \"main\" ");
                    t.printStackTrace();
                } else {
                    StackTraceElement[] at = t.getStackTrace();
                    String needing = at.length > 0 ? at[0].getClassName() : args[0];
                    System.err.println("cohort: rank " + System.getenv(JobEnvironment.RANK) + ": "
                            + missingClass(needing, n.getMessage()) + userFrame(t));
                }
            } else if (t instanceof PeerFailedException && !verbose) {
                // Collateral damage: one line per peer, so the launcher's root-cause line stays visible.
                System.err.println("cohort: rank " + System.getenv(JobEnvironment.RANK) + " stopped: " + t.getMessage()
                        + userFrame(t));
            } else {
                if (!verbose) {
                    withoutLauncherFrames(t);
                }
                System.err.print("Exception in thread \"main\" ");
                t.printStackTrace();
            }
            System.err.flush();
            if (recorder != null) {
                recorder.record(Thread.currentThread(), t);
            }
            Profiling.finishJobs(); // the world stays open (closing it could wait on failed peers); the job's time ends here
            System.exit(status);
        }
        Cohort.closeIfOpen();
    }

    /**
     * With {@code cohort run --profile}: starts this peer's profile before the program runs. A
     * recording that cannot start costs one line, not the run.
     */
    private static void startProfile(String mainClass) {
        Profiling.application(mainClass); // what io.cohort.PeerInfo names, whoever records
        Profiling.launchedAs(System.getenv(JobEnvironment.SIZE), System.getenv(JobEnvironment.JOB_ID),
                System.getenv(JobEnvironment.HOST));
        String spec = System.getenv(JobEnvironment.PROFILE);
        if (spec == null || spec.isBlank()) {
            return;
        }
        String rank = System.getenv(JobEnvironment.RANK);
        String dir = spec;
        try {
            String jobId = System.getenv(JobEnvironment.JOB_ID);
            dir = ProfileRecording.directory(spec, jobId == null ? "unknown" : jobId);
            String modeName = System.getenv(JobEnvironment.PROFILE_MODE);
            ProfileRecording.Mode mode = ProfileRecording.Mode.of(modeName == null || modeName.isBlank() ? "summary" : modeName);
            if (mode == null) {
                throw new IllegalArgumentException(JobEnvironment.PROFILE_MODE + "=" + modeName + " is neither summary nor full");
            }
            ProfileRecording.start(java.nio.file.Path.of(dir), mainClass, Integer.parseInt(rank), mode);
        } catch (IOException | RuntimeException | LinkageError e) {
            System.err.println("cohort: rank " + rank + " cannot record a profile in " + dir + ": " + profileFailure(e)
                    + "; it runs without one");
        }
    }

    private static String profileFailure(Throwable e) {
        if (e instanceof LinkageError) {
            return "this Java runtime has no Flight Recorder, module jdk.jfr";
        }
        if (e instanceof java.nio.file.AccessDeniedException a) {
            return "permission denied: " + a.getFile();
        }
        if (e instanceof java.nio.file.FileAlreadyExistsException f) {
            return f.getFile() + " exists and is not a directory";
        }
        if (e instanceof java.nio.file.FileSystemException f && f.getReason() == null) {
            return "it cannot be made here (" + e.getClass().getSimpleName() + ")"; // the message is only the path
        }
        return e.getMessage() != null ? e.getMessage() : e.toString();
    }

    /**
     * Cuts the frames below the program's main method (the reflective call and {@link ProgramEntry},
     * {@code PeerMain}) from {@code t}, its causes and suppressed exceptions, so that the trace ends where a trace of
     * {@code java Main} does.
     */
    static void withoutLauncherFrames(Throwable t) {
        java.util.Set<Throwable> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        java.util.ArrayDeque<Throwable> todo = new java.util.ArrayDeque<>(java.util.List.of(t));
        while (!todo.isEmpty()) {
            Throwable x = todo.pop();
            if (!seen.add(x)) {
                continue;
            }
            if (x.getCause() != null) {
                todo.push(x.getCause());
            }
            for (Throwable suppressed : x.getSuppressed()) { // a close() that failed inside try-with-resources
                todo.push(suppressed);
            }
            StackTraceElement[] s = x.getStackTrace();
            int entry = -1;
            for (int i = 0; i < s.length; i++) {
                if (s[i].getClassName().equals(ProgramEntry.class.getName())) {
                    entry = i;
                    break;
                }
            }
            if (entry < 0) {
                continue; // a trace that does not run through the entry (another thread's cause)
            }
            int cut = entry;
            while (cut > 0 && (s[cut - 1].getClassName().startsWith("jdk.internal.reflect.")
                    || s[cut - 1].getClassName().startsWith("java.lang.reflect."))) {
                cut--;
            }
            x.setStackTrace(java.util.Arrays.copyOf(s, cut));
        }
    }

    /** " (at Main.java:42)": where the program was when the failure reached it. */
    private static String userFrame(Throwable t) {
        for (StackTraceElement f : t.getStackTrace()) {
            if (!library(f.getClassName())) {
                return " (at " + f + ")";
            }
        }
        return "";
    }

    /** The JDK's classes and Cohort's own (from this jar; the examples and tests are programs too). */
    private static boolean library(String className) {
        if (className.startsWith("java.") || className.startsWith("jdk.") || className.startsWith("sun.")) {
            return true;
        }
        if (!className.startsWith("io.cohort.")) {
            return false;
        }
        try {
            Class<?> c = Class.forName(className, false, ClassLoader.getSystemClassLoader());
            java.security.CodeSource mine = PeerMain.class.getProtectionDomain().getCodeSource();
            java.security.CodeSource its = c.getProtectionDomain().getCodeSource();
            return mine == null || its == null || mine.getLocation().equals(its.getLocation());
        } catch (ClassNotFoundException | LinkageError | SecurityException e) {
            return true;
        }
    }

    private static ProgramEntry findMain(String className) {
        try {
            return ProgramEntry.of(Class.forName(className, false, ClassLoader.getSystemClassLoader()),
                    Runtime.version().feature());
        } catch (ClassNotFoundException e) {
            System.err.println("cohort: class " + className + " was not found on the peer's classpath");
        } catch (NoClassDefFoundError e) {
            System.err.println("cohort: " + missingClass(className, e.getMessage()));
        } catch (UnsupportedClassVersionError e) {
            System.err.println("cohort: " + unsupportedVersion(className, e.getMessage(), Runtime.version().feature()));
        } catch (ProgramEntry.NoEntryException e) {
            System.err.println("cohort: " + e.getMessage());
        }
        System.exit(EXIT_NO_MAIN);
        return null;
    }

    /**
     * What a {@link NoClassDefFoundError} met while looking the program up means: the class itself
     * is missing or misnamed, or (the message names another class) a class its methods name, from
     * a jar the {@code -cp} left out. The launcher checked only that the main class's file exists.
     */
    static String missingClass(String className, String message) {
        String missing = message == null ? "" : message.replace('/', '.');
        java.util.regex.Matcher wrong = java.util.regex.Pattern.compile("\\(wrong name: ([^)]+)\\)").matcher(missing);
        if (wrong.find()) {
            return "the class file for " + className + " holds class " + wrong.group(1)
                    + "; name the main class exactly (its package, in the same case)";
        }
        if (missing.isEmpty() || missing.equals(className)) {
            return "class " + className + " was not found on the peer's classpath";
        }
        return "class " + className + " needs class " + missing + ", which is not on the peer's classpath; add the jar"
                + " or directory that holds it to -cp (with -jar: to the Class-Path of the jar's manifest)";
    }

    /**
     * What an {@link UnsupportedClassVersionError} met while looking the program up means: the main
     * class, or a class it names (a library built for a newer Java), is newer than this JVM; or it
     * was compiled with preview features, which the peers' JVMs must enable.
     */
    static String unsupportedVersion(String className, String message, int javaFeature) {
        String text = message == null ? "" : message;
        java.util.regex.Matcher newer = java.util.regex.Pattern
                .compile("^(\\S+) has been compiled by a more recent version.*?class file version (\\d+)").matcher(text);
        if (newer.find()) {
            String culprit = newer.group(1).replace('/', '.');
            int major = Integer.parseInt(newer.group(2));
            String version = " (class file version " + major + ", Java " + (major - 44) + ")";
            if (culprit.equals(className)) {
                return "class " + className + " was compiled for a newer Java" + version + " than the peer's Java "
                        + javaFeature + "; compile it with --release " + javaFeature + ", or run the peers on a newer JDK";
            }
            return "class " + className + " needs class " + culprit + ", which was compiled for a newer Java" + version
                    + " than the peer's Java " + javaFeature + "; use a build of it for Java " + javaFeature
                    + ", or run the peers on a newer JDK";
        }
        if (text.startsWith("Preview features are not enabled")) {
            return "class " + className + " was compiled with Java's preview features; run it with --jvm-opt"
                    + " --enable-preview (on the Java it was compiled for), or compile it without them";
        }
        return "class " + className + " cannot be loaded: " + text;
    }

    /** The io-manager is our parent; when it is gone, so is the job: end this process too. */
    private static void watchParent() {
        ParentWatch.start("cohort-parent-watch", new EndWithIoManager());
    }

    /** A class, not a lambda: linking a lambda costs a short peer's start-up more than the class does. */
    private static final class EndWithIoManager implements java.util.function.LongConsumer {
        @Override
        public void accept(long parent) {
            System.err.println("cohort: the io-manager (pid " + parent + ") of pid " + ProcessInfo.pid()
                    + " is gone; ending this peer");
            System.err.flush();
            // It would have removed the job's shared-memory directory; every peer of this host ends now,
            // so whichever gets here removes it (the others find it gone).
            java.nio.file.Path shm = io.cohort.transport.shm.ShmJobDirectory.given(
                    System.getenv(io.cohort.transport.shm.ShmJobDirectory.ENV_NAME));
            if (shm != null) {
                io.cohort.transport.shm.ShmJobDirectory.remove(shm);
            }
            Runtime.getRuntime().halt(143);
        }
    }
}
