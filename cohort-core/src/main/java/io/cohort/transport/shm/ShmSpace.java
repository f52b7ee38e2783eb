package io.cohort.transport.shm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The shared memory one host's peers of a job need at start-up, checked against what the file
 * system of the segments has free before any of them starts: a ring per ordered pair of local
 * peers, and, where every peer of the job is on this host, the world communicator's collective
 * segment. Communicators made later make their own segments; where those find no room, their
 * collectives go point to point (see docs/collectives.md).
 */
public final class ShmSpace {
    private ShmSpace() {
    }

    /**
     * Bytes the rings of {@code localPeers} peers with rings of {@code ringBytes} need, plus
     * {@code collectiveBytes} (0: no collective segment on this host).
     */
    public static long needed(int localPeers, int ringBytes, long collectiveBytes) {
        long pairs = (long) localPeers * (localPeers - 1);
        return pairs * ShmSegmentDescriptor.segmentBytes(ringBytes) + collectiveBytes;
    }

    /**
     * Fails with one sentence naming {@code base}, the bytes needed and the bytes free where the
     * file system of {@code base} has fewer than {@code needed} bytes free.
     */
    public static void check(Path base, long needed) throws IOException {
        long free = Files.getFileStore(base).getUsableSpace();
        if (free < needed) {
            throw new IOException(base + " is too small for this job's shared memory: it needs " + needed
                    + " bytes on this host and " + free + " bytes are free (make " + base
                    + " larger, or use --transport tcp)");
        }
    }
}
