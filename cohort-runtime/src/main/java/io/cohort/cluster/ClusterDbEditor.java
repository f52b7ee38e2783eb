package io.cohort.cluster;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * One edit of a file database, as {@code cohort db} makes it: read the text, let the caller change it,
 * raise {@code version} by 1 (unless the change raised it itself), validate the result, and replace the
 * file atomically (a temporary file in the same directory, flushed, renamed over it, with the old
 * file's permissions and, where allowed, owner). The file is never left invalid or half written, and an
 * edit made meanwhile by someone else is not overwritten. A DNS database cannot be edited here.
 * One instance per edit; one thread.
 */
public final class ClusterDbEditor {
    /** Permissions of a database {@link #create}d anew: members' daemons and users read it. */
    static final String NEW_FILE_PERMISSIONS = "rw-r--r--";

    private final String spec;
    private final Path file;
    private final String original;

    private ClusterDbEditor(String spec, Path file, String original) {
        this.spec = spec;
        this.file = file;
        this.original = original;
    }

    /** Opens a file database for an edit; a {@code dns:} spec or an unreadable file is an error. */
    public static ClusterDbEditor open(String spec) {
        refuseDns(spec);
        Path file = Path.of(spec);
        return new ClusterDbEditor(spec, file, ClusterDbSource.readFile(file, spec));
    }

    /**
     * Writes a new database file that must not exist yet, creating its directory if needed; returns what
     * was written, parsed.
     */
    public static ClusterDb create(String spec, String text) {
        refuseDns(spec);
        ClusterDb db = ClusterDbParser.parse(text, spec);
        Path file = Path.of(spec);
        if (Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            throw new ClusterDbException(spec + ": the file exists already; edit it with 'cohort db set' or"
                    + " 'cohort db edit', or remove it first");
        }
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
        } catch (IOException e) {
            throw new ClusterDbException(spec + ": cannot create its directory (" + e + ")", e);
        }
        write(file, spec, text, null);
        return db;
    }

    /** The text as read. */
    public String original() {
        return original;
    }

    public String spec() {
        return spec;
    }

    /**
     * Raises the version, validates and writes {@code edited}; returns the new database. The file is not
     * touched when anything fails.
     */
    public ClusterDb commit(String edited) {
        String text = withRaisedVersion(original, edited, spec);
        ClusterDb db = ClusterDbParser.parse(text, spec);
        if (!ClusterDbSource.readFile(file, spec).equals(original)) {
            throw new ClusterDbException(spec + ": the file changed while this edit was made; nothing was"
                    + " written, run the command again");
        }
        Path target;
        try {
            target = file.toRealPath(); // write through a symbolic link, keeping the link
        } catch (IOException e) {
            throw new ClusterDbException(spec + ": cannot resolve the file (" + e.getMessage() + ")", e);
        }
        write(target, spec, text, target);
        return db;
    }

    /**
     * The edited text with {@code version} one above the original's, unless the edit raised it itself
     * (then it is kept); an edit that lowered it is an error.
     */
    static String withRaisedVersion(String original, String edited, String origin) {
        Optional<Long> before = number(ClusterDbText.of(original).value("version"));
        ClusterDbText text = ClusterDbText.of(edited);
        Optional<String> after = text.value("version");
        if (before.isEmpty()) {
            return edited; // nothing to raise: validation reports a missing or bad version
        }
        Optional<Long> now = number(after);
        if (now.isPresent() && !now.get().equals(before.get())) {
            if (now.get() < before.get()) {
                throw new ClusterDbException(origin + ": version " + now.get() + " is below the current "
                        + before.get() + "; every edit must raise it");
            }
            return edited;
        }
        if (after.isPresent() && now.isEmpty()) {
            return edited; // validation names the bad value
        }
        if (before.get() == Long.MAX_VALUE) {
            throw new ClusterDbException(origin + ": version " + before.get() + " cannot be raised any further");
        }
        text.set("version", Long.toString(before.get() + 1));
        return text.text();
    }

    private static Optional<Long> number(Optional<String> value) {
        return value.filter(v -> v.matches("\\d{1,19}")).flatMap(v -> {
            try {
                return Optional.of(Long.parseLong(v));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        });
    }

    private static void refuseDns(String spec) {
        if (ClusterDbSource.isDns(spec)) {
            throw new ClusterDbException(spec + ": a DNS database cannot be edited by cohort; change the zone's TXT"
                    + " records on its DNS server ('cohort db print --format zone' or '--format dnsmasq' writes them"
                    + " from a file database)");
        }
    }

    /** Temporary file beside the target, flushed to disk, then renamed over it in one step. */
    private static void write(Path target, String origin, String text, Path keepAttributesOf) {
        Path dir = target.toAbsolutePath().getParent();
        Path tmp = null;
        try {
            tmp = Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp");
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ch.write(java.nio.ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
                ch.force(true);
            }
            PosixFileAttributeView view = Files.getFileAttributeView(tmp, PosixFileAttributeView.class);
            if (view != null) {
                if (keepAttributesOf == null) {
                    view.setPermissions(PosixFilePermissions.fromString(NEW_FILE_PERMISSIONS));
                } else {
                    PosixFileAttributes old = Files.readAttributes(keepAttributesOf, PosixFileAttributes.class);
                    view.setPermissions(old.permissions());
                    keepOwner(view, old);
                }
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            tmp = null;
        } catch (AccessDeniedException e) {
            throw new ClusterDbException(origin + ": permission denied writing " + e.getFile()
                    + "; the database's directory must be writable");
        } catch (IOException e) {
            throw new ClusterDbException(origin + ": cannot write the file (" + e + ")", e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // best effort: a stray .tmp file is harmless
                }
            }
        }
    }

    /** Only root may give a file away; anyone else keeps being its owner, which is what they had. */
    private static void keepOwner(PosixFileAttributeView view, PosixFileAttributes old) {
        try {
            view.setOwner(old.owner());
            view.setGroup(old.group());
        } catch (IOException | UnsupportedOperationException e) {
            // not allowed: the new file belongs to whoever edits it
        }
    }
}
