package io.cohort.transport.shm;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;

/**
 * Segment files: where they live, what they are called, how they are made and removed.
 *
 * <p>They live in the job's private directory ({@link ShmJobDirectory}) inside
 * {@link #defaultDirectory()}, so their names need not be secret.
 *
 * <p>A receiver makes each of its inbound segments under a temporary name, sizes, maps and formats
 * it, and only then renames it to its final name: a sender that finds the final name can map it at
 * once and never sees a file that is too short (touching a mapping beyond the end of a file is a
 * SIGBUS) or not yet formatted.
 */
public final class ShmSegmentFile {
    public static final String DIR_PROP_NAME = "cohort.shm.dir";
    public static final String DIR_ENV_NAME = "COHORT_SHM_DIR";
    /** Every segment file of job J starts with this prefix followed by J; jobs' directories start with it too. */
    public static final String PREFIX = "cohort-";

    private ShmSegmentFile() {
    }

    /**
     * Where jobs' private directories are made: {@code /dev/shm} where it exists and is writable,
     * otherwise the temporary directory; overridable.
     */
    public static Path defaultDirectory() {
        String configured = System.getProperty(DIR_PROP_NAME, System.getenv(DIR_ENV_NAME));
        if (configured != null && !configured.isBlank()) {
            return Paths.get(configured);
        }
        Path shm = Paths.get("/dev/shm");
        if (Files.isDirectory(shm) && Files.isWritable(shm)) {
            return shm;
        }
        return Paths.get(System.getProperty("java.io.tmpdir"));
    }

    /** The file carrying frames from {@code sender} to {@code receiver} in job {@code jobId}. */
    public static Path path(Path dir, String jobId, int sender, int receiver) {
        return dir.resolve(PREFIX + jobId + "-" + sender + "-" + receiver);
    }

    /** The collective segment called {@code name} of job {@code jobId} ({@link ShmCollectiveSegment}). */
    public static Path collectivePath(Path dir, String jobId, String name) {
        return dir.resolve(PREFIX + jobId + "-coll-" + name);
    }

    /**
     * Creates, maps and formats a segment, then publishes it under its final name. {@code doorbellPort}
     * is the receiver's doorbell (0: none).
     */
    public static MappedByteBuffer create(Path finalPath, long jobKey, int sender, int receiver, int capacity,
                                          int doorbellPort) throws IOException {
        Path temp = finalPath.resolveSibling(finalPath.getFileName() + ".tmp");
        long bytes = ShmSegmentDescriptor.segmentBytes(capacity);
        MappedByteBuffer segment;
        try (FileChannel ch = FileChannel.open(temp, EnumSet.of(StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE), ownerOnly())) {
            ShmPages.reserve(ch, bytes, temp);
            segment = ch.map(FileChannel.MapMode.READ_WRITE, 0, bytes);
        } catch (IOException e) {
            unlink(temp);
            throw e;
        }
        ShmRing.format(segment, jobKey, sender, receiver, capacity, doorbellPort);
        try {
            Files.move(temp, finalPath, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, finalPath);
        }
        return segment;
    }

    static java.nio.file.attribute.FileAttribute<?>[] ownerOnly() {
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            return new java.nio.file.attribute.FileAttribute<?>[] {
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))};
        }
        return new java.nio.file.attribute.FileAttribute<?>[0];
    }

    /**
     * Maps an existing segment, or returns null if it does not exist (yet). A file that is not a
     * regular file of this user, or is open to others, is refused ({@link ShmJobDirectory#verifyFile}).
     */
    public static MappedByteBuffer open(Path path) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS)) {
            ShmJobDirectory.verifyFile(path); // after the open: the file we hold is the one in the directory we verified
            long size = ch.size();
            if (size < ShmSegmentDescriptor.DATA_OFFSET) {
                throw new IOException(path + " is too short to be a Cohort segment");
            }
            return ch.map(FileChannel.MapMode.READ_WRITE, 0, size);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    public static void unlink(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // Already gone, or the directory vanished: nothing to clean.
        }
    }
}
