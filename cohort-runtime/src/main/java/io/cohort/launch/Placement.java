package io.cohort.launch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which host each rank runs on: PSE's mapping of a job's peers onto members. Hosts come from
 * {@code --hosts h1[:slots],h2[:slots],...} (later: a load server's choice from a partition).
 *
 * <p>The rule is <b>block placement by slots</b>: ranks 0..s1-1 go to the first host, the next s2 to
 * the second, and so on, so neighbours in rank order share a host and its shared memory. A host
 * written without {@code :slots} gets a share of the ranks that the explicit slots leave over, the
 * shares as equal as can be (the first hosts get one more when it does not divide): 4 ranks on
 * {@code a,b,c} are 2, 1, 1; 8 on {@code a:2,b,c} are 2, 3, 3. A host that ends up with no rank
 * gets no io-manager. Fewer slots than ranks (only possible when every host names its slots) is an
 * error: no silent oversubscription.
 *
 * <p>Immutable.
 */
public final class Placement {
    /** What a host name may contain: the characters of DNS names and of network namespace names. */
    private static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    static final int MAX_SLOTS = 1 << 20;

    private final List<String> hosts;
    private final int[] hostOfRank;
    private final int[] localRank;
    private final int[] perHost;

    private Placement(List<String> hosts, int[] hostOfRank) {
        this.hosts = List.copyOf(hosts);
        this.hostOfRank = hostOfRank;
        this.localRank = new int[hostOfRank.length];
        this.perHost = new int[hosts.size()];
        for (int r = 0; r < hostOfRank.length; r++) {
            localRank[r] = perHost[hostOfRank[r]]++;
        }
    }

    /** Every rank on one host (the default: this machine). */
    public static Placement singleHost(String host, int size) {
        return new Placement(List.of(host), new int[size]);
    }

    /**
     * Places ranks in blocks on hosts chosen elsewhere (a load server's choice from a partition):
     * the first {@code counts[0]} ranks on {@code hosts.get(0)}, and so on.
     */
    public static Placement of(List<String> hosts, int[] counts) {
        if (hosts.size() != counts.length || hosts.isEmpty()) {
            throw new IllegalArgumentException("one count per host is needed");
        }
        int size = 0;
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] < 1 || !HOST_NAME.matcher(hosts.get(i)).matches()) {
                throw new IllegalArgumentException("host " + hosts.get(i) + " with " + counts[i] + " ranks cannot be placed");
            }
            size += counts[i];
        }
        if (new LinkedHashSet<>(hosts).size() != hosts.size()) {
            throw new IllegalArgumentException("a host is named twice in " + hosts);
        }
        int[] hostOfRank = new int[size];
        int rank = 0;
        for (int h = 0; h < counts.length; h++) {
            for (int i = 0; i < counts[h]; i++) {
                hostOfRank[rank++] = h;
            }
        }
        return new Placement(hosts, hostOfRank);
    }

    /**
     * Reads a host file and places {@code size} ranks on its hosts as {@link #parse} does. One host per
     * line, as Open MPI's and MPICH's host files write it: {@code node1}, {@code node1 slots=4} or
     * {@code node1:4}; {@code #} starts a comment; blank lines are skipped.
     *
     * @param origin the file's name, for messages
     * @throws IllegalArgumentException with a sentence naming the file and line
     */
    public static Placement parseHostfile(String text, String origin, int size) {
        List<String> entries = new ArrayList<>();
        String[] lines = text.split("\\r?\\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int hash = line.indexOf('#');
            if (hash >= 0) {
                line = line.substring(0, hash);
            }
            line = line.trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] words = line.split("\\s+");
            String entry = words[0];
            for (int w = 1; w < words.length; w++) {
                String word = words[w];
                if (word.startsWith("slots=") && !entry.contains(":")) {
                    entry = entry + ":" + word.substring("slots=".length());
                } else if (!word.startsWith("max_slots=")) { // max_slots: Open MPI's oversubscription bound, not needed here
                    throw new IllegalArgumentException(origin + ":" + (i + 1) + ": '" + word
                            + "' is not understood; write 'HOST', 'HOST slots=N' or 'HOST:N'");
                }
            }
            if (entry.indexOf(',') >= 0) {
                throw new IllegalArgumentException(origin + ":" + (i + 1) + ": one host per line ('" + entry + "')");
            }
            try {
                parse(entry, 1); // the line on its own: a bad name or slot count is reported with its line
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(origin + ":" + (i + 1) + ": " + e.getMessage()
                        .replace("--hosts: ", "").replace("'" + entry + "'", "'" + line + "'")
                        .replace(" after the colon", ""), e);
            }
            entries.add(entry);
        }
        if (entries.isEmpty()) {
            throw new IllegalArgumentException(origin + " names no host");
        }
        try {
            return parse(String.join(",", entries), size);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(origin + ": " + e.getMessage().replace("--hosts ", "hosts "), e);
        }
    }

    /**
     * Parses {@code --hosts} and places {@code size} ranks on them.
     *
     * @throws IllegalArgumentException with a sentence naming what is wrong
     */
    public static Placement parse(String hostList, int size) {
        if (size < 1) {
            throw new IllegalArgumentException("a job needs 1 or more peers (got " + size + ")");
        }
        if (hostList == null || hostList.isBlank()) {
            throw new IllegalArgumentException("--hosts needs a list such as node1:4,node2:4");
        }
        List<String> names = new ArrayList<>();
        List<Integer> slots = new ArrayList<>(); // null: not given
        Set<String> seen = new LinkedHashSet<>();
        for (String item : hostList.split(",", -1)) {
            String s = item.trim();
            if (s.isEmpty()) {
                throw new IllegalArgumentException("--hosts " + hostList + " has an empty entry; write h1[:slots],h2[:slots],...");
            }
            int colon = s.indexOf(':');
            String name = colon < 0 ? s : s.substring(0, colon);
            Integer n = null;
            if (colon >= 0) {
                String v = s.substring(colon + 1);
                try {
                    n = Integer.parseInt(v);
                } catch (NumberFormatException e) {
                    n = -1;
                }
                if (n < 1 || n > MAX_SLOTS) {
                    throw new IllegalArgumentException("--hosts: '" + s + "' needs a number of slots from 1 to "
                            + MAX_SLOTS + " after the colon");
                }
            }
            if (!HOST_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("--hosts: '" + name + "' is not a host name (letters, digits, '.', '_' and '-')");
            }
            if (!seen.add(name)) {
                throw new IllegalArgumentException("--hosts names " + name + " twice; give it once with all its slots (" + name + ":N)");
            }
            names.add(name);
            slots.add(n);
        }
        long explicit = 0;
        int unsized = 0;
        for (Integer n : slots) {
            if (n == null) {
                unsized++;
            } else {
                explicit += n;
            }
        }
        long left = Math.max(0, size - explicit);
        long share = unsized == 0 ? 0 : left / unsized;
        long extra = unsized == 0 ? 0 : left % unsized;
        long total = unsized == 0 ? explicit : explicit + left;
        if (total < size) {
            throw new IllegalArgumentException("--hosts " + hostList + " offers " + total + " slot" + (total == 1 ? "" : "s")
                    + " for " + size + " peers; add slots (host:N) or hosts");
        }
        List<String> used = new ArrayList<>();
        int[] hostOfRank = new int[size];
        int rank = 0;
        int unsizedSeen = 0;
        for (int h = 0; h < names.size() && rank < size; h++) {
            long capacity = slots.get(h) != null ? slots.get(h) : share + (unsizedSeen++ < extra ? 1 : 0);
            if (capacity == 0) {
                continue;
            }
            used.add(names.get(h));
            for (int i = 0; i < capacity && rank < size; i++) {
                hostOfRank[rank++] = used.size() - 1;
            }
        }
        return new Placement(used, hostOfRank);
    }

    public int size() {
        return hostOfRank.length;
    }

    /** The hosts that run at least one rank, in placement order. */
    public List<String> hosts() {
        return hosts;
    }

    public int hostIndexOf(int rank) {
        return hostOfRank[rank];
    }

    public String hostOf(int rank) {
        return hosts.get(hostOfRank[rank]);
    }

    /** This rank's index among the ranks of its host (COHORT_LOCAL_RANK). */
    public int localRank(int rank) {
        return localRank[rank];
    }

    /** The number of ranks on this rank's host (COHORT_LOCAL_SIZE). */
    public int localSize(int rank) {
        return perHost[hostOfRank[rank]];
    }

    /** The ranks on host {@code hostIndex}, ascending. */
    public int[] ranksOn(int hostIndex) {
        return java.util.stream.IntStream.range(0, hostOfRank.length).filter(r -> hostOfRank[r] == hostIndex).toArray();
    }

    /** The host name of every rank, in rank order. */
    public String[] hostPerRank() {
        String[] h = new String[hostOfRank.length];
        Arrays.setAll(h, this::hostOf);
        return h;
    }

    /** "cib1: ranks 0-1, cib2: ranks 2-3" for --verbose. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (int h = 0; h < hosts.size(); h++) {
            int[] r = ranksOn(h);
            b.append(h == 0 ? "" : ", ").append(hosts.get(h)).append(r.length == 1 ? ": rank " : ": ranks ")
                    .append(r[0]);
            if (r.length > 1) {
                b.append('-').append(r[r.length - 1]);
            }
        }
        return b.toString();
    }
}
