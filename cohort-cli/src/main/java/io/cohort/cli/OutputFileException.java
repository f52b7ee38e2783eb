package io.cohort.cli;

/** A file the command was asked to write could not be written; the message names it. Exit code 73 (EX_CANTCREAT). */
public final class OutputFileException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public OutputFileException(String message, Throwable cause) {
        super(message, cause);
    }
}
