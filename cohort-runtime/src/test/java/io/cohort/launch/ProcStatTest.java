package io.cohort.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProcStatTest {
    @Test
    void fieldsAreCountedAfterTheLastParenthesisOfTheCommandName() {
        String[] f = ProcStat.fields("4242 (a) b (c)) T 1 4242 4242 0 -1 4194560");
        assertEquals("T", f[ProcStat.STATE]);
        assertEquals("4242", f[ProcStat.PGRP]);
        assertEquals("-1", f[ProcStat.TPGID]);
    }

    @Test
    void statesWhereJavaCodeCannotRunAreNamedWithTheirPid() {
        assertEquals("is stopped (state T: SIGSTOP or SIGTSTP sent to its process); kill -CONT 7 continues it",
                ProcStat.describeState("T", 7));
        assertTrue(ProcStat.describeState("t", 7).startsWith("is stopped by a tracer (state t:"));
        assertTrue(ProcStat.describeState("D", 7).startsWith("is in uninterruptible sleep (state D: a thread of process 7 "));
        assertTrue(ProcStat.describeState("Z", 7).startsWith("has ended (process 7, state Z)"));
        for (String runs : new String[] {"R", "S", "I", "?"}) {
            assertNull(ProcStat.describeState(runs, 7), runs);
        }
        assertNull(ProcStat.describeIdle(-1), "a rank that never told its pid");
    }

    @Test
    @Timeout(30)
    void aStoppedProcessReadsAsStoppedAndARunningOneAsNothing() throws Exception {
        Process sleeper = new ProcessBuilder("sleep", "60").start();
        try {
            long pid = sleeper.pid();
            // Starting, it may be in a disk sleep for a moment; stopped it is not.
            assertFalse(String.valueOf(ProcStat.describeIdle(pid)).startsWith("is stopped"));
            assertEquals(0, new ProcessBuilder("kill", "-STOP", Long.toString(pid)).start().waitFor());
            // kill(2) returns before the target has stopped: it stops once it next runs.
            String described;
            while (!String.valueOf(described = ProcStat.describeIdle(pid)).startsWith("is stopped")) {
                Thread.onSpinWait(); // bounded by the time-out; a passing disk sleep reads as not stopped yet
            }
            assertEquals("is stopped (state T: SIGSTOP or SIGTSTP sent to its process); kill -CONT " + pid
                    + " continues it", described);
        } finally {
            sleeper.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        assertNull(ProcStat.describeIdle(sleeper.pid()), "gone");
    }
}
