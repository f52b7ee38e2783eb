package io.cohort.launch;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The processors of this machine that the io-managers of running jobs have bound peers to, so
 * that a job started while another runs does not bind its peers onto the same ones (a binding
 * that knows nothing of other jobs puts every job's rank 0 on the first processor).
 *
 * <p>One file per processor, {@code cohort-cpu-N} in a directory every user may write
 * ({@code /dev/shm}, or {@value #DIRECTORY_ENV} in the io-manager's environment); a processor is
 * claimed while some process holds a lock on its file. The kernel drops the lock when the process
 * ends, however it ends, so a claim never outlives its io-manager and there is nothing to clean
 * up. The files stay (empty, one per processor), readable and writable by all, so that the jobs
 * of every user on the machine see each other's claims.
 *
 * <p>Threads: made by the io-manager's control thread; closed by the pump thread of its last peer
 * to exit, or its main thread at the end, whichever comes first.
 */
final class CpuClaims implements AutoCloseable {
    /** Environment variable naming the directory of the claim files instead of /dev/shm. */
    static final String DIRECTORY_ENV = "COHORT_CPU_CLAIMS";
    static final Path DEFAULT_DIRECTORY = Path.of("/dev/shm");
    static final String PREFIX = "cohort-cpu-";

    private final BitSet cpus;
    private final List<FileChannel> held;

    private CpuClaims(BitSet cpus, List<FileChannel> held) {
        this.cpus = cpus;
        this.held = held;
    }

    /** The directory this process claims in. */
    static Path directory() {
        String dir = System.getenv(DIRECTORY_ENV);
        return dir == null || dir.isEmpty() ? DEFAULT_DIRECTORY : Path.of(dir);
    }

    /**
     * Claims every processor of {@code wanted} that no other process (or other claim of this one)
     * holds. A processor whose file cannot be opened (another user's file that is not shared, a
     * directory that is missing or read-only) counts as held: binding onto it might collide.
     */
    static CpuClaims claim(BitSet wanted, Path directory) {
        BitSet got = new BitSet();
        List<FileChannel> held = new ArrayList<>();
        for (int cpu = wanted.nextSetBit(0); cpu >= 0; cpu = wanted.nextSetBit(cpu + 1)) {
            Path file = directory.resolve(PREFIX + cpu);
            FileChannel channel = null;
            try {
                channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                shareWithEveryone(file);
                FileLock lock = channel.tryLock();
                if (lock != null) {
                    held.add(channel);
                    got.set(cpu);
                    channel = null;
                }
            } catch (IOException | OverlappingFileLockException | UnsupportedOperationException e) {
                // Held by a claim of this JVM, or not ours to open: leave the processor alone.
            } finally {
                closeQuietly(channel);
            }
        }
        return new CpuClaims(got, held);
    }

    /** Read-write for all, whatever the umask; only the file's owner may change it, and it did so once. */
    private static void shareWithEveryone(Path file) {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        } catch (IOException | UnsupportedOperationException e) {
            // Another user's file: its owner shared it when making it.
        }
    }

    /** The processors claimed (a copy). */
    BitSet cpus() {
        return (BitSet) cpus.clone();
    }

    /** Gives the claims up (also what the kernel does when this process ends). */
    @Override
    public synchronized void close() {
        for (FileChannel c : held) {
            closeQuietly(c);
        }
        held.clear();
    }

    private static void closeQuietly(FileChannel c) {
        if (c != null) {
            try {
                c.close();
            } catch (IOException ignored) {
                // Closing drops the lock in any case.
            }
        }
    }
}
