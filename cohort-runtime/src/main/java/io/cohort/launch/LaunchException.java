package io.cohort.launch;

/** The job could not be started; the message is one sentence for the user. Exit code {@link ExitCodes#LAUNCH_FAILURE}. */
public class LaunchException extends Exception {
    public LaunchException(String message) {
        super(message);
    }

    public LaunchException(String message, Throwable cause) {
        super(message, cause);
    }
}
