package io.cohort.daemon;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
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

    @Test
    void aLoadavgFileThatGoesBadIsAnUnknownLoadNotTheSharedKernels(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("load"), "1.5 2.5 3.5 1/2 3\n");
        LoadAverage.source(file);
        try {
            assertArrayEquals(new double[] {1.5, 2.5, 3.5}, LoadAverage.read());
            assertNull(LoadAverage.problem());
            Files.writeString(file, "garbage\n");
            assertArrayEquals(new double[] {-1, -1, -1}, LoadAverage.read());
            assertTrue(LoadAverage.problem().startsWith("the load file " + file + " no longer reads as /proc/loadavg does"),
                    LoadAverage.problem());
            Files.delete(file);
            assertArrayEquals(new double[] {-1, -1, -1}, LoadAverage.read());
            assertTrue(LoadAverage.problem().contains("(it is gone)"), LoadAverage.problem());
            Files.writeString(file, "0.25 0.5 0.75\n");
            assertArrayEquals(new double[] {0.25, 0.5, 0.75}, LoadAverage.read());
            assertNull(LoadAverage.problem());
        } finally {
            LoadAverage.source(Path.of("/proc/loadavg"));
        }
    }
}
