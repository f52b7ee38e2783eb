package io.cohort.wireup;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(10)
class PeerMainTest {
    @Test
    void aMissingDependencyIsNamedNotTheMainClass() {
        assertEquals("class app.Solver needs class org.HdrHistogram.Histogram, which is not on the peer's classpath;"
                        + " add the jar or directory that holds it to -cp",
                PeerMain.missingClass("app.Solver", "org/HdrHistogram/Histogram"));
    }

    @Test
    void theMainClassItselfMissingOrMisnamedIsSaidSo() {
        assertEquals("class app.Solver was not found on the peer's classpath",
                PeerMain.missingClass("app.Solver", "app/Solver"));
        assertEquals("class app.Solver was not found on the peer's classpath", PeerMain.missingClass("app.Solver", null));
        assertEquals("class app.solver was not found on the peer's classpath (app.solver (wrong name: app.Solver))",
                PeerMain.missingClass("app.solver", "app/solver (wrong name: app/Solver)"));
    }

    @Test
    void aTooNewClassFileNamesItsJavaAndTheFix() {
        assertEquals("class app.Solver was compiled for a newer Java (class file version 65, Java 21) than the peer's"
                        + " Java 17; compile it with --release 17, or run the peers on a newer JDK",
                PeerMain.tooNew("app.Solver", "app/Solver has been compiled by a more recent version of the Java Runtime"
                        + " (class file version 65.0), this version of the Java Runtime only recognizes class file"
                        + " versions up to 61.0", 17));
        assertEquals("class app.Solver was compiled for a newer Java than the peer's Java 17; compile it with"
                + " --release 17, or run the peers on a newer JDK", PeerMain.tooNew("app.Solver", "odd", 17));
    }
}
