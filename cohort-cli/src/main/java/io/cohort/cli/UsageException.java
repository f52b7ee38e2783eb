package io.cohort.cli;

/** The command line is wrong; the message says what to change. Exit code 2. */
public final class UsageException extends RuntimeException {
    public UsageException(String message) {
        super(message);
    }
}
