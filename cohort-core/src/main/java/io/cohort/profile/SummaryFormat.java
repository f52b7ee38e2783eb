package io.cohort.profile;

/**
 * The summary profile file, {@code <App>.prof.<rank>.tsv}: the contract between {@link Summary},
 * which writes it when the peer exits, and {@code cohort prof}, which reads it.
 *
 * <p>UTF-8 text, one record per line, fields separated by tabs; the first field names the record.
 * Lines starting with {@code #} are comments. In text fields a backslash, tab, newline and carriage
 * return are written {@code \\}, {@code \t}, {@code \n} and {@code \r}. The columns of each record
 * follow the constants below in order; a reader ignores columns it does not know (a later writer
 * may append some) and records of unknown type.
 *
 * <pre>
 * format   cohort-profile-summary  VERSION
 * peer     rank size jobId host application pid
 * job      startEpochNanos appNanos closed(1|0)
 * sites    intervalNanos
 * timing   alwaysTimed timeEvery
 * sampler  minPeriodNanos ticks samples pauseNanos
 * comm     kind operation algorithm communicator peer sizeClass count bytes nanos minBytes maxBytes maxNanos timed
 * site     kind operation className method line estimatedCalls estimatedNanos walks
 * method   name samples
 * protocol transport peer nacks retransmissions retransmittedBytes stalls stallNanos
 * dropped  transport reason unit count
 * </pre>
 *
 * A {@code comm} record's {@code peer} is the world rank of the other side (-1: any or none; a
 * collective's root in the communicator); {@code sizeClass} is 0 for empty messages, k for sizes in
 * [2^(k-1), 2^k), and -1 where the call has no size (waits, probes, regions), whose {@code bytes} is
 * then 0. Times are nanoseconds. A {@code dropped} record counts what a transport ({@code udp},
 * {@code tcp}, {@code broadcast domain}) dropped over the job for one reason ({@code failed
 * authentication}, {@code other job}, {@code not cohort}, ...), in {@code unit}s ({@code datagram},
 * {@code connection}, {@code frame}): the entries of the {@code --verbose} drop line. Readers older
 * than the record skip it.
 *
 * <p>Counts and bytes are exact; times are estimates. A thread times every call of a kind until it
 * has made {@code alwaysTimed} of them, then one in {@code timeEvery} ({@code timing} record): a
 * {@code comm} record's {@code nanos} is its {@code timed} calls' time scaled up to all {@code count}
 * of them (or, with none timed, the operation's mean over its other records), and {@code maxNanos}
 * is the longest of its timed calls. A {@code site} record's {@code estimatedNanos} is scaled alike.
 */
public final class SummaryFormat {
    public static final String EXTENSION = ".tsv";
    public static final String MAGIC = "cohort-profile-summary";
    public static final int VERSION = 1;

    public static final String FORMAT = "format";
    public static final String PEER = "peer";
    public static final String JOB = "job";
    public static final String SITES = "sites";
    public static final String TIMING = "timing";
    public static final String SAMPLER = "sampler";
    public static final String COMM = "comm";
    public static final String SITE = "site";
    public static final String METHOD = "method";
    public static final String PROTOCOL = "protocol";
    public static final String DROPPED = "dropped";

    private SummaryFormat() {
    }

    /** The size class of a message of {@code bytes}: 0 for empty, k for [2^(k-1), 2^k), -1 if not known. */
    public static int sizeClass(long bytes) {
        return bytes < 0 ? -1 : bytes == 0 ? 0 : 64 - Long.numberOfLeadingZeros(bytes);
    }

    public static String escape(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String r = switch (c) {
                case '\\' -> "\\\\";
                case '\t' -> "\\t";
                case '\n' -> "\\n";
                case '\r' -> "\\r";
                default -> null;
            };
            if (r != null && b == null) {
                b = new StringBuilder(s.length() + 8).append(s, 0, i);
            }
            if (b != null) {
                if (r != null) {
                    b.append(r);
                } else {
                    b.append(c);
                }
            }
        }
        return b == null ? s : b.toString();
    }

    public static String unescape(String s) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                b.append(switch (n) {
                    case 't' -> '\t';
                    case 'n' -> '\n';
                    case 'r' -> '\r';
                    default -> n;
                });
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
