package io.cohort.cluster;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Where the configuration database comes from and how it is loaded. A spec is a file path,
 * {@code dns:ZONE} (the system's resolver) or {@code dns://HOST[:PORT]/ZONE} (that DNS server; an IPv6
 * host in brackets). Which spec applies: the {@code --cluster-db} option, else the environment variable
 * {@value #ENV}, else {@value #DEFAULT_PATH}. Stateless; any thread.
 */
public final class ClusterDbSource {
    /** The environment variable that names the database when no option does. */
    public static final String ENV = "COHORT_CLUSTER_DB";
    /** The database when neither the option nor {@link #ENV} names one. */
    public static final String DEFAULT_PATH = "/etc/cohort/cluster.db";
    /** The DNS port when a {@code dns://} spec gives none. */
    public static final int DNS_PORT = 53;
    /**
     * The largest database file read: 65535 members at a generous 200 bytes each, with room for
     * partitions and comments.
     */
    public static final int MAX_FILE_BYTES = 16 << 20;

    /**
     * A parsed {@code dns:} spec.
     *
     * @param server {@code host:port}, or null for the system's resolver
     * @param zone   the zone, which is named after the cluster
     */
    public record DnsSpec(String server, String zone) {
    }

    private ClusterDbSource() {
    }

    /** The spec to use: the option's value if given, else {@value #ENV} if set and not blank, else the default. */
    public static String resolve(String optionOrNull, Map<String, String> env) {
        if (optionOrNull != null && !optionOrNull.isBlank()) {
            return optionOrNull.strip();
        }
        String fromEnv = env.get(ENV);
        return fromEnv != null && !fromEnv.isBlank() ? fromEnv.strip() : DEFAULT_PATH;
    }

    /** Whether the spec names a DNS zone rather than a file. */
    public static boolean isDns(String spec) {
        return spec.toLowerCase(Locale.ROOT).startsWith("dns:");
    }

    /** The server and zone of a {@code dns:} spec, or empty for a file spec; a malformed one is an error. */
    public static Optional<DnsSpec> dnsSpec(String spec) {
        if (!isDns(spec)) {
            return Optional.empty();
        }
        String rest = spec.substring(4);
        String usage = "'" + spec + "' is not a DNS database; write dns:ZONE or dns://HOST[:PORT]/ZONE";
        String server = null;
        if (rest.startsWith("//")) {
            int slash = rest.indexOf('/', 2);
            if (slash < 0) {
                throw new ClusterDbException(usage);
            }
            server = hostPort(rest.substring(2, slash), usage);
            rest = rest.substring(slash + 1);
        }
        try {
            ClusterDbValues.clusterName(rest);
        } catch (IllegalArgumentException e) {
            throw new ClusterDbException(usage);
        }
        return Optional.of(new DnsSpec(server, rest));
    }

    /** Loads and validates the database a spec names; every failure is a {@link ClusterDbException}. */
    public static ClusterDb load(String spec) {
        Optional<DnsSpec> dns = dnsSpec(spec);
        if (dns.isEmpty()) {
            return ClusterDbParser.parse(readFile(Path.of(spec), spec), spec);
        }
        DnsSpec d = dns.get();
        DnsZoneReader.Zone zone = DnsZoneReader.read(d.server(), d.zone(), spec);
        ClusterDb db = ClusterDbParser.parseRecords(zone.records(), spec, zone.serial());
        if (!stripDot(db.name()).equalsIgnoreCase(stripDot(d.zone()))) {
            throw new ClusterDbException(spec + ": the zone's cluster token says '" + db.name()
                    + "', but the zone of a cluster must be named after it");
        }
        return db;
    }

    /**
     * A database file's text as UTF-8; a missing or unreadable file, or one that is not a regular file
     * of at most {@value #MAX_FILE_BYTES} bytes, is one sentence.
     */
    public static String readFile(Path file, String origin) {
        try {
            return TextFiles.read(file, MAX_FILE_BYTES, StandardCharsets.UTF_8);
        } catch (TextFiles.NotTextFileException e) {
            throw new ClusterDbException(origin + " " + e.getMessage() + "; a cluster database is a text file");
        } catch (NoSuchFileException e) {
            throw new ClusterDbException(origin + ": no such file; create one with 'cohort db init CLUSTER'"
                    + " or name another with --cluster-db or " + ENV);
        } catch (AccessDeniedException e) {
            throw new ClusterDbException(origin + ": permission denied");
        } catch (MalformedInputException e) {
            throw new ClusterDbException(origin + ": the file is not UTF-8 text");
        } catch (IOException e) {
            throw new ClusterDbException(origin + ": cannot read the file (" + e.getMessage() + ")", e);
        }
    }

    private static String hostPort(String authority, String usage) {
        String host = authority;
        int port = DNS_PORT;
        int colon = authority.lastIndexOf(':');
        boolean bracketed = authority.startsWith("[");
        if (colon > 0 && (!bracketed || authority.lastIndexOf(']') < colon)) {
            host = authority.substring(0, colon);
            String p = authority.substring(colon + 1);
            if (!p.matches("\\d{1,5}") || Integer.parseInt(p) < 1 || Integer.parseInt(p) > 65535) {
                throw new ClusterDbException(usage + " (the port must be from 1 to 65535)");
            }
            port = Integer.parseInt(p);
        }
        String bare = bracketed && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        try {
            ClusterDbValues.address(bare);
        } catch (IllegalArgumentException e) {
            throw new ClusterDbException(usage);
        }
        return (bare.indexOf(':') >= 0 ? "[" + bare + "]" : bare) + ":" + port;
    }

    private static String stripDot(String name) {
        return name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
    }
}
