package io.cohort;

/** Base of every failure Cohort reports to a program. Unchecked, like {@code UncheckedIOException}. */
public class CohortException extends RuntimeException {
    public CohortException(String message) {
        super(message);
    }

    public CohortException(String message, Throwable cause) {
        super(message, cause);
    }
}
