package io.cohort.systest;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EnvironmentSystemTest {
    private static final String ENV = "io.cohort.systest.programs.EnvPrinter";

    @Test
    @Timeout(60)
    void plainProgramSeesItsIdentityAndForwardedVariables() throws Exception {
        CohortProcess p = CohortProcess.start(Map.of("FWD", "from-launcher"), "run", "-n", "3", "-x", "FOO=bar",
                "-x", "FWD", "--idle", "park", "-cp", CohortProcess.TEST_CLASSES, ENV, "-v", "--foo");
        p.closeStdin();
        assertEquals(0, p.waitFor(), p.toString());
        List<String> lines = p.out();
        assertEquals(3, lines.size(), p.toString());
        String jobId = lines.get(0).replaceAll(".*COHORT_JOB_ID=(\\S+).*", "$1");
        assertTrue(jobId.matches("[0-9a-f]{8}"), jobId);
        for (int r = 0; r < 3; r++) {
            String expected = "env COHORT_RANK=" + r + " COHORT_SIZE=3 COHORT_LOCAL_RANK=" + r + " COHORT_LOCAL_SIZE=3 "
                    + "COHORT_JOB_ID=" + jobId + " COHORT_HOST=";
            String line = lines.stream().filter(l -> l.startsWith(expected)).findFirst().orElse(null);
            assertTrue(line != null, "rank " + r + ": " + p);
            assertTrue(line.endsWith(" COHORT_IDLE=park FOO=bar FWD=from-launcher args=-v,--foo"), line);
        }
    }

    @Test
    @Timeout(60)
    void theLaunchersOwnJobVariablesAreNotPassedOnUnlessAsked() throws Exception {
        // A stale export in the shell (or a peer that runs cohort run itself): the job's options decide.
        Map<String, String> stale = Map.of("COHORT_IDLE", "yield", "COHORT_TRANSPORT", "bogus", "COHORT_VERBOSE", "1",
                "COHORT_RANK", "7");
        CohortProcess p = CohortProcess.start(stale, "run", "-n", "2", "-cp", CohortProcess.TEST_CLASSES, ENV);
        p.closeStdin();
        assertEquals(0, p.waitFor(), p.toString());
        assertEquals(List.of(), p.err(), "no verbose lines, no failing transport: " + p);
        assertTrue(p.out().stream().allMatch(l -> l.contains(" COHORT_IDLE=null ")), p.toString());
        assertTrue(p.out().stream().anyMatch(l -> l.startsWith("env COHORT_RANK=1 ")), p.toString());
        // -x VAR passes one on deliberately.
        CohortProcess asked = CohortProcess.start(stale, "run", "-n", "1", "-x", "COHORT_IDLE", "-cp",
                CohortProcess.TEST_CLASSES, ENV);
        asked.closeStdin();
        assertEquals(0, asked.waitFor(), asked.toString());
        assertTrue(asked.out().get(0).contains(" COHORT_IDLE=yield "), asked.toString());
    }

    @Tag("long")
    @Test
    @Timeout(60)
    void workingDirectoryIsTheLaunchers() throws Exception {
        // A relative classpath only works if the peers start where cohort run was started.
        CohortProcess p = CohortProcess.run("run", "-n", "1", "-cp", "target/test-classes", ENV);
        assertEquals(0, p.exitCode(), p.toString());
        assertTrue(p.out().get(0).startsWith("env COHORT_RANK=0 COHORT_SIZE=1"), p.toString());
    }

    /**
     * The peers' own PATH (-x PATH=...) need not hold the helpers the io-manager starts them under
     * (setsid's setpriv, taskset): those are named by their full paths on the io-manager's PATH.
     */
    @Tag("long")
    @Test
    @Timeout(60)
    void aPeersPathWithoutTheLaunchHelpersStillStartsIt() throws Exception {
        for (String bind : List.of("none", "core")) {
            CohortProcess p = CohortProcess.run("run", "-n", "2", "-x", "PATH=/nonexistent", "--bind-to", bind,
                    "--example", "hello");
            assertEquals(0, p.exitCode(), p.toString());
            assertEquals(2, p.out().size(), p.toString());
        }
    }
}
