package io.cohort.transport.fault;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Which faults to inject into datagrams, parsed from one spec string, e.g.
 * {@code loss=0.05,burst=0.01:8,dup=0.01,reorder=0.02,delay=2ms,jitter=1ms,seed=7}.
 *
 * <pre>
 *   spec    := "" | "none" | item ("," item)*          (each key at most once, any order)
 *   item    := "loss="    RATE                 drop each datagram with this probability
 *            | "burst="   RATE ":" COUNT       with this probability start a burst: drop this
 *                                              datagram and the next COUNT-1 (COUNT 1..1000000)
 *            | "dup="     RATE                 deliver a datagram twice
 *            | "reorder=" RATE [":" DEPTH]     hold a datagram back until DEPTH (1..1000, default 2)
 *                                              later ones have passed, or until "hold" has elapsed
 *            | "hold="    DURATION             longest hold-back of a reordered datagram (default 10ms)
 *            | "delay="   DURATION             delay every datagram by this much ...
 *            | "jitter="  DURATION             ... plus a uniform random 0..jitter (may reorder)
 *            | "seed="    LONG                 the one seed of every random decision (default 1)
 *            | "side="    ("receive" | "send" | "both")   where faults apply (default receive)
 *   RATE    := a probability 0..1 ("0.05") or a percentage ("5%")
 *   DURATION:= a number with a unit ns, us, ms or s ("2ms", "500us"); "0" alone is allowed
 * </pre>
 *
 * Faults apply on the receive side by default, per receiving port, like an {@code nftables}
 * {@code numgen random} rule on each host's input. A failing run replays with the same spec:
 * the same seed gives the same sequence of decisions (see {@link FaultDecisions}).
 */
public final class FaultPlan {
    /** System property with a spec for in-JVM jobs ({@code LocalCohort}). */
    public static final String FAULT_PROP_NAME = "cohort.fault";
    /** Environment variable with a spec for launched peers ({@code cohort run --fault SPEC} sets it). */
    public static final String FAULT_ENV_NAME = "COHORT_FAULT";
    public static final long SEED_DEFAULT = 1;
    public static final int REORDER_DEPTH_DEFAULT = 2;
    public static final long HOLD_NANOS_DEFAULT = TimeUnit.MILLISECONDS.toNanos(10);
    /** Longest delay, jitter or hold accepted: a minute is already far beyond any time-out. */
    public static final long MAX_DURATION_NANOS = TimeUnit.SECONDS.toNanos(60);

    /** Where faults are injected. */
    public enum Side {
        RECEIVE, SEND, BOTH;

        boolean receive() {
            return this != SEND;
        }

        boolean send() {
            return this != RECEIVE;
        }
    }

    /** No faults at all. */
    public static final FaultPlan NONE = new FaultPlan(0, 0, 0, 0, 0, REORDER_DEPTH_DEFAULT, HOLD_NANOS_DEFAULT, 0, 0,
            SEED_DEFAULT, Side.RECEIVE);

    final double loss;
    final double burstRate;
    final int burstLength;
    final double dup;
    final double reorder;
    final int reorderDepth;
    final long holdNanos;
    final long delayNanos;
    final long jitterNanos;
    final long seed;
    final Side side;

    FaultPlan(double loss, double burstRate, int burstLength, double dup, double reorder, int reorderDepth,
              long holdNanos, long delayNanos, long jitterNanos, long seed, Side side) {
        this.loss = loss;
        this.burstRate = burstRate;
        this.burstLength = burstLength;
        this.dup = dup;
        this.reorder = reorder;
        this.reorderDepth = reorderDepth;
        this.holdNanos = holdNanos;
        this.delayNanos = delayNanos;
        this.jitterNanos = jitterNanos;
        this.seed = seed;
        this.side = side;
    }

    /**
     * Parses a spec; throws {@link IllegalArgumentException} with one sentence naming the bad token
     * and what would be right.
     */
    public static FaultPlan parse(String spec) {
        if (spec == null) {
            return NONE;
        }
        String s = spec.trim();
        if (s.isEmpty() || s.equalsIgnoreCase("none")) {
            return NONE;
        }
        double loss = 0;
        double burstRate = 0;
        int burstLength = 0;
        double dup = 0;
        double reorder = 0;
        int depth = REORDER_DEPTH_DEFAULT;
        long hold = HOLD_NANOS_DEFAULT;
        long delay = 0;
        long jitter = 0;
        long seed = SEED_DEFAULT;
        Side side = Side.RECEIVE;
        Set<String> seen = new LinkedHashSet<>();
        for (String raw : s.split(",", -1)) {
            String token = raw.trim();
            int eq = token.indexOf('=');
            if (token.isEmpty()) {
                throw bad(spec, token, "is empty; separate items with single commas");
            }
            if (eq <= 0) {
                throw bad(spec, token, "is not key=value");
            }
            String key = token.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            String value = token.substring(eq + 1).trim();
            if (!seen.add(key)) {
                throw bad(spec, token, "repeats '" + key + "'");
            }
            switch (key) {
                case "loss" -> loss = rate(spec, token, value);
                case "dup" -> dup = rate(spec, token, value);
                case "burst" -> {
                    int colon = value.indexOf(':');
                    if (colon < 0) {
                        throw bad(spec, token, "needs a rate and a length, as in burst=0.01:8");
                    }
                    burstRate = rate(spec, token, value.substring(0, colon));
                    burstLength = integer(spec, token, value.substring(colon + 1), 1, 1_000_000, "burst length");
                }
                case "reorder" -> {
                    int colon = value.indexOf(':');
                    reorder = rate(spec, token, colon < 0 ? value : value.substring(0, colon));
                    if (colon >= 0) {
                        depth = integer(spec, token, value.substring(colon + 1), 1, 1000, "reorder depth");
                    }
                }
                case "hold" -> {
                    hold = duration(spec, token, value);
                    if (hold == 0) {
                        throw bad(spec, token, "needs a duration above 0 (a reordered datagram must be held a while)");
                    }
                }
                case "delay" -> delay = duration(spec, token, value);
                case "jitter" -> jitter = duration(spec, token, value);
                case "seed" -> {
                    try {
                        seed = Long.parseLong(value);
                    } catch (NumberFormatException e) {
                        throw bad(spec, token, "needs a whole number (a 64-bit seed)");
                    }
                }
                case "side" -> {
                    try {
                        side = Side.valueOf(value.toUpperCase(Locale.ROOT));
                    } catch (IllegalArgumentException e) {
                        throw bad(spec, token, "must be receive, send or both");
                    }
                }
                default -> throw bad(spec, token, "names no fault; known keys are loss, burst, dup, reorder, hold, "
                        + "delay, jitter, seed, side");
            }
        }
        return new FaultPlan(loss, burstRate, burstLength, dup, reorder, depth, hold, delay, jitter, seed, side);
    }

    private static IllegalArgumentException bad(String spec, String token, String why) {
        return new IllegalArgumentException("fault spec '" + spec.trim() + "': '" + token + "' " + why);
    }

    private static double rate(String spec, String token, String value) {
        String v = value.trim();
        double scale = 1;
        if (v.endsWith("%")) {
            v = v.substring(0, v.length() - 1).trim();
            scale = 100;
        }
        double r;
        try {
            r = Double.parseDouble(v) / scale;
        } catch (NumberFormatException e) {
            r = Double.NaN;
        }
        if (!(r >= 0 && r <= 1) || v.isEmpty() || !Character.isDigit(v.charAt(v.length() - 1))) {
            throw bad(spec, token, "needs a probability from 0 to 1 (like 0.05) or a percentage (like 5%)");
        }
        return r;
    }

    private static int integer(String spec, String token, String value, int min, int max, String what) {
        try {
            int i = Integer.parseInt(value.trim());
            if (i >= min && i <= max) {
                return i;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw bad(spec, token, "needs a " + what + " from " + min + " to " + max);
    }

    private static long duration(String spec, String token, String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (v.equals("0")) {
            return 0;
        }
        TimeUnit unit;
        String number;
        if (v.endsWith("ns")) {
            unit = TimeUnit.NANOSECONDS;
            number = v.substring(0, v.length() - 2);
        } else if (v.endsWith("us")) {
            unit = TimeUnit.MICROSECONDS;
            number = v.substring(0, v.length() - 2);
        } else if (v.endsWith("ms")) {
            unit = TimeUnit.MILLISECONDS;
            number = v.substring(0, v.length() - 2);
        } else if (v.endsWith("s")) {
            unit = TimeUnit.SECONDS;
            number = v.substring(0, v.length() - 1);
        } else {
            throw bad(spec, token, "needs a unit: ns, us, ms or s (like 2ms)");
        }
        double n;
        try {
            n = Double.parseDouble(number.trim());
        } catch (NumberFormatException e) {
            n = Double.NaN;
        }
        double nanos = n * unit.toNanos(1);
        if (!(nanos >= 0 && nanos <= MAX_DURATION_NANOS)) {
            throw bad(spec, token, "needs a duration from 0 to 60s");
        }
        return Math.round(nanos);
    }

    /** True if this plan injects nothing. */
    public boolean isNone() {
        return loss == 0 && burstRate == 0 && dup == 0 && reorder == 0 && delayNanos == 0 && jitterNanos == 0;
    }

    public double loss() {
        return loss;
    }

    public double burstRate() {
        return burstRate;
    }

    public int burstLength() {
        return burstLength;
    }

    public double duplication() {
        return dup;
    }

    public double reorder() {
        return reorder;
    }

    public int reorderDepth() {
        return reorderDepth;
    }

    public long holdNanos() {
        return holdNanos;
    }

    public long delayNanos() {
        return delayNanos;
    }

    public long jitterNanos() {
        return jitterNanos;
    }

    public long seed() {
        return seed;
    }

    public Side side() {
        return side;
    }

    /**
     * The seed for one port of a job ({@code stream} = the peer's rank, say): the plan's seed mixed
     * with the stream number, so that peers do not all drop the same datagram numbers, while the
     * whole job still replays from the one seed.
     */
    public long seedFor(long stream) {
        long z = seed + 0x9E3779B97F4A7C15L * (stream + 1);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The canonical spec (parses back to an equal plan). */
    @Override
    public String toString() {
        if (isNone()) {
            return "none";
        }
        StringBuilder b = new StringBuilder();
        if (loss > 0) {
            b.append(",loss=").append(loss);
        }
        if (burstRate > 0) {
            b.append(",burst=").append(burstRate).append(':').append(burstLength);
        }
        if (dup > 0) {
            b.append(",dup=").append(dup);
        }
        if (reorder > 0) {
            b.append(",reorder=").append(reorder).append(':').append(reorderDepth).append(",hold=")
                    .append(holdNanos).append("ns");
        }
        if (delayNanos > 0) {
            b.append(",delay=").append(delayNanos).append("ns");
        }
        if (jitterNanos > 0) {
            b.append(",jitter=").append(jitterNanos).append("ns");
        }
        b.append(",seed=").append(seed).append(",side=").append(side.name().toLowerCase(Locale.ROOT));
        return b.substring(1);
    }
}
