package io.cohort.broadcast.eqa;

import io.cohort.broadcast.pcode.DomainFactory;

import java.util.Locale;

/**
 * Which protocol a job's broadcast domains run ({@code cohort run --bcast-protocol}): PCODE (the
 * default: all-to-all, globally ordered, NACK-based) or EQA (one-to-all from each sender, a shared
 * retransmission buffer with a cursor per receiver, Simple or Push-Pull). Every communicator's
 * domain runs the same one, and every peer of a job must agree, which the launcher sees to by
 * giving them all the same variable.
 */
public enum BroadcastProtocol {
    PCODE, EQA;

    /** The system property; it wins over {@link #ENV_NAME}. */
    public static final String PROP_NAME = DomainFactory.PROTOCOL_PROP_NAME;
    /** The variable {@code cohort run --bcast-protocol} sets. */
    public static final String ENV_NAME = "COHORT_BCAST_PROTOCOL";
    /** The names, as the command line takes them. */
    public static final java.util.List<String> NAMES = java.util.List.of("pcode", "eqa");

    /** The protocol {@code s} names in any case; PCODE for null or blank. */
    public static BroadcastProtocol parse(String s) {
        if (s == null || s.isBlank()) {
            return PCODE;
        }
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "pcode" -> PCODE;
            case "eqa" -> EQA;
            default -> throw new IllegalArgumentException("'" + s.trim() + "' names no broadcast protocol; choose one of "
                    + NAMES);
        };
    }

    /** {@value #PROP_NAME}, else {@value #ENV_NAME}, else PCODE. */
    public static BroadcastProtocol configured() {
        String v = System.getProperty(PROP_NAME);
        return parse(v != null ? v : System.getenv(ENV_NAME));
    }

    /** The name as the command line and {@code --verbose} print it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
