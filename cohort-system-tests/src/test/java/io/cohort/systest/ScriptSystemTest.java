package io.cohort.systest;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ./cohort script at the repository root, run from another directory. */
class ScriptSystemTest {
    @Test
    @Timeout(60)
    void scriptRunsAJobFromAnyDirectoryAndPassesArgumentsThrough(@TempDir Path cwd) throws Exception {
        Assumptions.assumeTrue(distUpToDate(), "sources are newer than the built distribution, and this test must not "
                + "start a nested build; run 'mvn package' first");
        Process p = new ProcessBuilder(CohortProcess.ROOT.resolve("cohort").toString(), "run", "-n", "2", "--tag-output",
                "--example", "pi", "1000").directory(cwd.toFile()).redirectErrorStream(true).start();
        p.getOutputStream().close();
        List<String> lines;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream()))) {
            lines = r.lines().collect(Collectors.toList());
        }
        assertEquals(0, p.waitFor(), lines.toString());
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith("[0] pi = 3.14"), lines.toString());
    }

    private static boolean distUpToDate() throws IOException {
        Path stamp = CohortProcess.HOME.resolve("BUILT");
        if (!Files.isRegularFile(stamp)) {
            return false;
        }
        FileTime built = Files.getLastModifiedTime(stamp);
        try (Stream<Path> modules = Files.list(CohortProcess.ROOT)) {
            for (Path m : modules.filter(d -> Files.isDirectory(d.resolve("src"))).toList()) {
                try (Stream<Path> files = Files.walk(m.resolve("src"))) {
                    if (files.anyMatch(f -> newer(f, built))) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private static boolean newer(Path f, FileTime t) {
        try {
            return Files.getLastModifiedTime(f).compareTo(t) > 0;
        } catch (IOException e) {
            return false;
        }
    }
}
