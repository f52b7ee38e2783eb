package io.cohort.transport.shm;

import io.cohort.CohortException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The memory behind segment files, which tmpfs gives out lazily: a mapping of a file whose pages
 * were never written takes them at its first touch, and where {@code /dev/shm} is full that touch
 * is a SIGBUS, which the JVM turns into an {@link InternalError} ("a fault occurred in a recent
 * unsafe memory access operation") at whatever access came first, in the middle of a run.
 *
 * <p>So every segment's pages are written once, through the channel, before it is mapped: a full
 * file system then says so at once as an {@link IOException} naming the cause, and a mapping,
 * once made, never faults for want of space. A SIGBUS that still happens (another process of this
 * user truncated a file) becomes {@link #fault}'s sentence.
 */
final class ShmPages {
    /**
     * Zeros written per call: a 1 MiB ring in four system calls, while the buffer (which every peer
     * using shared memory keeps) stays small.
     */
    private static final int CHUNK = 256 << 10;
    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(CHUNK).asReadOnlyBuffer();

    private ShmPages() {
    }

    /**
     * Writes {@code bytes} zero bytes at the start of the new, empty file open on {@code ch}.
     *
     * @throws IOException naming the file system, the bytes wanted and the bytes free, where it is full
     */
    static void reserve(FileChannel ch, long bytes, Path file) throws IOException {
        long at = 0;
        try {
            while (at < bytes) {
                ByteBuffer z = ZEROS.duplicate();
                z.limit((int) Math.min(CHUNK, bytes - at));
                at += ch.write(z, at);
            }
        } catch (IOException e) {
            throw new IOException(full(file.getParent(), bytes, e), e);
        }
    }

    /** One sentence for a segment of {@code bytes} that could not be given memory in {@code dir}. */
    private static String full(Path dir, long bytes, IOException cause) {
        Path base = dir.getParent() == null ? dir : dir.getParent(); // the job's directory lives in /dev/shm
        String free;
        try {
            free = Files.getFileStore(dir).getUsableSpace() + " bytes free";
        } catch (IOException e) {
            free = "its free space unknown";
        }
        return base + " has no room for a shared-memory segment of " + bytes + " bytes (" + free + "; "
                + cause.getMessage() + ")";
    }

    /**
     * What an access to a mapping that faulted ({@code e}, the JVM's word for a SIGBUS) means, for
     * the segments in {@code dir}.
     */
    static CohortException fault(Path dir, InternalError e) {
        return new CohortException("a shared-memory segment in " + dir + " could not be accessed (SIGBUS: its "
                + "memory is gone, as when " + (dir.getParent() == null ? dir : dir.getParent())
                + " is full or a file was truncated): " + e.getMessage(), e);
    }
}
