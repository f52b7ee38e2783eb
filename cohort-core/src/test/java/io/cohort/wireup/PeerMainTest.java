package io.cohort.wireup;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(10)
class PeerMainTest {
    @Test
    void anUncaughtExceptionsTraceEndsAtTheProgramsMainAsUnderPlainJava() {
        StackTraceElement[] launched = {
                new StackTraceElement("app.Solver", "step", "Solver.java", 40),
                new StackTraceElement("app.Solver", "main", "Solver.java", 12),
                new StackTraceElement("jdk.internal.reflect.NativeMethodAccessorImpl", "invoke0", null, -2),
                new StackTraceElement("jdk.internal.reflect.DelegatingMethodAccessorImpl", "invoke", null, 43),
                new StackTraceElement("java.lang.reflect.Method", "invoke", null, 569),
                new StackTraceElement(ProgramEntry.class.getName(), "run", "ProgramEntry.java", 97),
                new StackTraceElement(PeerMain.class.getName(), "main", "PeerMain.java", 45)};
        RuntimeException cause = new RuntimeException("cause");
        cause.setStackTrace(launched.clone());
        IllegalStateException t = new IllegalStateException("top", cause);
        t.setStackTrace(launched.clone());
        StackTraceElement[] other = {new StackTraceElement("app.Worker", "run", "Worker.java", 7)};
        RuntimeException elsewhere = new RuntimeException("another thread's");
        elsewhere.setStackTrace(other);
        cause.initCause(elsewhere);
        RuntimeException closing = new RuntimeException("close() failed");
        closing.setStackTrace(launched.clone());
        t.addSuppressed(closing);
        PeerMain.withoutLauncherFrames(t);
        assertEquals(java.util.List.of(launched[0], launched[1]), java.util.List.of(closing.getStackTrace()));
        assertEquals(java.util.List.of(launched[0], launched[1]), java.util.List.of(t.getStackTrace()));
        assertEquals(java.util.List.of(launched[0], launched[1]), java.util.List.of(cause.getStackTrace()));
        assertEquals(java.util.List.of(other), java.util.List.of(elsewhere.getStackTrace()), "left as it is");
    }

    @Test
    void aMissingDependencyIsNamedNotTheMainClass() {
        assertEquals("class app.Solver needs class org.HdrHistogram.Histogram, which is not on the peer's classpath;"
                        + " add the jar or directory that holds it to -cp (with -jar: to the Class-Path of the jar's"
                        + " manifest)",
                PeerMain.missingClass("app.Solver", "org/HdrHistogram/Histogram"));
    }

    @Test
    void theMainClassItselfMissingOrMisnamedIsSaidSo() {
        assertEquals("class app.Solver was not found on the peer's classpath",
                PeerMain.missingClass("app.Solver", "app/Solver"));
        assertEquals("class app.Solver was not found on the peer's classpath", PeerMain.missingClass("app.Solver", null));
        assertEquals("the class file for app.solver holds class app.Solver; name the main class exactly (its package,"
                        + " in the same case)",
                PeerMain.missingClass("app.solver", "app/solver (wrong name: app/Solver)"));
    }

    @Test
    void aTooNewMainClassNamesItsJavaAndTheFix() {
        assertEquals("class app.Solver was compiled for a newer Java (class file version 65, Java 21) than the peer's"
                        + " Java 17; compile it with --release 17, or run the peers on a newer JDK",
                PeerMain.unsupportedVersion("app.Solver", "app/Solver has been compiled by a more recent version of the"
                        + " Java Runtime (class file version 65.0), this version of the Java Runtime only recognizes"
                        + " class file versions up to 61.0", 17));
    }

    @Test
    void aTooNewLibraryClassIsNamedNotTheMainClass() {
        assertEquals("class app.Solver needs class lib.Base, which was compiled for a newer Java (class file version 65,"
                        + " Java 21) than the peer's Java 17; use a build of it for Java 17, or run the peers on a newer JDK",
                PeerMain.unsupportedVersion("app.Solver", "lib/Base has been compiled by a more recent version of the"
                        + " Java Runtime (class file version 65.0), this version of the Java Runtime only recognizes"
                        + " class file versions up to 61.0", 17));
    }

    @Test
    void previewFeaturesAndOtherVersionErrorsAreNotCalledTooNew() {
        assertEquals("class app.Solver was compiled with Java's preview features; run it with --jvm-opt --enable-preview"
                        + " (on the Java it was compiled for), or compile it without them",
                PeerMain.unsupportedVersion("app.Solver", "Preview features are not enabled for app/Solver (class file"
                        + " version 65.65535). Try running with '--enable-preview'", 21));
        assertEquals("class app.Solver cannot be loaded: app/Solver (class file version 44.0) has an invalid major version",
                PeerMain.unsupportedVersion("app.Solver", "app/Solver (class file version 44.0) has an invalid major version",
                        17));
    }
}
