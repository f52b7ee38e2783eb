package io.cohort.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(5)
class IoManagerSegmentCleanupTest {
    @Test
    void onlyTheSegmentsOfOurOwnReceiversAreRemoved(@TempDir Path dir) throws Exception {
        // Rings end in their receiver's rank, a communicator's collective segment in its maker's.
        for (String name : new String[] {"cohort-j1-0-1", "cohort-j1-2-1", "cohort-j1-3-1.tmp", "cohort-j1-1-11",
                                         "cohort-j1-0-2", "cohort-j1-1-0", "cohort-j2-0-1", "cohort-j1-coll-5-9f3a-1",
                                         "cohort-j1-coll-6-77b0-1.tmp", "cohort-j1-coll-7-1b2c-0"}) {
            Files.createFile(dir.resolve(name));
        }
        assertEquals(5, IoManager.removeSegmentFiles(dir, "j1", Set.of(1)));
        Set<String> left;
        try (var files = Files.list(dir)) {
            left = files.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
        assertEquals(new TreeSet<>(Set.of("cohort-j1-1-11", "cohort-j1-0-2", "cohort-j1-1-0", "cohort-j2-0-1",
                "cohort-j1-coll-7-1b2c-0")), left);
    }
}
