package io.cohort;

/**
 * A setting (a {@code cohort.*} system property or a {@code COHORT_*} variable) with a value Cohort
 * cannot use; the message is one sentence naming the setting, the value and what it takes. A peer
 * that meets one while it joins its job fails with that sentence alone, as with any other
 * {@link io.cohort.wireup.StartupFailedException}, not with a trace.
 */
public class BadSettingException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public BadSettingException(String message) {
        super(message);
    }
}
