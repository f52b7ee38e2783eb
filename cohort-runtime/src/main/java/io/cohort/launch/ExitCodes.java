package io.cohort.launch;

/**
 * The exit codes of the {@code cohort} command (documented in docs/cli.md). Any other value is the
 * status of the peer that caused the job to fail.
 */
public final class ExitCodes {
    public static final int SUCCESS = 0;
    /** Bad option or option value, conflicting program forms, unknown example. */
    public static final int USAGE = 2;
    /** The program (jar, Main-Class, class on the classpath) does not exist. */
    public static final int PROGRAM_NOT_FOUND = 3;
    /** The io-manager or a peer could not be started, or the peers did not wire up in time. */
    public static final int LAUNCH_FAILURE = 4;
    /**
     * The cluster configuration database is missing, unreadable or invalid, its DNS server did not
     * answer, or {@code cohort db} could not write it (it never writes an invalid one).
     */
    public static final int CLUSTER_DB = 5;
    /** {@code cohort stacks}: no running job of this user on this machine (or not the one named), or it just ended. */
    public static final int NO_JOB = 6;
    /**
     * {@code cohort prof}: nothing to report on: the directory of recordings is missing, is not a
     * directory, holds no {@code *.jfr} file, or none of them can be read (EX_NOINPUT).
     */
    public static final int NO_INPUT = 66;
    /** No daemon that could answer did: every load server unreachable, or the member's daemon (EX_UNAVAILABLE). */
    public static final int CLUSTER_UNAVAILABLE = 69;
    /** Internal error of the launcher (EX_SOFTWARE). */
    public static final int INTERNAL_ERROR = 70;
    /** {@code cohort prof}: a report file could not be written (EX_CANTCREAT). */
    public static final int CANNOT_CREATE = 73;
    /** The job's output could not be written (a full disk, a failed --output file); the job was stopped (EX_IOERR). */
    public static final int OUTPUT_FAILED = 74;
    /** The reader of the launcher's output went away (a pipe into head); the job was stopped quietly (128 + SIGPIPE). */
    public static final int OUTPUT_CLOSED = 141;
    /** The partition cannot hold the job now: too few available members, or none with a free job slot (EX_TEMPFAIL). */
    public static final int NO_ROOM = 75;
    /** The user is not in the partition's access list; nothing was started (EX_NOPERM). */
    public static final int ACCESS_DENIED = 77;
    /** A daemon understood a request and refused it, e.g. an unknown member or a bad value (EX_PROTOCOL). */
    public static final int REQUEST_REFUSED = 76;
    /** The cluster's configuration cannot be used: database, key file, no member for this host, port in use (EX_CONFIG). */
    public static final int CLUSTER_CONFIG = 78;
    /** The job ran longer than {@code --timeout} (as coreutils' timeout). */
    public static final int TIMEOUT = 124;
    /** The launcher got SIGINT (128 + 2). */
    public static final int INTERRUPTED = 130;
    /** The launcher got SIGTERM (128 + 15). */
    public static final int TERMINATED = 143;

    private ExitCodes() {
    }
}
