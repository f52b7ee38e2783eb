package io.cohort.launch;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

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
 * of every user on the machine see each other's claims; they are never followed through a link,
 * written or chmod-ed once they exist.
 *
 * <p>Threads: made by the io-manager's control thread; closed by the pump thread of its last peer
 * to exit, or its main thread at the end, whichever comes first.
 */
final class CpuClaims implements AutoCloseable {
    /** Environment variable naming the directory of the claim files instead of /dev/shm. */
    static final String DIRECTORY_ENV = "COHORT_CPU_CLAIMS";
    static final Path DEFAULT_DIRECTORY = Path.of("/dev/shm");
    static final String PREFIX = "cohort-cpu-";

    /** The claim files some claim of this JVM holds (tests make several; an io-manager one). */
    private static final Set<Path> HELD_HERE = ConcurrentHashMap.newKeySet();

    private final BitSet cpus;
    private final List<FileChannel> held;
    private final Path directory;

    private CpuClaims(BitSet cpus, List<FileChannel> held, Path directory) {
        this.cpus = cpus;
        this.held = held;
        this.directory = directory;
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
            Path file = directory.resolve(PREFIX + cpu).toAbsolutePath().normalize();
            if (!HELD_HERE.add(file)) {
                // A claim of this JVM holds it. Opening the file again and closing it would drop that
                // claim's lock too (POSIX locks belong to the process, and any close of the file ends them).
                continue;
            }
            FileChannel channel = null;
            try {
                channel = open(file);
                FileLock lock = channel.tryLock();
                if (lock != null) {
                    held.add(channel);
                    got.set(cpu);
                    channel = null;
                }
            } catch (IOException | OverlappingFileLockException | UnsupportedOperationException e) {
                // Not ours to open (another user's file that is not shared, a link, no directory): leave it alone.
            } finally {
                if (channel != null || !got.get(cpu)) {
                    closeQuietly(channel);
                    HELD_HERE.remove(file);
                }
            }
        }
        return new CpuClaims(got, held, directory);
    }

    /**
     * Opens the claim file for a lock, never through a symbolic link (in a directory every user may
     * write, a link could lead to any file of the user running this). A new file is made read-write for
     * all (the umask aside), so other users' jobs can claim too; an existing one is opened as it is,
     * never chmod-ed, and never created by this open (which Linux's protected_regular refuses for
     * another user's file in a sticky directory).
     */
    private static FileChannel open(Path file) throws IOException {
        try {
            FileChannel created = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS);
            try {
                Files.getFileAttributeView(file, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                        .setPermissions(PosixFilePermissions.fromString("rw-rw-rw-"));
            } catch (IOException | RuntimeException e) {
                // Not shared: other users' jobs will not see this claim, which only costs them the binding.
            }
            return created;
        } catch (FileAlreadyExistsException e) {
            return FileChannel.open(file, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
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
        for (int cpu = cpus.nextSetBit(0); cpu >= 0; cpu = cpus.nextSetBit(cpu + 1)) {
            HELD_HERE.remove(directory.resolve(PREFIX + cpu).toAbsolutePath().normalize());
        }
        cpus.clear();
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
