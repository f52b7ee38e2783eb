package io.cohort.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When the launcher boots an io-manager before parsing: only for a run that stays on this host. */
class EarlyIoManagerGuessTest {
    @Test
    void aLocalRunStartsOneEarly() {
        assertTrue(Main.runsOnThisHostOnly(new String[] {"run", "-n", "4", "--example", "pi"}));
        assertTrue(Main.runsOnThisHostOnly(new String[] {"run", "-n", "2", "--transport", "shm", "-cp", "x", "Main"}));
        // The program's own words never count, even if they look like ours.
        assertTrue(Main.runsOnThisHostOnly(new String[] {"run", "-n", "2", "-jar", "app.jar", "--hosts", "a,b"}));
    }

    @Test
    void otherHostsHelpAndOtherCommandsDoNot() {
        assertFalse(Main.runsOnThisHostOnly(new String[] {"run", "--hosts", "a,b", "-n", "4", "--example", "pi"}));
        assertFalse(Main.runsOnThisHostOnly(new String[] {"run", "--launch-agent=netns", "--example", "pi"}));
        assertFalse(Main.runsOnThisHostOnly(new String[] {"run", "--help"}));
        assertFalse(Main.runsOnThisHostOnly(new String[] {"run", "-n", "2"}));
        assertFalse(Main.runsOnThisHostOnly(new String[] {"examples"}));
        assertFalse(Main.runsOnThisHostOnly(new String[0]));
    }
}
