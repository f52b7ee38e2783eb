package io.cohort.wireup;

import io.cohort.CohortException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class JobEnvironmentTest {
    static Map<String, String> valid() {
        Map<String, String> env = new HashMap<>();
        env.put(JobEnvironment.JOB_ID, "job-1");
        env.put(JobEnvironment.RANK, "2");
        env.put(JobEnvironment.SIZE, "4");
        env.put(JobEnvironment.CONTROLLER, "127.0.0.1:5555");
        env.put(JobEnvironment.JOB_KEY, "5e".repeat(32));
        return env;
    }

    static Map<String, String> with(String name, String value) {
        Map<String, String> env = valid();
        if (value == null) {
            env.remove(name);
        } else {
            env.put(name, value);
        }
        return env;
    }

    /** One sentence naming the variable. */
    static void assertClearError(String variable, Map<String, String> env) {
        CohortException e = assertThrows(CohortException.class, () -> JobEnvironment.from(env), variable);
        String m = e.getMessage();
        assertTrue(m.contains(variable), "message does not name " + variable + ": " + m);
        assertFalse(m.contains("\n"), "not one sentence: " + m);
        assertFalse(m.contains("Exception"), "leaks an exception class: " + m);
    }

    @Test
    void parsesAValidEnvironmentWithDefaults() {
        JobEnvironment j = JobEnvironment.from(valid());
        assertEquals("job-1", j.jobId());
        assertEquals(2, j.rank());
        assertEquals(4, j.size());
        assertEquals(2, j.localRank());
        assertEquals(4, j.localSize());
        assertEquals("localhost", j.host());
        assertEquals(5555, j.controller().getPort());
        assertEquals("127.0.0.1", j.controller().getHostString());
        assertEquals("5e".repeat(32), j.secret().toHex());
        assertEquals(JobEnvironment.WIREUP_TIMEOUT_DEFAULT_SECONDS, j.wireupTimeoutSeconds());
        assertTrue(JobEnvironment.isLaunched(valid()));
        assertFalse(JobEnvironment.isLaunched(Map.of()));
    }

    @Test
    void optionalVariables() {
        Map<String, String> env = valid();
        env.put(JobEnvironment.LOCAL_RANK, "1");
        env.put(JobEnvironment.LOCAL_SIZE, "2");
        env.put(JobEnvironment.HOST, "node9");
        env.put(JobEnvironment.WIREUP_TIMEOUT, " 120 ");
        JobEnvironment j = JobEnvironment.from(env);
        assertEquals(1, j.localRank());
        assertEquals(2, j.localSize());
        assertEquals("node9", j.host());
        assertEquals(120, j.wireupTimeoutSeconds());
    }

    @Test
    void missingVariablesAreNamed() {
        for (String v : new String[] {JobEnvironment.JOB_ID, JobEnvironment.RANK, JobEnvironment.SIZE,
                JobEnvironment.CONTROLLER, JobEnvironment.JOB_KEY}) {
            assertClearError(v, with(v, null));
            assertClearError(v, with(v, "  "));
        }
    }

    @Test
    void invalidNumbersAreNamed() {
        assertClearError(JobEnvironment.SIZE, with(JobEnvironment.SIZE, "four"));
        assertClearError(JobEnvironment.SIZE, with(JobEnvironment.SIZE, "0"));
        assertClearError(JobEnvironment.RANK, with(JobEnvironment.RANK, "4"));
        assertClearError(JobEnvironment.RANK, with(JobEnvironment.RANK, "-1"));
        assertClearError(JobEnvironment.RANK, with(JobEnvironment.RANK, "99999999999"));
        assertClearError(JobEnvironment.LOCAL_SIZE, with(JobEnvironment.LOCAL_SIZE, "5"));
        Map<String, String> env = with(JobEnvironment.LOCAL_SIZE, "2");
        env.put(JobEnvironment.LOCAL_RANK, "2");
        assertClearError(JobEnvironment.LOCAL_RANK, env);
        assertClearError(JobEnvironment.WIREUP_TIMEOUT, with(JobEnvironment.WIREUP_TIMEOUT, "0"));
        assertClearError(JobEnvironment.WIREUP_TIMEOUT, with(JobEnvironment.WIREUP_TIMEOUT, "1.5"));
        CohortException e = assertThrows(CohortException.class, () -> JobEnvironment.from(with(JobEnvironment.RANK, "4")));
        assertTrue(e.getMessage().contains("0 to 3"), e.getMessage());
    }

    @Test
    void invalidControllerAddressIsNamed() {
        for (String bad : new String[] {"nohost", "host:", "host:port", "host:99999", "host:-1"}) {
            assertClearError(JobEnvironment.CONTROLLER, with(JobEnvironment.CONTROLLER, bad));
        }
    }

    @Test
    void parseAddress() {
        assertEquals(80, JobEnvironment.parseAddress("example.invalid:80").getPort());
        assertEquals("::1", JobEnvironment.parseAddress("::1:7000").getHostString().replace("0:0:0:0:0:0:0:1", "::1"));
    }

    @Test
    void transportKeyIsDerivedFromTheSecret() {
        long k = JobEnvironment.from(valid()).transportKey();
        assertEquals(k, JobEnvironment.from(valid()).transportKey());
        assertNotEquals(k, JobEnvironment.from(with(JobEnvironment.JOB_KEY, "5f".repeat(32))).transportKey());
    }

    @Test
    void aKeyThatIsNoSecretIsRefusedWithoutShowingIt() {
        CohortException e = assertThrows(CohortException.class,
                () -> JobEnvironment.from(with(JobEnvironment.JOB_KEY, "guessable")));
        assertTrue(e.getMessage().contains("COHORT_JOB_KEY"), e.getMessage());
        assertFalse(e.getMessage().contains("guessable"), e.getMessage());
    }

    @Test
    void udpTransportAndFaultSpec() {
        JobEnvironment j = JobEnvironment.from(with(JobEnvironment.TRANSPORT, "UDP"));
        assertEquals("udp", j.transport());
        assertTrue(j.fault().isNone());
        Map<String, String> env = with(JobEnvironment.TRANSPORT, "udp");
        env.put(JobEnvironment.FAULT, "loss=0.05,seed=7");
        assertEquals(0.05, JobEnvironment.from(env).fault().loss());
        assertEquals(7, JobEnvironment.from(env).fault().seed());
        env.put(JobEnvironment.FAULT, "loss=7");
        assertClearError(JobEnvironment.FAULT, env);
    }
}
