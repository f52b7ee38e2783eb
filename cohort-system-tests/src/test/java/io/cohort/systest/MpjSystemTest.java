package io.cohort.systest;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A program written for MPJ Express (mpiJava 1.2) runs unmodified as
 * {@code cohort run -n N -cp cohort-mpj.jar:classes Program}, with cohort-mpj.jar from the dist's
 * lib/. The programs are compiled here against that jar: this module's test classpath holds
 * cohort-mpi, whose package is mpi too.
 */
class MpjSystemTest {
    static final Path CLASSES = CohortProcess.MODULE.resolve("target/mpj-programs");
    static final String JAR = CohortProcess.LIB.resolve("cohort-mpj.jar").toString();

    @BeforeAll
    static void compilePrograms() throws Exception {
        CohortProcess.requireDist();
        Files.createDirectories(CLASSES);
        for (String name : List.of("MpjRingAndReduce", "MpjBadRank")) {
            Path src = CLASSES.resolve(name + ".java");
            try (InputStream in = MpjSystemTest.class.getResourceAsStream("/mpj/" + name + ".java")) {
                Files.write(src, in.readAllBytes());
            }
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int rc = ToolProvider.getSystemJavaCompiler().run(null, null, err, "--release", "17", "-classpath", JAR,
                    "-d", CLASSES.toString(), src.toString());
            assertEquals(0, rc, "javac " + name + " against " + JAR + ": " + err);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 4})
    @Timeout(60)
    void mpjExpressProgramRunsUnmodified(int n) throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", String.valueOf(n), "-cp", JAR + File.pathSeparator + CLASSES,
                "MpjRingAndReduce");
        assertEquals(0, p.exitCode(), p.toString());
        assertEquals(List.of("mpj: " + n + " processes, token " + n + ", sum " + (n * (n - 1) / 2) + ", all correct"),
                p.out(), p.toString());
    }

    @Test
    @Timeout(60)
    void anMpjErrorEndsTheJobNamingTheRank() throws Exception {
        CohortProcess p = CohortProcess.run("run", "-n", "2", "-cp", JAR + File.pathSeparator + CLASSES, "MpjBadRank");
        assertEquals(1, p.exitCode(), p.toString());
        // The cause's line; rank 0, waiting in the barrier, may add one "stopped" line of its own.
        List<String> errors = p.err().stream().filter(l -> l.startsWith("cohort-mpj: ") && !l.contains(" stopped: "))
                .toList();
        assertEquals(1, errors.size(), p.toString());
        assertTrue(errors.get(0).startsWith("cohort-mpj: rank 1: Send: destination rank 7 is not in this communicator of 2"),
                errors.get(0));
        assertTrue(p.err().stream().anyMatch(l -> l.contains("failed: rank 1 on ") && l.contains("root cause")),
                p.toString());
        assertTrue(p.err().stream().noneMatch(l -> l.contains("\tat ")), "no stack trace: " + p);
    }
}
