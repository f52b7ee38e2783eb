package io.cohort.cluster;

import javax.naming.CommunicationException;
import javax.naming.Context;
import javax.naming.NameNotFoundException;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.ServiceUnavailableException;
import javax.naming.directory.Attribute;
import javax.naming.directory.Attributes;
import javax.naming.directory.DirContext;
import javax.naming.directory.InitialDirContext;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import java.util.OptionalLong;

/**
 * Reads a cluster's zone from DNS through the JDK's own DNS provider (JNDI's {@code DnsContextFactory}):
 * the TXT records at the zone's apex, each one's character-strings joined, and the zone's SOA serial if
 * the server gives one. A server that does not answer fails within {@link #TIMEOUT_MILLIS_TOTAL}; the
 * system's resolver tries each of its name servers that long, and the message gives the time it took.
 * Each call makes its own JNDI context; any thread.
 */
final class DnsZoneReader {
    /** First wait for an answer; each of the {@link #RETRIES} retries doubles it: 0.5 + 1 + 2 s in all. */
    static final int TIMEOUT_INITIAL_MILLIS = 500;
    static final int RETRIES = 3;
    static final int TIMEOUT_MILLIS_TOTAL = 3500;

    /** What the zone holds for Cohort. */
    record Zone(List<String> records, OptionalLong serial) {
    }

    private DnsZoneReader() {
    }

    /**
     * @param server {@code host:port} of the DNS server, or null for the system's resolver
     * @param zone   the zone, which is the cluster's name
     * @param origin how errors name the database, e.g. {@code dns://127.0.0.1:5353/lab}
     */
    static Zone read(String server, String zone, String origin) {
        Hashtable<String, String> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, "com.sun.jndi.dns.DnsContextFactory");
        env.put(Context.PROVIDER_URL, server == null ? "dns:" : "dns://" + server + "/");
        env.put("com.sun.jndi.dns.timeout.initial", Integer.toString(TIMEOUT_INITIAL_MILLIS));
        env.put("com.sun.jndi.dns.timeout.retries", Integer.toString(RETRIES));
        String who = server == null ? "the system's DNS resolver" : "the DNS server " + server;
        DirContext ctx = null;
        long start = System.nanoTime();
        try {
            ctx = new InitialDirContext(env);
            List<String> records = new ArrayList<>();
            Attribute txt = ctx.getAttributes(zone, new String[] {"TXT"}).get("TXT");
            if (txt != null) {
                NamingEnumeration<?> all = txt.getAll();
                while (all.hasMore()) {
                    records.add(joinCharacterStrings(String.valueOf(all.next())));
                }
            }
            if (records.isEmpty()) {
                throw new ClusterDbException(origin + ": the zone '" + zone + "' has no TXT records at " + who
                        + "; publish the database with 'cohort db print --format zone' or '--format dnsmasq'");
            }
            return new Zone(records, serial(ctx, zone));
        } catch (NamingException e) {
            throw new ClusterDbException(origin + ": " + explain(e, who, zone, System.nanoTime() - start), e);
        } catch (ClusterDbException e) {
            throw e; // already the sentence (a zone without TXT records)
        } catch (RuntimeException e) {
            // The JDK's DNS provider throws unchecked exceptions on a reply it cannot decode.
            throw new ClusterDbException(origin + ": " + who + " sent a malformed answer for the TXT records of '" + zone
                    + "' (" + e.getClass().getSimpleName() + "); check that it is a DNS server", e);
        } finally {
            close(ctx);
        }
    }

    /** The SOA serial, or empty where the server gives no SOA for the zone (not authoritative, refused). */
    private static OptionalLong serial(DirContext ctx, String zone) {
        try {
            Attributes a = ctx.getAttributes(zone, new String[] {"SOA"});
            Attribute soa = a.get("SOA");
            if (soa == null || soa.size() == 0) {
                return OptionalLong.empty();
            }
            // mname rname serial refresh retry expire minimum
            String[] fields = String.valueOf(soa.get()).trim().split("\\s+");
            return fields.length >= 3 && fields[2].matches("\\d{1,10}")
                    ? OptionalLong.of(Long.parseLong(fields[2])) : OptionalLong.empty();
        } catch (NamingException | RuntimeException e) {
            return OptionalLong.empty(); // no SOA, or one the provider cannot decode: no serial
        }
    }

    private static String explain(NamingException e, String who, String zone, long tookNanos) {
        if (e instanceof CommunicationException && e.getRootCause() instanceof SocketTimeoutException) {
            // One server waits TIMEOUT_MILLIS_TOTAL; the system's resolver waits that for each name server it has.
            return who + " did not answer (gave up after " + String.format(java.util.Locale.ROOT, "%.1f", tookNanos / 1e9)
                    + " s); check the address and port, or use a file database";
        }
        if (e instanceof CommunicationException) {
            Throwable root = e.getRootCause();
            return "could not reach " + who + " (" + (root == null ? e.getExplanation() : root.toString())
                    + "); check the address and port";
        }
        if (e instanceof NameNotFoundException) {
            return who + " does not know the zone '" + zone + "'; the zone must be named after the cluster";
        }
        if (e instanceof ServiceUnavailableException || e instanceof javax.naming.OperationNotSupportedException) {
            return who + " refused to answer for the zone '" + zone + "' (" + e.getExplanation()
                    + "); is it serving that zone?";
        }
        return "looking up the TXT records of '" + zone + "' at " + who + " failed: " + e.getExplanation();
    }

    /**
     * Undoes the JDK provider's rendering of a TXT record: its character-strings separated by spaces, a
     * string quoted when it holds white space or is empty, with {@code "} and {@code \} escaped, and each
     * byte as one char. The strings are joined without separator, then read as UTF-8.
     */
    static String joinCharacterStrings(String rendered) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        int n = rendered.length();
        while (i < n) {
            char c = rendered.charAt(i);
            if (c == ' ') {
                i++;
            } else if (c == '"') {
                i++;
                while (i < n && rendered.charAt(i) != '"') {
                    char d = rendered.charAt(i++);
                    if (d == '\\' && i < n) {
                        d = rendered.charAt(i++);
                    }
                    out.append(d);
                }
                i++; // the closing quote
            } else {
                while (i < n && rendered.charAt(i) != ' ') {
                    out.append(rendered.charAt(i++));
                }
            }
        }
        byte[] bytes = out.toString().getBytes(StandardCharsets.ISO_8859_1);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static void close(DirContext ctx) {
        if (ctx != null) {
            try {
                ctx.close();
            } catch (NamingException e) {
                // nothing held that outlives the context
            }
        }
    }
}
