package io.cohort.daemon;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class ClusterKeyTest {
    @TempDir
    Path dir;

    @Test
    void keygenWritesSixtyFourHexDigitsReadableByTheOwnerOnly() throws Exception {
        Path f = dir.resolve("cluster.key");
        ClusterKey.generate(f);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        assertTrue(Files.readString(f).strip().matches("[0-9a-f]{64}"));
        assertEquals(32, ClusterKey.load(f).bytes().length);
        ClusterConfigException e = assertThrows(ClusterConfigException.class, () -> ClusterKey.generate(f));
        assertTrue(e.getMessage().contains("already exists"), e.getMessage());
    }

    @Test
    void aKeyOthersMayReadIsRefusedWithTheChmodToRun() throws Exception {
        Path f = dir.resolve("k");
        ClusterKey.generate(f);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
        ClusterConfigException e = assertThrows(ClusterConfigException.class, () -> ClusterKey.load(f));
        assertTrue(e.getMessage().contains("chmod 600 " + f), e.getMessage());
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-rw----"));
        assertThrows(ClusterConfigException.class, () -> ClusterKey.load(f));
    }

    @Test
    void missingEmptyShortAndNonHexKeysAreRefused() throws Exception {
        ClusterConfigException missing = assertThrows(ClusterConfigException.class, () -> ClusterKey.load(dir.resolve("none")));
        assertTrue(missing.getMessage().contains("cohort admin keygen"), missing.getMessage());
        for (String content : new String[]{"", "\n", "abcd", "zz".repeat(32)}) {
            Path f = dir.resolve("k" + content.length() + content.hashCode());
            Files.writeString(f, content);
            Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
            assertThrows(ClusterConfigException.class, () -> ClusterKey.load(f), content);
        }
    }

    @Test
    void fifosDevicesHugeAndNonAsciiKeyFilesAreRefusedInOneSentence() throws Exception {
        Path fifo = io.cohort.cluster.TextFilesTest.fifo(dir, "fifo.key");
        Files.setPosixFilePermissions(fifo, PosixFilePermissions.fromString("rw-------"));
        assertEquals("the cluster key " + fifo + " is not a regular file (a device, FIFO or socket); make a new one"
                + " with 'cohort admin keygen FILE'",
                assertThrows(ClusterConfigException.class, () -> ClusterKey.load(fifo)).getMessage());
        // Whatever its mode: a directory open to all is refused as a directory, not with a chmod to run.
        Path folder = Files.createDirectory(dir.resolve("folder.key"));
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertEquals("the cluster key " + folder + " is a directory; make a new one with 'cohort admin keygen FILE'",
                assertThrows(ClusterConfigException.class, () -> ClusterKey.load(folder)).getMessage());
        Path big = io.cohort.cluster.TextFilesTest.sparse(dir, "big.key", 1L << 31);
        Files.setPosixFilePermissions(big, PosixFilePermissions.fromString("rw-------"));
        assertEquals("the cluster key " + big + " is larger than 4096 bytes; make a new one with 'cohort admin keygen FILE'",
                assertThrows(ClusterConfigException.class, () -> ClusterKey.load(big)).getMessage());
        Path accented = dir.resolve("accented.key");
        Files.writeString(accented, "é".repeat(40), java.nio.charset.StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(accented, PosixFilePermissions.fromString("rw-------"));
        assertEquals("the cluster key " + accented + " is not hex digits; make a new one with 'cohort admin keygen FILE'",
                assertThrows(ClusterConfigException.class, () -> ClusterKey.load(accented)).getMessage());
    }

    @Test
    void theOptionThenTheEnvironmentThenTheDefault() {
        assertEquals(Path.of("/a"), ClusterKey.locate("/a", Map.of(ClusterKey.ENV_NAME, "/b")));
        assertEquals(Path.of("/b"), ClusterKey.locate(null, Map.of(ClusterKey.ENV_NAME, "/b")));
        assertEquals(ClusterKey.DEFAULT_PATH, ClusterKey.locate(null, Map.of()));
    }
}
