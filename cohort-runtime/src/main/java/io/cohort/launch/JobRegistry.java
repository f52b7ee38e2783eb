package io.cohort.launch;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

/**
 * The running jobs of this user on this machine, so that {@code cohort stacks} in another shell can
 * find them: one file per job in {@code $XDG_RUNTIME_DIR/cohort/jobs}, or {@code /tmp/cohort-UID/jobs}
 * without it. The launcher writes its job's file when its rendezvous port is open and removes it when
 * it ends; a launcher killed by SIGKILL leaves its file behind, and readers remove such stale files
 * (the launcher's pid is gone, or now belongs to a process started at another time).
 *
 * <p>A file holds the stacks token, which lets its reader ask the job's controller for the stacks,
 * so the directories are 0700 and the files 0600, owned by the user; a directory that is not (another
 * user made {@code /tmp/cohort-UID} first, say) is refused with {@link UnsafeRegistryException}, and
 * files owned by someone else are ignored. A file appears whole (written beside, then renamed).
 *
 * <pre>
 *  version=1  id=3fa2c1d9  pid=4711  pid.start=1732312345678  address=127.0.0.1  port=41233
 *  token=<32 hex digits>  size=16  application=com.example.Main  started=1732312345901
 * </pre>
 */
public final class JobRegistry {
    public static final String XDG_RUNTIME_DIR = "XDG_RUNTIME_DIR";
    static final String SUFFIX = ".job";
    private static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    /** Two readings of one process's start time differ by rounding only. */
    private static final long START_SLACK_MILLIS = 1000;

    private final Path jobs;
    /** The directories we create and insist are private, outermost first. */
    private final List<Path> owned;

    /** One job as its launcher registered it. */
    public record Entry(String jobId, long pid, long pidStartMillis, String address, int port, String token, int size,
                        String application, long startedMillis) {
        public Instant started() {
            return Instant.ofEpochMilli(startedMillis);
        }
    }

    /** The registry's directory is not private to this user; nothing is written or trusted there. */
    public static final class UnsafeRegistryException extends IOException {
        private static final long serialVersionUID = 1L;

        UnsafeRegistryException(String message) {
            super(message);
        }
    }

    JobRegistry(Path jobs, List<Path> owned) {
        this.jobs = jobs;
        this.owned = List.copyOf(owned);
    }

    /** The registry of the user this JVM runs as, by the rule above. */
    public static JobRegistry forCurrentUser(Map<String, String> env) {
        String xdg = env.get(XDG_RUNTIME_DIR);
        Path base = xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute() ? Path.of(xdg, "cohort")
                : Path.of("/tmp", "cohort-" + currentUid());
        return new JobRegistry(base.resolve("jobs"), List.of(base, base.resolve("jobs")));
    }

    /** A registry in {@code base}/jobs (tests). */
    public static JobRegistry in(Path base) {
        return new JobRegistry(base.resolve("jobs"), List.of(base.resolve("jobs")));
    }

    public Path directory() {
        return jobs;
    }

    /** Writes the job's file (creating the directories 0700 if needed); replaces a file of the same id. */
    public void register(Entry e) throws IOException {
        for (Path d : owned) {
            if (!Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS)) {
                try {
                    Files.createDirectory(d, PosixFilePermissions.asFileAttribute(DIRECTORY));
                } catch (java.nio.file.FileAlreadyExistsException raced) {
                    // Another launcher made it meanwhile; checked below like any other.
                }
            }
            checkPrivate(d);
        }
        Properties p = new Properties();
        p.setProperty("version", "1");
        p.setProperty("id", e.jobId());
        p.setProperty("pid", Long.toString(e.pid()));
        p.setProperty("pid.start", Long.toString(e.pidStartMillis()));
        p.setProperty("address", e.address());
        p.setProperty("port", Integer.toString(e.port()));
        p.setProperty("token", e.token());
        p.setProperty("size", Integer.toString(e.size()));
        p.setProperty("application", e.application());
        p.setProperty("started", Long.toString(e.startedMillis()));
        StringWriter text = new StringWriter();
        p.store(text, "a running Cohort job; see docs/stacks.md");
        Path tmp = Files.createTempFile(jobs, "." + e.jobId(), ".tmp", PosixFilePermissions.asFileAttribute(FILE));
        try {
            Files.writeString(tmp, text.toString(), StandardCharsets.ISO_8859_1); // Properties' own escapes keep it ASCII
            try {
                Files.move(tmp, file(e.jobId()), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException unusual) {
                Files.move(tmp, file(e.jobId()), StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Removes the job's file, if there. */
    public void remove(String jobId) {
        try {
            Files.deleteIfExists(file(jobId));
        } catch (IOException ignored) {
            // Readers treat a file whose launcher is gone as stale and remove it.
        }
    }

    /**
     * The jobs whose launcher still runs, oldest first. Stale files are removed; unreadable files and
     * files owned by others are skipped. A registry that does not exist yet has no jobs.
     */
    public List<Entry> running() throws IOException {
        if (!Files.exists(jobs, LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        for (Path d : owned) {
            checkPrivate(d);
        }
        List<Entry> out = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(jobs, "*" + SUFFIX)) {
            for (Path f : files) {
                Entry e = read(f);
                if (e == null) {
                    continue;
                }
                if (alive(e)) {
                    out.add(e);
                } else {
                    Files.deleteIfExists(f);
                }
            }
        }
        out.sort(Comparator.comparingLong(Entry::startedMillis).thenComparing(Entry::jobId));
        return out;
    }

    private Path file(String jobId) {
        if (!jobId.matches("[0-9A-Za-z_-]+")) {
            throw new IllegalArgumentException("job id '" + jobId + "'");
        }
        return jobs.resolve(jobId + SUFFIX);
    }

    private static Entry read(Path f) {
        try {
            PosixFileAttributes a = Files.readAttributes(f, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!a.isRegularFile() || !ownedByMe(f, a)) {
                return null;
            }
            Properties p = new Properties();
            p.load(new StringReader(Files.readString(f, StandardCharsets.ISO_8859_1)));
            return new Entry(required(p, "id"), Long.parseLong(required(p, "pid")), Long.parseLong(required(p, "pid.start")),
                    required(p, "address"), Integer.parseInt(required(p, "port")), required(p, "token"),
                    Integer.parseInt(required(p, "size")), required(p, "application"), Long.parseLong(required(p, "started")));
        } catch (NoSuchFileException gone) {
            return null; // its launcher just ended
        } catch (IOException | RuntimeException e) {
            return null; // not a registry file we can use; left alone
        }
    }

    private static String required(Properties p, String key) {
        String v = p.getProperty(key);
        if (v == null) {
            throw new IllegalArgumentException("no " + key);
        }
        return v;
    }

    /** The launcher's pid is alive and, where both start times are known, started when the file says. */
    static boolean alive(Entry e) {
        Optional<ProcessHandle> h = ProcessHandle.of(e.pid());
        if (h.isEmpty() || !h.get().isAlive()) {
            return false;
        }
        if (e.pidStartMillis() < 0) {
            return true;
        }
        Optional<Instant> start = h.get().info().startInstant();
        return start.isEmpty() || Math.abs(start.get().toEpochMilli() - e.pidStartMillis()) <= START_SLACK_MILLIS;
    }

    /** This process's start time for {@link Entry#pidStartMillis}, or -1 if the system does not say. */
    public static long currentProcessStartMillis() {
        return ProcessHandle.current().info().startInstant().map(Instant::toEpochMilli).orElse(-1L);
    }

    private void checkPrivate(Path d) throws IOException {
        PosixFileAttributes a;
        try {
            a = Files.readAttributes(d, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException e) {
            return; // not a POSIX file system: nothing to check with
        }
        String me = System.getProperty("user.name");
        Set<PosixFilePermission> others = EnumSet.copyOf(a.permissions());
        others.removeAll(EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
                PosixFilePermission.OWNER_EXECUTE));
        if (!a.isDirectory() || !ownedByMe(d, a) || !others.isEmpty()) {
            throw new UnsafeRegistryException("the job registry " + d + " is not a private directory of user " + me
                    + " (" + (a.isDirectory() ? "owner " + a.owner().getName() + ", mode "
                    + PosixFilePermissions.toString(a.permissions()) : "not a directory")
                    + "); remove it, or set " + XDG_RUNTIME_DIR + " to a private directory");
        }
    }

    /**
     * Whether this process's user owns the file, by numeric uid where the file system says it: a uid
     * with no passwd entry (common in containers) has no name to compare ({@code user.name} is "?").
     */
    private static boolean ownedByMe(Path p, PosixFileAttributes a) {
        String uid = currentUid();
        if (uid.matches("[0-9]+")) {
            try {
                Object owner = Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS);
                return owner != null && uid.equals(owner.toString());
            } catch (UnsupportedOperationException | IllegalArgumentException | IOException e) {
                // No "unix" view: compare names below.
            }
        }
        return a.owner().getName().equals(System.getProperty("user.name"));
    }

    /** The effective user id, from /proc; the user name where there is no /proc. */
    static String currentUid() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    String[] f = line.substring(4).trim().split("\\s+");
                    if (f.length >= 2) {
                        return f[1];
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not Linux: fall through.
        }
        return System.getProperty("user.name");
    }
}
