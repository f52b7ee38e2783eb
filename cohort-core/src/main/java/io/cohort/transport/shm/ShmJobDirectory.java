package io.cohort.transport.shm;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;

/**
 * The private directory that holds one host's segments of one job:
 * {@code /dev/shm/cohort-<128 random bits>}, made by the io-manager (or {@code LocalCohort}) before
 * any peer starts, owned by the job's user, mode 0700, and removed with everything in it when the
 * job ends.
 *
 * <p>Why: {@code /dev/shm} is a shared sticky directory, so any local user could create the names
 * of a job's segments first (they follow from its id) and stop it. A name nobody can guess, made
 * with {@code mkdir} (which fails rather than reuse what exists), cannot be squatted; nobody else
 * can create, rename or replace anything inside a 0700 directory; and every open checks that the
 * directory still is that (not a symlink, ours, 0700), so a directory swapped in by another user is
 * refused with a sentence instead of used. Root is not kept out.
 */
public final class ShmJobDirectory {
    /** The peer's environment variable naming its job's directory (set by the io-manager). */
    public static final String ENV_NAME = "COHORT_SHM_JOB_DIR";
    /** Tries at a fresh name: a clash of 128 random bits means someone made the names we draw. */
    private static final int ATTEMPTS = 16;
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");
    private static final SecureRandom RANDOM = new SecureRandom();

    private ShmJobDirectory() {
    }

    /** The directory a peer's {@value #ENV_NAME} names ({@code value}), null if unset or empty (none made). */
    /** Whether {@code dir} is named as {@link #create} names a job's directory (the prefix, then 32 hex digits). */
    public static boolean isJobDirectory(Path dir) {
        Path name = dir.getFileName();
        return name != null && name.toString().matches(java.util.regex.Pattern.quote(ShmSegmentFile.PREFIX) + "[0-9a-f]{32}");
    }

    public static Path given(String value) {
        return value == null || value.isBlank() ? null : Path.of(value);
    }

    /**
     * Makes a new private directory in {@code base} (normally {@code /dev/shm}).
     *
     * @throws IOException naming {@code base} where none could be made
     */
    public static Path create(Path base) throws IOException {
        byte[] bits = new byte[16];
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            RANDOM.nextBytes(bits);
            Path dir = base.resolve(ShmSegmentFile.PREFIX + HexFormat.of().formatHex(bits));
            try {
                // mkdir applies the umask, which can only take bits away from 0700.
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            } catch (FileAlreadyExistsException e) {
                continue; // someone else's; never ours to use
            } catch (NoSuchFileException e) {
                throw new IOException("cannot make the job's shared-memory directory: " + base + " does not exist");
            } catch (IOException e) {
                throw new IOException("cannot make the job's shared-memory directory in " + base + ": " + e.getMessage(), e);
            }
            Files.setPosixFilePermissions(dir, OWNER_ONLY); // a umask of 0200 or the like would leave it unusable
            verify(dir);
            return dir;
        }
        throw new IOException("cannot make the job's shared-memory directory in " + base + ": " + ATTEMPTS
                + " fresh random names were all taken");
    }

    /**
     * Checks that {@code dir} is a directory (not a symlink to one) owned by this process's user
     * and open to nobody else.
     *
     * @throws IOException one sentence saying what is wrong with it
     */
    public static void verify(Path dir) throws IOException {
        PosixFileAttributes a;
        try {
            a = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            throw new IOException("the job's shared-memory directory " + dir + " does not exist");
        }
        if (!a.isDirectory()) {
            throw new IOException("the job's shared-memory directory " + dir + " is not a directory"
                    + (a.isSymbolicLink() ? " but a symbolic link" : ""));
        }
        if (!a.owner().equals(us(dir))) {
            throw new IOException("the job's shared-memory directory " + dir + " belongs to " + a.owner().getName()
                    + ", not to this job's user");
        }
        if (!a.permissions().equals(OWNER_ONLY)) {
            throw new IOException("the job's shared-memory directory " + dir + " has mode "
                    + PosixFilePermissions.toString(a.permissions()) + ", not rwx------");
        }
    }

    /**
     * Checks that the segment file {@code file} is a regular file owned by this process's user:
     * inside a verified directory only we can have made it, so this guards against a directory
     * that was somebody else's all along (a path given by hand).
     */
    static void verifyFile(Path file) throws IOException {
        PosixFileAttributes a = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!a.isRegularFile()) {
            throw new IOException(file + " is not a regular file" + (a.isSymbolicLink() ? " but a symbolic link" : ""));
        }
        if (!a.owner().equals(us(file))) {
            throw new IOException(file + " belongs to " + a.owner().getName() + ", not to this job's user");
        }
        Set<PosixFilePermission> others = EnumSet.copyOf(a.permissions());
        others.removeAll(EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
        if (!others.isEmpty()) {
            throw new IOException(file + " has mode " + PosixFilePermissions.toString(a.permissions())
                    + ", open to other users");
        }
    }

    /**
     * Removes {@code dir} and the segment files in it (it never holds directories); true if it is
     * gone. Nothing that is not a plain directory of ours is followed or removed.
     */
    public static boolean remove(Path dir) {
        try {
            PosixFileAttributes a = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!a.isDirectory() || !a.owner().equals(us(dir))) {
                return false;
            }
            try (var files = Files.newDirectoryStream(dir)) {
                for (Path p : files) {
                    Files.deleteIfExists(p);
                }
            }
            Files.deleteIfExists(dir);
            return true;
        } catch (NoSuchFileException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * This process's user as the file system names owners: the owner of {@code /proc/self} (the
     * effective uid, which owns what we create); where there is no /proc, the user named by
     * {@code user.name}, which the JVM reads from the password database by uid.
     */
    private static UserPrincipal us(Path onFileSystem) throws IOException {
        Path self = onFileSystem.getFileSystem().getPath("/proc/self");
        if (Files.isDirectory(self)) {
            return Files.getOwner(self);
        }
        return onFileSystem.getFileSystem().getUserPrincipalLookupService()
                .lookupPrincipalByName(System.getProperty("user.name"));
    }
}
