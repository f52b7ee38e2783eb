package io.cohort.systest;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Programs whose main class is on the {@code -cp} but cannot be loaded there: the launcher's check
 * (the class file exists) passes, and each peer names what is wrong in one line, exit status 3. The
 * programs are compiled here, then broken as users break them: a dependency's jar left off the
 * classpath, a class file from a newer JDK.
 */
@Timeout(120)
class ProgramLoadingSystemTest {
    static final Path ROOT = CohortProcess.MODULE.resolve("target/loading-programs");

    @BeforeAll
    static void compilePrograms() throws Exception {
        CohortProcess.requireDist();
        for (String dir : List.of("nodep", "newer", "lazydep")) {
            Path d = ROOT.resolve(dir);
            Files.createDirectories(d.resolve("app"));
            Path helper = d.resolve("app/Helper.java");
            Path main = d.resolve("app/Solver.java");
            Files.writeString(helper, "package app;\npublic class Helper { public int answer() { return 42; } }\n");
            // Helper in a signature: looking up main resolves it, as a library type in a field or method would.
            // In lazydep only main's body names it, so it is missed only when main runs.
            Files.writeString(main, dir.equals("lazydep")
                    ? "package app;\npublic class Solver {\n"
                    + "    public static void main(String[] args) {\n        System.out.println(\"before\");\n"
                    + "        System.out.println(new Helper().answer());\n    }\n}\n"
                    : "package app;\npublic class Solver {\n"
                    + "    public static Helper helper() { return new Helper(); }\n"
                    + "    public static void main(String[] args) { System.out.println(helper().answer()); }\n}\n");
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            javax.tools.JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
            assertNotNull(javac, "the tests need a JDK (javac), not a JRE");
            int rc = javac.run(null, null, err, "--release", "17", "-d", d.toString(),
                    helper.toString(), main.toString());
            assertEquals(0, rc, "javac: " + err);
        }
        // A non-public class whose main is static but not public: Java 25's launcher starts it, older ones do not.
        Path pkg = ROOT.resolve("pkgmain/app");
        Files.createDirectories(pkg);
        Files.writeString(pkg.resolve("Solver.java"), "package app;\nclass Solver {\n"
                + "    static void main(String[] args) { System.out.println(\"ran with \" + args.length); }\n}\n");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, err, "--release", "17", "-d",
                ROOT.resolve("pkgmain").toString(), pkg.resolve("Solver.java").toString());
        assertEquals(0, rc, "javac: " + err);
        Files.delete(ROOT.resolve("nodep/app/Helper.class"));
        Files.delete(ROOT.resolve("lazydep/app/Helper.class"));
        // Class file major version 100 (Java 56, newer than any JDK the peers may run): bytes 6-7.
        Path newer = ROOT.resolve("newer/app/Solver.class");
        byte[] b = Files.readAllBytes(newer);
        b[6] = 0;
        b[7] = 100;
        Files.write(newer, b);
    }

    @Test
    @Timeout(60)
    void aDependencyLeftOffTheClasspathIsNamed() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "2", "-cp", ROOT.resolve("nodep").toString(), "app.Solver");
        assertEquals(3, p.exitCode(), p.toString());
        List<String> peers = p.err().stream().filter(l -> !l.startsWith("cohort: job ")).toList();
        assertFalse(peers.isEmpty(), p.toString());
        assertTrue(peers.stream().allMatch(l -> l.equals("cohort: class app.Solver needs class app.Helper, which is not on"
                + " the peer's classpath; add the jar or directory that holds it to -cp (with -jar: to the Class-Path"
                + " of the jar's manifest)")), p.toString());
        assertFalse(p.err().stream().anyMatch(l -> l.contains("\tat ") || l.contains("Exception")), p.toString());
    }

    @Tag("long")
    @Test
    @Timeout(60)
    void aDependencyMissedOnlyWhileMainRunsIsNamedToo() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "2", "-cp", ROOT.resolve("lazydep").toString(), "app.Solver");
        assertEquals(3, p.exitCode(), p.toString());
        List<String> peers = p.err().stream().filter(l -> !l.startsWith("cohort: job ")).toList();
        assertFalse(peers.isEmpty(), p.toString());
        assertTrue(peers.stream().allMatch(l -> l.matches("cohort: rank [01]: class app\\.Solver needs class app\\.Helper,"
                + " which is not on the peer's classpath; .* \\(at app\\.Solver\\.main\\(Solver\\.java:5\\)\\)")), p.toString());
        assertFalse(p.err().stream().anyMatch(l -> l.contains("\tat ") || l.contains("Exception")), p.toString());
        // --verbose shows the trace, with the same exit status.
        CohortProcess v = CohortProcess.run("run", "-n", "1", "--verbose", "-cp", ROOT.resolve("lazydep").toString(), "app.Solver");
        assertEquals(3, v.exitCode(), v.toString());
        assertTrue(v.err().stream().anyMatch(l -> l.contains("NoClassDefFoundError: app/Helper")), v.toString());
    }

    @Tag("long")
    @Test
    @Timeout(60)
    void aMainThatIsNotPublicRunsWhereThePeersJavaStartsItAndIsNamedWhereItDoesNot() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "2", "-cp", ROOT.resolve("pkgmain").toString(), "app.Solver", "x");
        if (p.exitCode() == 0) {
            // The peers' Java is 25 or newer: it starts the class as the java launcher would.
            assertEquals(List.of("ran with 1", "ran with 1"), p.out(), p.toString());
            assertTrue(Runtime.version().feature() >= 25, "the peers run the tests' Java: " + p);
            return;
        }
        assertEquals(3, p.exitCode(), p.toString());
        List<String> peers = p.err().stream().filter(l -> !l.startsWith("cohort: job ")).toList();
        assertFalse(peers.isEmpty(), p.toString());
        assertTrue(peers.stream().allMatch(l -> l.matches("cohort: class app\\.Solver has a non-public static void"
                + " main\\(String\\[\\]\\), which Java (1[7-9]|2[0-4]) does not start; make it public static void"
                + " main\\(String\\[\\]\\), or run the peers on Java 25 or newer")), p.toString());
    }

    @Test
    @Timeout(60)
    void aClassFromANewerJdkSaysWhichAndHowToFixIt() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "1", "-cp", ROOT.resolve("newer").toString(), "app.Solver");
        assertEquals(3, p.exitCode(), p.toString());
        assertTrue(p.err().stream().anyMatch(l -> l.matches("cohort: class app\\.Solver was compiled for a newer Java \\(class"
                + " file version 100, Java 56\\) than the peer's Java (\\d+); compile it with --release \\1, or run the peers"
                + " on a newer JDK")), p.toString());
        assertFalse(p.err().stream().anyMatch(l -> l.contains("\tat ")), p.toString());
    }
}
