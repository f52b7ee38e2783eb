package io.cohort.collective;

import java.util.Locale;

/**
 * Which family of algorithms collectives use ({@code --collectives auto|p2p|bcast}, system property
 * {@value #MODE_PROP_NAME}).
 *
 * <p>Threads: an enum; any thread.
 */
public enum CollectiveMode {
    /** {@link CollectivePolicy} chooses by peer count and message length; p2p where the domain cannot open. */
    AUTO,
    /** Point-to-point algorithms only; the broadcast domain is never opened. */
    P2P,
    /** The broadcast domain wherever an algorithm over it exists (bcast, allgather, barrier, allreduce), p2p elsewhere. */
    BCAST;

    public static final String MODE_PROP_NAME = "cohort.collectives";
    /** {@code true}: every collective call is compared across the ranks before it runs ({@link Collectives#checkSignatures}). */
    public static final String CHECK_PROP_NAME = "cohort.collectives.check";
    /** The same from the environment, as {@code cohort run --check-collectives} sets it ({@code 1}). */
    public static final String CHECK_ENV_NAME = "COHORT_CHECK_COLLECTIVES";
    public static final String MODE_DEFAULT = "auto";

    /** Parses {@code auto}, {@code p2p} or {@code bcast} (any case); one sentence naming a bad value. */
    public static CollectiveMode parse(String value) {
        String v = value == null ? MODE_DEFAULT : value.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "auto" -> AUTO;
            case "p2p" -> P2P;
            case "bcast" -> BCAST;
            default -> throw new io.cohort.BadSettingException("setting " + MODE_PROP_NAME + "=" + value
                    + " is not a collectives mode; use auto, p2p or bcast");
        };
    }

    /** The mode the system property {@value #MODE_PROP_NAME} names (default auto). */
    public static CollectiveMode fromSystemProperties() {
        return parse(System.getProperty(MODE_PROP_NAME, MODE_DEFAULT));
    }
}
