package io.cohort.tools.prof;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The text report, laid out for people and scripts alike (after mpiP's): header lines starting with
 * {@code @ }, then sections, each a line {@code @--- Title ---...}, one line of column names without
 * spaces, and one row per line, ended by a blank line; the report ends with {@code @--- End of report}.
 * Numbers never carry units or thousands separators (the unit is in the column name: {@code Total_ms}).
 */
public final class TextReport {
    /** Above this many ranks the matrix is printed as a list of the pairs that talked, not a square. */
    static final int SQUARE_MATRIX_MAX_RANKS = 32;
    private static final int RULE_WIDTH = 78;

    private TextReport() {
    }

    public static String render(ProfileAnalysis a) {
        StringBuilder out = new StringBuilder();
        header(out, a);
        peerTimes(out, a);
        callSites(out, a);
        messageSizes(out, a);
        sizeClasses(out, a);
        operations(out, a);
        matrix(out, a);
        methods(out, a);
        regions(out, a);
        protocol(out, a);
        dropped(out, a);
        out.append("@--- End of report\n");
        return out.toString();
    }

    private static void header(StringBuilder out, ProfileAnalysis a) {
        ProfileSet set = a.set();
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[] {"Application", set.application()});
        lines.add(new String[] {"Job id", set.jobId().isEmpty() ? "?" : set.jobId()});
        List<Integer> ranks = set.peers().stream().map(PeerProfile::rank).toList();
        lines.add(new String[] {"Peers", set.peers().size() + " recorded of " + set.jobSize() + " (ranks " + Fmt.ranks(ranks) + ")"});
        List<String> hosts = new ArrayList<>();
        for (Map.Entry<String, List<Integer>> h : set.hosts().entrySet()) {
            hosts.add(h.getKey() + " (ranks " + Fmt.ranks(h.getValue()) + ")");
        }
        lines.add(new String[] {"Hosts", String.join(", ", hosts)});
        Instant start = Instant.ofEpochSecond(0, set.firstNanos()).truncatedTo(ChronoUnit.MILLIS);
        lines.add(new String[] {"Recorded", start + " for " + Fmt.fixed((set.lastNanos() - set.firstNanos()) / 1e9, 3) + " s"});
        lines.add(new String[] {"Scope", a.scope().description()});
        if (a.summary()) {
            lines.add(new String[] {"Times", "counts and bytes exact; times scaled up from the timed calls "
                    + "(each thread times its first calls of each kind, then one in eight)"});
        }
        lines.add(new String[] {"Directory", set.directory().toString()});
        List<Integer> open = set.peers().stream().filter(p -> !p.jobClosed()).map(PeerProfile::rank).toList();
        if (!open.isEmpty()) {
            lines.add(new String[] {"Not closed", "ranks " + Fmt.ranks(open)
                    + " recorded no end of job (crashed or killed?); their app time is their recording's span"});
        }
        if (!set.missingRanks().isEmpty()) {
            lines.add(new String[] {"Missing", "ranks " + Fmt.ranks(set.missingRanks()) + " (no readable recording)"});
        }
        int w = lines.stream().mapToInt(l -> l[0].length()).max().orElse(0);
        out.append("@ cohort prof: the communication profile of ").append(set.application()).append('\n');
        for (String[] l : lines) {
            out.append("@ ").append(l[0]).append(" ".repeat(w - l[0].length())).append(" : ").append(l[1]).append('\n');
        }
        out.append('\n');
    }

    static void section(StringBuilder out, String title, TextTable table) {
        String head = "@--- " + title + " ";
        out.append(head).append("-".repeat(Math.max(3, RULE_WIDTH - head.length()))).append('\n');
        table.appendTo(out);
        out.append('\n');
    }

    private static void peerTimes(StringBuilder out, ProfileAnalysis a) {
        TextTable t = new TextTable("Rank", "App_s", "Comm_s", "Comm%", "Host<");
        for (ProfileAnalysis.PeerTime p : a.peerTimes()) {
            t.row(Integer.toString(p.rank()), Fmt.seconds(p.appNanos()), Fmt.seconds(p.commNanos()),
                    Fmt.percent(p.commNanos(), p.appNanos()), p.host());
        }
        if (!a.scope().isOneRank()) {
            Scope s = a.scope();
            t.row("*", Fmt.seconds(s.perPeer(a.appNanos())), Fmt.seconds(s.perPeer(a.commNanos())),
                    Fmt.percent(a.commNanos(), a.appNanos()), "");
        }
        section(out, "Time per peer", t);
    }

    private static void callSites(StringBuilder out, ProfileAnalysis a) {
        TextTable t = new TextTable("Operation<", "Count", "Total_ms", "Mean_us", "Comm%", "App%", "Site<");
        Scope s = a.scope();
        for (ProfileAnalysis.SiteRow r : a.callSites().rows()) {
            t.row(r.operation(), Fmt.count(s.perPeer(r.count())), Fmt.millis(s.perPeer(r.nanos())),
                    Fmt.micros((double) r.nanos() / r.count()), Fmt.percent(r.nanos(), a.commNanos()),
                    Fmt.percent(r.nanos(), a.appNanos()), r.site().shortName());
        }
        section(out, "Top call sites by communication time" + a.callSites().shownOf()
                + (a.summary() ? " (estimated from sampled calls)" : ""), t);
    }

    private static void messageSizes(StringBuilder out, ProfileAnalysis a) {
        TextTable t = new TextTable("Operation<", "Count", "Total_bytes", "Min_bytes", "Mean_bytes", "Max_bytes");
        Scope s = a.scope();
        for (SizeHistogram h : a.sizes()) {
            t.row(h.operation(), Fmt.count(s.perPeer(h.count())), Fmt.count(s.perPeer(h.totalBytes())),
                    Long.toString(h.min()), Fmt.fixed(h.mean(), 1), Long.toString(h.max()));
        }
        section(out, "Message sizes (sent messages and collective payloads)", t);
    }

    private static void sizeClasses(StringBuilder out, ProfileAnalysis a) {
        int[] range = a.sizeClassRange();
        List<String> heads = new ArrayList<>();
        heads.add("Operation<");
        for (int k = range[0]; k >= 0 && k <= range[1]; k++) {
            heads.add(SizeHistogram.label(k));
        }
        TextTable t = new TextTable(heads.toArray(String[]::new));
        for (SizeHistogram h : a.sizes()) {
            List<String> cells = new ArrayList<>();
            cells.add(h.operation());
            for (int k = range[0]; k >= 0 && k <= range[1]; k++) {
                cells.add(Fmt.count(a.scope().perPeer(h.inClass(k))));
            }
            t.row(cells.toArray(String[]::new));
        }
        section(out, "Message size classes (messages; column K counts sizes from K up to 2K-1 bytes)", t);
    }

    private static void operations(StringBuilder out, ProfileAnalysis a) {
        TextTable t = new TextTable("Operation<", "Count", "Total_ms", "Mean_us", "Comm%", "App%");
        Scope s = a.scope();
        for (ProfileAnalysis.OperationRow r : a.operations().rows()) {
            t.row(r.operation(), Fmt.count(s.perPeer(r.count())), Fmt.millis(s.perPeer(r.nanos())),
                    Fmt.micros((double) r.nanos() / r.count()), Fmt.percent(r.nanos(), a.commNanos()),
                    Fmt.percent(r.nanos(), a.appNanos()));
        }
        section(out, "Operation counts" + a.operations().shownOf(), t);
    }

    private static void matrix(StringBuilder out, ProfileAnalysis a) {
        CommMatrix m = a.matrix();
        int n = m.size();
        if (a.scope().isOneRank()) {
            int r = a.scope().rank();
            TextTable t = new TextTable("Peer", "Bytes_sent", "Messages_sent", "Bytes_received", "Messages_received");
            for (int p = 0; p < n; p++) {
                if (m.messages(r, p) + m.messages(p, r) > 0) {
                    t.row(Integer.toString(p), Long.toString(m.bytes(r, p)), Long.toString(m.messages(r, p)),
                            Long.toString(m.bytes(p, r)), Long.toString(m.messages(p, r)));
                }
            }
            section(out, "Communication of rank " + r + " with each peer (point-to-point, job totals)", t);
            return;
        }
        if (n <= SQUARE_MATRIX_MAX_RANKS) {
            for (boolean bytes : new boolean[] {true, false}) {
                String[] heads = new String[n + 1];
                heads[0] = "From";
                for (int c = 0; c < n; c++) {
                    heads[c + 1] = Integer.toString(c);
                }
                TextTable t = new TextTable(heads);
                for (int r = 0; r < n; r++) {
                    String[] cells = new String[n + 1];
                    cells[0] = Integer.toString(r);
                    for (int c = 0; c < n; c++) {
                        cells[c + 1] = Long.toString(bytes ? m.bytes(r, c) : m.messages(r, c));
                    }
                    t.row(cells);
                }
                section(out, "Communication matrix (" + (bytes ? "bytes" : "messages")
                        + " sent point-to-point, row: from rank, column: to rank, job totals)", t);
            }
            return;
        }
        TextTable t = new TextTable("From", "To", "Bytes", "Messages");
        for (CommMatrix.Pair p : m.pairs()) {
            if (p.messages() == 0) {
                continue;
            }
            t.row(Integer.toString(p.from()), Integer.toString(p.to()), Long.toString(p.bytes()), Long.toString(p.messages()));
        }
        section(out, "Communication matrix (pairs that exchanged point-to-point messages, job totals)", t);
    }

    private static void methods(StringBuilder out, ProfileAnalysis a) {
        TextTable t = new TextTable("Samples", "Share%", "Method<");
        for (ProfileAnalysis.MethodRow r : a.methods().rows()) {
            t.row(Fmt.count(a.scope().perPeer(r.samples())), Fmt.percent(r.samples(), a.samples()), r.method());
        }
        section(out, "Hottest methods (execution samples by top frame)" + a.methods().shownOf(), t);
    }

    private static void regions(StringBuilder out, ProfileAnalysis a) {
        TextTable t = new TextTable("Count", "Total_ms", "Mean_ms", "App%", "Region<");
        Scope s = a.scope();
        for (ProfileAnalysis.RegionRow r : a.regions().rows()) {
            t.row(Fmt.count(s.perPeer(r.count())), Fmt.millis(s.perPeer(r.nanos())), Fmt.millis((double) r.nanos() / r.count()),
                    Fmt.percent(r.nanos(), a.appNanos()), r.name());
        }
        section(out, "Regions" + a.regions().shownOf(), t);
    }

    private static void protocol(StringBuilder out, ProfileAnalysis a) {
        TextTable t = new TextTable("Transport<", "NACKs", "Retransmissions", "Retransmitted_bytes", "Stalls", "Stall_ms");
        Scope s = a.scope();
        for (ProfileAnalysis.TransportRow r : a.protocol()) {
            ProtocolStats p = r.stats();
            t.row(r.transport(), Fmt.count(s.perPeer(p.nacks())), Fmt.count(s.perPeer(p.retransmissions())),
                    Fmt.count(s.perPeer(p.retransmittedBytes())), Fmt.count(s.perPeer(p.stalls())),
                    Fmt.millis(s.perPeer(p.stallNanos())));
        }
        section(out, "Protocol (per transport)", t);
    }

    /** Only when something was dropped: a job's traffic that was not its own, failed authentication or was malformed. */
    private static void dropped(StringBuilder out, ProfileAnalysis a) {
        if (a.dropped().isEmpty()) {
            return;
        }
        TextTable t = new TextTable("Count", "Unit<", "Dropped<");
        for (ProfileAnalysis.DropRow r : a.dropped()) {
            t.row(Long.toString(r.count()), ProfileAnalysis.dropUnit(r), ProfileAnalysis.dropWhat(r));
        }
        section(out, "Dropped traffic (not this job's, failed authentication or malformed; totals, per rank in brackets)", t);
    }
}
