package io.cohort.tools.prof;

/**
 * There is nothing to report on: the directory is missing, is not a directory, holds no recording, or
 * none of its recordings could be read. The message is one sentence saying what to do. The command
 * line maps it to exit code 66 (EX_NOINPUT).
 */
public final class ProfileInputException extends Exception {
    private static final long serialVersionUID = 1L;

    public ProfileInputException(String message) {
        super(message);
    }
}
