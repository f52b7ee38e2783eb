package io.cohort.cluster;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The value syntaxes of the configuration database (docs/cluster.md): names, numbers, durations,
 * addresses, CIDR prefixes, lists and enumerations. Each method returns the value or throws
 * {@link IllegalArgumentException} whose message is the reason only ("the number of CPUs must be ..."),
 * which {@link ClusterDbParser} prefixes with the place and the token. Stateless; any thread.
 */
final class ClusterDbValues {
    static final int MAX_CPUS = 4096;
    static final int MAX_SLOTS = Member.MAX_SLOTS;
    /** Member and partition names: also host names for ssh and {@code ip netns exec}. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]*");
    /** User and group names as Linux accepts them (a trailing '$' marks Samba machine accounts). */
    private static final Pattern ACCOUNT = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]*\\$?");
    private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9_-]*[A-Za-z0-9])?");
    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m)");
    private static final Duration MAX_DURATION = Duration.ofDays(1);

    private ClusterDbValues() {
    }

    static String name(String value, String what) {
        if (!NAME.matcher(value).matches()) {
            throw new IllegalArgumentException("a " + what + " name may hold only letters, digits, '.', '_' and '-'"
                    + " and may not start with '.' or '-'");
        }
        return value;
    }

    /** The cluster's name, which is also its DNS zone: labels of letters, digits and '-', joined by dots. */
    static String clusterName(String value) {
        if (!isDnsName(value, false)) {
            throw new IllegalArgumentException("the cluster's name must be a DNS name: labels of letters, digits"
                    + " and '-' (not at either end of a label) joined by dots, like 'lab' or 'hpc.example.org'");
        }
        return value;
    }

    static long version(String value) {
        // The pattern keeps to ASCII digits; Long.parseLong alone also takes other scripts' digits and '+'.
        if (value.matches("\\d{1,19}")) {
            try {
                return Long.parseLong(value);
            } catch (NumberFormatException e) {
                // above Long.MAX_VALUE: reported below
            }
        }
        throw new IllegalArgumentException("the version must be a whole number from 0 to " + Long.MAX_VALUE);
    }

    static int integer(String value, int min, int max, String what) {
        if (value.matches("-?\\d{1,10}")) {
            long v = Long.parseLong(value);
            if (v >= min && v <= max) {
                return (int) v;
            }
        }
        throw new IllegalArgumentException(what + " must be a whole number from " + min + " to " + max);
    }

    /** A positive duration: a whole number and a unit ms, s or m, at most a day. */
    static Duration duration(String value, String what) {
        Matcher m = DURATION.matcher(value);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            Duration d = switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                default -> Duration.ofMinutes(n);
            };
            if (!d.isZero() && d.compareTo(MAX_DURATION) <= 0) {
                return d;
            }
        }
        throw new IllegalArgumentException(what + " must be a duration above 0 and at most a day: a whole number"
                + " with the unit ms, s or m, like 500ms, 2s or 1m");
    }

    /** The shortest canonical spelling of a duration that {@link #duration} reads back. */
    static String formatDuration(Duration d) {
        long ms = d.toMillis();
        if (ms % 60_000 == 0) {
            return ms / 60_000 + "m";
        }
        if (ms % 1000 == 0) {
            return ms / 1000 + "s";
        }
        return ms + "ms";
    }

    /** An IPv4 or IPv6 literal or a DNS name; nothing is looked up. */
    static String address(String value) {
        if (value.indexOf(':') >= 0) {
            if (ipv6(value) == null) {
                throw new IllegalArgumentException("'" + value + "' is not an IPv6 address");
            }
            return value;
        }
        if (value.matches("[\\d.]+")) {
            if (ipv4(value) == null) {
                throw new IllegalArgumentException("'" + value + "' is not an IPv4 address (four numbers 0..255)");
            }
            return value;
        }
        if (!isDnsName(value, true)) {
            throw new IllegalArgumentException("an address must be an IPv4 or IPv6 address or a DNS name");
        }
        return value;
    }

    /**
     * What two spellings of one address share: the bytes of an IP literal ({@code fd00::1} and
     * {@code fd00:0::1} are one address), a DNS name in lower case without a final dot. Nothing is looked up.
     */
    static String addressKey(String address) {
        byte[] ip = address.indexOf(':') >= 0 ? ipv6(address) : address.matches("[\\d.]+") ? ipv4(address) : null;
        if (ip != null) {
            return java.util.HexFormat.of().formatHex(ip);
        }
        String name = address.toLowerCase(java.util.Locale.ROOT);
        return name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
    }

    /** A CIDR prefix, IPv4 or IPv6, with no bits set after the prefix length. */
    static String cidr(String value) {
        io.cohort.wireup.NetworkPrefix p;
        try {
            p = io.cohort.wireup.NetworkPrefix.parseAllowingHostBits(value); // the form peers parse it in
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the network must be a CIDR prefix like 10.1.0.0/24 or fd00::/64");
        }
        if (p.hasHostBits()) {
            throw new IllegalArgumentException("'" + value + "' has bits set after the first " + p.bits()
                    + "; the network is written with them 0");
        }
        return value;
    }

    static <E extends Enum<E>> E enumValue(String value, Class<E> type, String what) {
        for (E e : type.getEnumConstants()) {
            if (e.name().equalsIgnoreCase(value)) {
                return e;
            }
        }
        throw new IllegalArgumentException(what + " must be one of " + choices(type));
    }

    static String transport(String value) {
        String v = value.toLowerCase(Locale.ROOT);
        if (v.equals("auto") || v.equals("tcp") || v.equals("udp")) {
            return v;
        }
        throw new IllegalArgumentException("the transport must be auto, tcp or udp");
    }

    /**
     * A comma-separated list of distinct names; {@code *} alone allowed where {@code star} is true.
     * An empty list is allowed where {@code min} is 0.
     */
    static List<String> list(String value, int min, boolean star, Pattern syntax, String what) {
        List<String> out = new ArrayList<>();
        if (!value.isEmpty()) {
            Set<String> seen = new HashSet<>();
            for (String part : value.split(",", -1)) {
                String item = part.strip();
                if (item.equals("*") && star) {
                    if (value.strip().equals("*")) {
                        return List.of("*");
                    }
                    throw new IllegalArgumentException("'*' means all and cannot be combined with names");
                }
                if (!syntax.matcher(item).matches()) {
                    throw new IllegalArgumentException(item.isEmpty()
                            ? "the list has an empty item; separate " + what + " names with single commas"
                            : "'" + item + "' is not a valid " + what + " name");
                }
                if (!seen.add(item)) {
                    throw new IllegalArgumentException("'" + item + "' is listed twice");
                }
                out.add(item);
            }
        }
        if (out.size() < min) {
            throw new IllegalArgumentException("the list needs at least " + min + " " + what + " name"
                    + (min == 1 ? "" : "s"));
        }
        return out;
    }

    static List<String> names(String value, int min, boolean star, String what) {
        return list(value, min, star, NAME, what);
    }

    static List<String> accounts(String value, boolean star, String what) {
        return list(value, 0, star, ACCOUNT, what);
    }

    private static String choices(Class<? extends Enum<?>> type) {
        StringBuilder b = new StringBuilder();
        Enum<?>[] all = type.getEnumConstants();
        for (int i = 0; i < all.length; i++) {
            b.append(i == 0 ? "" : i == all.length - 1 ? " or " : ", ").append(all[i].name().toLowerCase(Locale.ROOT));
        }
        return b.toString();
    }

    private static boolean isDnsName(String value, boolean underscores) {
        String v = value.endsWith(".") ? value.substring(0, value.length() - 1) : value;
        if (v.isEmpty() || v.length() > 253) {
            return false;
        }
        for (String label : v.split("\\.", -1)) {
            if (label.length() > 63 || !LABEL.matcher(label).matches() || (!underscores && label.indexOf('_') >= 0)) {
                return false;
            }
        }
        return true;
    }

    private static byte[] ipv4(String s) {
        Matcher m = IPV4.matcher(s);
        if (!m.matches()) {
            return null;
        }
        byte[] b = new byte[4];
        for (int i = 0; i < 4; i++) {
            int octet = Integer.parseInt(m.group(i + 1));
            if (octet > 255) {
                return null;
            }
            b[i] = (byte) octet;
        }
        return b;
    }

    /** Brackets make the JDK read a literal only: it never turns to a name lookup. */
    private static byte[] ipv6(String s) {
        if (!s.matches("[0-9A-Fa-f:.]+")) {
            return null;
        }
        try {
            return InetAddress.getByName("[" + s + "]").getAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
