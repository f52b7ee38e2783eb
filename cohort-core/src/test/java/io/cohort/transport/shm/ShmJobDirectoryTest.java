package io.cohort.transport.shm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The job's private directory on a real file system: made 0700 under a fresh name, its segments
 * 0600, both ours; what is not (a symlink, another user's file or directory, a mode open to
 * others) is refused with a sentence; removal takes everything and follows no link.
 */
@Timeout(30)
class ShmJobDirectoryTest {
    @TempDir
    Path base;

    private static UserPrincipal nobody(Path on) throws IOException {
        return on.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
    }

    private static boolean root() throws IOException {
        return Files.getOwner(Path.of("/proc/self")).getName().equals("root");
    }

    @Test
    void theDirectoryIs0700AndItsSegments0600AllOwnedByUs() throws Exception {
        Path dir = ShmJobDirectory.create(base);
        Path other = ShmJobDirectory.create(base);
        assertNotEquals(dir, other, "a fresh name each time");
        assertTrue(dir.getFileName().toString().matches("cohort-[0-9a-f]{32}"), dir.toString());
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS)));
        UserPrincipal us = Files.getOwner(Path.of("/proc/self"));
        assertEquals(us, Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS));
        Path ring = ShmSegmentFile.path(dir, "job", 0, 1);
        ShmSegmentFile.create(ring, 7, 0, 1, 4096, 0);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(ring, LinkOption.NOFOLLOW_LINKS)));
        assertEquals(us, Files.getOwner(ring, LinkOption.NOFOLLOW_LINKS));
        assertTrue(ShmSegmentFile.open(ring) != null);
        ShmJobDirectory.verify(dir);
    }

    @Test
    void aSymlinkOrADirectoryOpenToOthersIsRefusedWithASentence() throws Exception {
        Path real = ShmJobDirectory.create(base);
        Path link = Files.createSymbolicLink(base.resolve("cohort-link"), real);
        IOException e = assertThrows(IOException.class, () -> ShmJobDirectory.verify(link));
        assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
        Path open = Files.createDirectory(base.resolve("cohort-open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        e = assertThrows(IOException.class, () -> ShmJobDirectory.verify(open));
        assertTrue(e.getMessage().contains("has mode rwxrwxrwx, not rwx------"), e.getMessage());
    }

    @Test
    void anotherUsersDirectoryOrSegmentIsRefused() throws Exception {
        assumeTrue(root(), "not root: cannot give a file to another user");
        Path squatted = ShmJobDirectory.create(base);
        Files.setOwner(squatted, nobody(base));
        IOException e = assertThrows(IOException.class, () -> ShmJobDirectory.verify(squatted));
        assertTrue(e.getMessage().contains("belongs to nobody"), e.getMessage());

        Path dir = ShmJobDirectory.create(base);
        Path ring = ShmSegmentFile.path(dir, "job", 1, 0);
        ShmSegmentFile.create(ring, 7, 1, 0, 4096, 0);
        Files.setOwner(ring, nobody(base));
        e = assertThrows(IOException.class, () -> ShmSegmentFile.open(ring));
        assertTrue(e.getMessage().contains("belongs to nobody"), e.getMessage());
    }

    @Test
    void aSegmentThatIsASymlinkIsNotFollowed() throws Exception {
        Path dir = ShmJobDirectory.create(base);
        Path target = ShmSegmentFile.path(dir, "job", 0, 1);
        ShmSegmentFile.create(target, 7, 0, 1, 4096, 0);
        Path link = Files.createSymbolicLink(ShmSegmentFile.path(dir, "job", 1, 0), target);
        assertThrows(IOException.class, () -> ShmSegmentFile.open(link));
    }

    @Test
    void removalTakesTheFilesAndTheDirectoryButFollowsNoLink() throws Exception {
        Path dir = ShmJobDirectory.create(base);
        MappedByteBuffer kept = ShmSegmentFile.create(ShmSegmentFile.path(dir, "job", 0, 1), 7, 0, 1, 4096, 0);
        Files.createFile(dir.resolve("cohort-job-1-0.tmp"));
        Path elsewhere = Files.createDirectory(base.resolve("elsewhere"));
        Path precious = Files.createFile(elsewhere.resolve("precious"));
        Files.createSymbolicLink(dir.resolve("cohort-job-2-0"), precious);
        assertTrue(ShmJobDirectory.remove(dir));
        assertFalse(Files.exists(dir, LinkOption.NOFOLLOW_LINKS));
        assertTrue(Files.exists(precious), "a link's target is not ours to remove");
        assertTrue(kept.capacity() > 0); // a mapping outlives its file

        Path link = Files.createSymbolicLink(base.resolve("cohort-link"), elsewhere);
        assertFalse(ShmJobDirectory.remove(link), "a link is not a job's directory");
        assertTrue(Files.exists(precious));
    }

    @Test
    void tooLittleSpaceIsOneSentenceWithTheBytesNeededAndFree() throws Exception {
        long free = Files.getFileStore(base).getUsableSpace();
        IOException e = assertThrows(IOException.class, () -> ShmSpace.check(base, free + (1L << 40)));
        assertTrue(e.getMessage().matches(java.util.regex.Pattern.quote(base.toString())
                + " is too small for this job's shared memory: it needs \\d+ bytes on this host and \\d+ bytes are free .*"),
                e.getMessage());
        ShmSpace.check(base, 1);
        assertEquals(2 * (4096 + 1048576) + 100, ShmSpace.needed(2, 1 << 20, 100));
    }
}
