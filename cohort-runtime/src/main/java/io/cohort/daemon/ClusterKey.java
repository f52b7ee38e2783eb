package io.cohort.daemon;

import java.io.IOException;
import io.cohort.cluster.TextFiles;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;

/**
 * The cluster's shared secret (as munge's key): every daemon message carries an HMAC-SHA256 made with
 * it. The key file holds hex digits (whitespace around them is ignored): {@value #KEY_BYTES} random
 * bytes as {@code cohort admin keygen} writes them, at least {@value #MIN_BYTES}. It must be readable
 * by its owner only: a file that group or others may read or write is refused, as ssh refuses a
 * private key.
 *
 * <p>Where it is: {@code --key FILE}, else {@value #ENV_NAME}, else {@link #DEFAULT_PATH}.
 * Immutable and thread-safe.
 */
public final class ClusterKey {
    public static final String ENV_NAME = "COHORT_CLUSTER_KEY";
    public static final Path DEFAULT_PATH = Path.of("/etc/cohort/cluster.key");
    public static final int KEY_BYTES = 32;
    public static final int MIN_BYTES = 16;
    /** The largest key file read; a key is a line of hex digits, so anything bigger is not one. */
    static final int MAX_FILE_BYTES = 4096;
    private static final Set<PosixFilePermission> FOREIGN = Set.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);

    private final byte[] bytes;
    private final Path origin;

    private ClusterKey(byte[] bytes, Path origin) {
        this.bytes = bytes.clone();
        this.origin = origin;
    }

    /** A key from bytes (tests, and a key already read). */
    public static ClusterKey of(byte[] bytes) {
        if (bytes.length < MIN_BYTES) {
            throw new IllegalArgumentException("a cluster key needs at least " + MIN_BYTES + " bytes");
        }
        return new ClusterKey(bytes, null);
    }

    /** The key file to use: the option's value, else the environment's, else the default. */
    public static Path locate(String option, Map<String, String> env) {
        if (option != null && !option.isBlank()) {
            return Path.of(option);
        }
        String fromEnv = env.get(ENV_NAME);
        return fromEnv != null && !fromEnv.isBlank() ? Path.of(fromEnv) : DEFAULT_PATH;
    }

    /** Reads and checks a key file; every refusal is one sentence saying what to do. */
    public static ClusterKey load(Path file) throws ClusterConfigException {
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
            // Not a file (a directory, a FIFO): that is the refusal, made below, not its mode.
            if (Files.isRegularFile(file) && perms.stream().anyMatch(FOREIGN::contains)) {
                throw new ClusterConfigException("the cluster key " + file + " may be read or written by group or others (mode "
                        + PosixFilePermissions.toString(perms) + "); run 'chmod 600 " + file + "'");
            }
        } catch (UnsupportedOperationException notPosix) {
            // A file system without POSIX permissions: nothing to check.
        } catch (NoSuchFileException e) {
            throw new ClusterConfigException("the cluster key " + file + " does not exist; create one with 'cohort admin keygen "
                    + file + "' and copy it to every member, or give --key FILE or " + ENV_NAME);
        } catch (IOException e) {
            throw new ClusterConfigException("cannot read the cluster key " + file + " (" + TextFiles.reason(e) + ")");
        }
        String text;
        try {
            text = TextFiles.read(file, MAX_FILE_BYTES, StandardCharsets.US_ASCII).strip();
        } catch (TextFiles.NotTextFileException e) {
            throw new ClusterConfigException("the cluster key " + file + " " + e.getMessage()
                    + "; make a new one with 'cohort admin keygen FILE'");
        } catch (CharacterCodingException e) {
            throw new ClusterConfigException("the cluster key " + file + " is not hex digits; make a new one with 'cohort admin keygen FILE'");
        } catch (IOException e) {
            throw new ClusterConfigException("cannot read the cluster key " + file + " (" + TextFiles.reason(e) + ")");
        }
        byte[] key;
        try {
            key = text.length() % 2 == 0 ? HexFormat.of().parseHex(text) : null;
        } catch (IllegalArgumentException e) {
            key = null;
        }
        if (key == null) {
            throw new ClusterConfigException("the cluster key " + file + " is not hex digits; make a new one with 'cohort admin keygen FILE'");
        }
        if (key.length < MIN_BYTES) {
            throw new ClusterConfigException("the cluster key " + file + " has " + key.length + " bytes, fewer than the "
                    + MIN_BYTES + " needed; make a new one with 'cohort admin keygen FILE'");
        }
        return new ClusterKey(key, file);
    }

    /** Writes a new random key as hex to {@code file}, created with mode 0600; an existing file is refused. */
    public static void generate(Path file) throws ClusterConfigException {
        byte[] key = new byte[KEY_BYTES];
        new SecureRandom().nextBytes(key);
        String text = HexFormat.of().formatHex(key) + "\n";
        try {
            Path dir = file.toAbsolutePath().getParent();
            if (dir != null && !Files.isDirectory(dir)) {
                throw new ClusterConfigException("cannot write the cluster key: directory " + dir + " does not exist");
            }
            try {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException notPosix) {
                Files.createFile(file);
            }
            // createFile's mode is filtered by the umask, which never adds bits: still 0600 or less; make it exact.
            try {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException notPosix) {
                // Nothing to set.
            }
            Files.writeString(file, text, StandardCharsets.US_ASCII);
        } catch (FileAlreadyExistsException e) {
            throw new ClusterConfigException("the file " + file + " already exists; remove it first if you mean to replace the cluster key");
        } catch (IOException e) {
            throw new ClusterConfigException("cannot write the cluster key " + file + " (" + e.getMessage() + ")");
        }
    }

    byte[] bytes() {
        return bytes.clone();
    }

    /** Where the key came from, or null. */
    public Path origin() {
        return origin;
    }

    @Override
    public String toString() {
        return "ClusterKey[" + (origin == null ? "in memory" : origin) + "]"; // never the key itself
    }
}
