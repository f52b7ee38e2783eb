package io.cohort.daemon;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Timeout(10)
class LoadAverageTest {
    @Test
    void aLoadavgFileMustReadAsProcLoadavgDoes(@TempDir Path dir) throws IOException {
        Path good = Files.writeString(dir.resolve("good"), "0.52 0.58 0.59 1/123 4567\n");
        LoadAverage.check(good);
        Path garbage = Files.writeString(dir.resolve("garbage"), "garbage\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LoadAverage.check(garbage));
        assertEquals(garbage + " does not start with three load averages as /proc/loadavg does (such as"
                + " '0.52 0.58 0.59 1/123 4567')", e.getMessage());
        Path negative = Files.writeString(dir.resolve("negative"), "-1 0 0\n");
        assertThrows(IllegalArgumentException.class, () -> LoadAverage.check(negative));
        e = assertThrows(IllegalArgumentException.class, () -> LoadAverage.check(dir));
        assertEquals(dir + " is not a readable file", e.getMessage());
    }
}
