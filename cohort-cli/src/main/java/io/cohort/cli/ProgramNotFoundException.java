package io.cohort.cli;

/** The program to run does not exist (jar, Main-Class, or class on the classpath). Exit code 3. */
public final class ProgramNotFoundException extends RuntimeException {
    public ProgramNotFoundException(String message) {
        super(message);
    }
}
