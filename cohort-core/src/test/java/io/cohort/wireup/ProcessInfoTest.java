package io.cohort.wireup;

import io.cohort.engine.MachineMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class ProcessInfoTest {
    @Test
    void theProcessorsThisProcessMayRunOnAreAtLeastTheOnesItMayUse() {
        String cpus = ProcessInfo.allowedCpus();
        if (!cpus.isEmpty()) { // empty off Linux
            assertTrue(MachineMap.cpuSet(cpus).cardinality() >= Runtime.getRuntime().availableProcessors(), cpus);
        }
        assertTrue(ProcessInfo.machine("fallback-host").length() > 0);
    }
}
