package io.cohort.systest;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.File;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A program written for the Open MPI Java bindings runs unmodified as
 * {@code cohort run -n N -cp cohort-mpi.jar:classes Program}, with cohort-mpi.jar from the dist's lib/.
 */
class MpiSystemTest {
    @ParameterizedTest
    @ValueSource(ints = {1, 4})
    @Timeout(60)
    void openMpiJavaProgramRunsUnmodified(int n) throws Exception {
        String cp = CohortProcess.LIB.resolve("cohort-mpi.jar") + File.pathSeparator + CohortProcess.TEST_CLASSES;
        CohortProcess p = CohortProcess.run("run", "-n", String.valueOf(n), "-cp", cp,
                "io.cohort.systest.programs.MpiRingAndReduce");
        assertEquals(0, p.exitCode(), p.toString());
        assertEquals(java.util.List.of("mpi: " + n + " processes, token " + n + ", sum " + (n * (n - 1) / 2)
                + ", all correct"), p.out(), p.toString());
    }

    @Tag("long")
    @Test
    @Timeout(60)
    void algorithmsNamedInAJvmOptionAreTheOnesEveryPeerRuns() throws Exception {
        String cp = CohortProcess.LIB.resolve("cohort-mpi.jar") + File.pathSeparator + CohortProcess.TEST_CLASSES;
        CohortProcess p = CohortProcess.run("run", "-n", "3", "--verbose", "--jvm-opt",
                "-Dcohort.collectives.algorithms=allreduce_reduce_bcast,bcast_linear", "-cp", cp,
                "io.cohort.systest.programs.MpiRingAndReduce");
        assertEquals(0, p.exitCode(), p.toString());
        assertEquals(java.util.List.of("mpi: 3 processes, token 3, sum 3, all correct"), p.out(), p.toString());
        assertTrue(p.err().stream().anyMatch(l -> l.matches("cohort: allreduce of \\d+ B at 3 peers uses reduce\\+binomial-bcast")),
                p.toString());
        assertTrue(p.err().stream().anyMatch(l -> l.matches("cohort: bcast of \\d+ B at 3 peers uses linear")), p.toString());
    }

    @ParameterizedTest
    @ValueSource(ints = {2})
    @Timeout(60)
    void anMpiErrorEndsTheJobNamingTheRank(int n) throws Exception {
        String cp = CohortProcess.LIB.resolve("cohort-mpi.jar") + File.pathSeparator + CohortProcess.TEST_CLASSES;
        CohortProcess p = CohortProcess.run("run", "-n", String.valueOf(n), "-cp", cp,
                "io.cohort.systest.programs.MpiBadRank");
        assertEquals(1, p.exitCode(), p.toString());
        assertEquals(true, p.err().stream().anyMatch(l -> l.contains("cohort-mpi: rank 1: send: destination rank 7")
                && l.contains("MPI.ERR_RANK")), p.toString());
    }

    @Tag("long")
    @ParameterizedTest
    @ValueSource(ints = {7, 0})
    @Timeout(60)
    void abortEndsEveryPeerWithItsCodeAndZeroWithOne(int code) throws Exception {
        String cp = CohortProcess.LIB.resolve("cohort-mpi.jar") + File.pathSeparator + CohortProcess.TEST_CLASSES;
        CohortProcess p = CohortProcess.run("run", "-n", "3", "-cp", cp, "io.cohort.systest.programs.MpiAborts",
                Integer.toString(code));
        assertEquals(code == 0 ? 1 : code, p.exitCode(), p.toString());
        assertTrue(p.err().stream().anyMatch(l -> l.startsWith("cohort-mpi: rank 0 called abort(" + code + "); the job ends")),
                p.toString());
    }
}
