package io.cohort.cli;

/** {@code cohort stacks}: no running job to look at; the message says which and where we looked. Exit code 6. */
public final class NoJobException extends RuntimeException {
    public NoJobException(String message) {
        super(message);
    }
}
