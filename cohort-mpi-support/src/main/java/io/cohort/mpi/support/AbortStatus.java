package io.cohort.mpi.support;

/**
 * The process status an MPI abort exits with, in both layers: the code as a process status (its
 * low 8 bits), but 1 where that is 0, since a peer's status 0 is a normal end that stops nothing,
 * and the launcher would run the other peers on and report success.
 */
public final class AbortStatus {
    private AbortStatus() {
    }

    /** The status for {@code errorcode}. */
    public static int of(int errorcode) {
        int status = errorcode & 0xFF;
        return status == 0 ? 1 : status;
    }

    /** Why the status differs from the code, for the abort's line; empty where it does not. */
    public static String why(int errorcode) {
        if (of(errorcode) == errorcode) {
            return "";
        }
        return " with status " + of(errorcode) + ((errorcode & 0xFF) == 0
                ? " (a status of 0 is a normal end, which would stop no other peer)"
                : " (a process status keeps the code's low 8 bits)");
    }
}
