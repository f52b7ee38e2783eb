package io.cohort;

import io.cohort.wireup.CoreProvider;
import io.cohort.wireup.JobEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** Outside {@code cohort run}, a program is a world of one (the only test in this JVM that calls init). */
class CohortTest {
    @Test
    @Timeout(30)
    void plainJavaProgramIsAWorldOfOne() {
        assumeFalse(JobEnvironment.isLaunched(System.getenv()), "running under cohort run");
        Communicator world = Cohort.init();
        assertSame(world, Cohort.init(), "init returns the same world every time");
        assertEquals(0, world.rank());
        assertEquals(1, world.size());
        world.send(0, 1, new byte[] {5});
        assertArrayEquals(new byte[] {5}, world.recv(Communicator.ANY_SOURCE, 1).bytes());
        world.barrier();
        assertArrayEquals(new byte[] {3}, world.bcast(0, new byte[] {3}));
        Cohort.closeIfOpen();
        IllegalStateException e = assertThrows(IllegalStateException.class, Cohort::init);
        assertEquals("Cohort.init() called after the world communicator was closed", e.getMessage());
        Cohort.closeIfOpen(); // harmless once closed
    }

    /** The API loads its implementation by name: a rename of CoreProvider must change that name too. */
    @Test
    void theApiNamesItsImplementation() {
        assertEquals(CoreProvider.class.getName(), ProviderHolder.IMPLEMENTATION);
        assertSame(CoreProvider.class, CohortProvider.get().getClass());
    }
}
