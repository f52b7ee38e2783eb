package io.cohort.cluster;

/**
 * The cluster configuration database could not be read, is invalid, or could not be written. The
 * message is one sentence for the user that names the database (file or DNS zone), the line or TXT
 * record and the token where there is one, e.g.
 * {@code cluster.db:12: member.m3.cpus = 'x': the number of CPUs must be a whole number from 1 to 4096}.
 * The {@code cohort} command maps it to exit code 5 ({@code ExitCodes.CLUSTER_DB}).
 */
public class ClusterDbException extends RuntimeException {
    public ClusterDbException(String message) {
        super(message);
    }

    public ClusterDbException(String message, Throwable cause) {
        super(message, cause);
    }
}
