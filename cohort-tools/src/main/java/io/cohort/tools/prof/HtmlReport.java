package io.cohort.tools.prof;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The HTML report: one self-contained file (inline CSS and SVG, no script, nothing fetched), so it
 * opens from a mail or a CI artefact as it is. It shows the job's facts, each peer's time split into
 * communication and computation, a timeline of every peer's operations with an arrow per message
 * ({@link Timeline}, the picture a trace viewer would give), the communication matrix as two heat maps
 * (bytes and messages), the message sizes, the hottest methods and the text report's tables. Every name from the recordings
 * is escaped, and the page is well-formed XML as well as HTML.
 */
public final class HtmlReport {
    /** What the report says instead of a timeline when every peer's profile is a summary. */
    public static final String SUMMARY_HAS_NO_TIMELINE = "This profile is a summary (totals per operation, peer and call site, "
            + "kept by each peer and written at its exit), which has no timeline; for one, record the job with "
            + "'cohort run --profile --profile-mode=full', which records every call.";

    /** The most events the timeline draws; it says what it left out. */
    public static final int TIMELINE_MAX_EVENTS = Timeline.MAX_EVENTS;

    private HtmlReport() {
    }

    public static String render(ProfileAnalysis a) {
        return render(a, TimelineWindow.WHOLE_JOB);
    }

    /** The report, its timeline drawing {@code window} (at most {@link Timeline#MAX_EVENTS} events of it). */
    public static String render(ProfileAnalysis a, TimelineWindow window) {
        ProfileSet set = a.set();
        Scope scope = a.scope();
        StringBuilder h = new StringBuilder(64 * 1024);
        String title = set.application() + " \u2014 communication profile";
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>")
                .append(Html.escape(title + (set.jobId().isEmpty() ? "" : " (job " + set.jobId() + ")")))
                .append("</title>\n<style>").append(CSS).append("</style>\n</head>\n<body>\n<main>\n");
        header(h, a);
        h.append("<section class=\"card\"><h2>Time per peer</h2><p class=\"note\">Application time of each peer (")
                .append(scope.isOneRank() ? "rank " + scope.rank() : "all ranks")
                .append("), the part spent in sends, receives, probes, waits and collectives first.</p>")
                .append(SvgCharts.peerTimes(a.peerTimes())).append("</section>\n");
        if (scope.peers().stream().allMatch(PeerProfile::isSummary)) {
            h.append("<section class=\"card\" id=\"timeline\"><h2>Timeline</h2><p class=\"note\">")
                    .append(Html.escape(SUMMARY_HAS_NO_TIMELINE)).append("</p></section>\n");
        } else {
            timeline(h, Timeline.of(set, scope, window, Timeline.MAX_EVENTS), window);
        }

        h.append("<section class=\"card\"><h2>Communication matrix</h2><p class=\"note\">Point-to-point traffic of the whole job, "
                + "from the rank of a row to the rank of a column")
                .append(scope.isOneRank() ? "; rank " + scope.rank() + "'s row and column are outlined" : "")
                .append(". Hover over a cell for its figures.</p><div class=\"pair\"><figure><figcaption>Bytes</figcaption>")
                .append(SvgCharts.heatMap(a.matrix(), true, scope.rank(), "scale-bytes"))
                .append("</figure><figure><figcaption>Messages</figcaption>")
                .append(SvgCharts.heatMap(a.matrix(), false, scope.rank(), "scale-messages"))
                .append("</figure></div></section>\n");

        h.append("<div class=\"pair\"><section class=\"card\"><h2>Message sizes</h2><p class=\"note\">Sent messages and collective "
                + "payloads per size class")
                .append(scope.isOneRank() ? "" : ", per peer").append(".</p>")
                .append(SvgCharts.sizeHistogram(a.sizes(), a.sizeClassRange(), scope)).append("</section>\n");
        h.append("<section class=\"card\"><h2>Hottest methods</h2><p class=\"note\">Execution samples by the method on top of the stack")
                .append(a.methods().shownOf()).append(", of ").append(a.samples()).append(" samples.</p>")
                .append(SvgCharts.hotMethods(a.methods().rows(), a.samples())).append("</section></div>\n");

        callSites(h, a);
        h.append("<div class=\"pair\">");
        operations(h, a);
        sizes(h, a);
        h.append("</div>\n<div class=\"pair\">");
        regions(h, a);
        protocol(h, a);
        h.append("</div>\n");
        dropped(h, a);
        h.append("<footer>Made by <code>cohort prof</code> from ").append(set.peers().size()).append(" recordings in <code>")
                .append(Html.escape(set.directory().toString()))
                .append("</code>. Times of peers on different hosts are offset by the skew of their clocks.</footer>\n");
        h.append("</main>\n</body>\n</html>\n");
        return h.toString();
    }

    private static void header(StringBuilder h, ProfileAnalysis a) {
        ProfileSet set = a.set();
        Scope scope = a.scope();
        h.append("<header><div class=\"eyebrow\">cohort prof</div><h1>").append(Html.escape(set.application()))
                .append("</h1><dl class=\"facts\">");
        fact(h, "Job", set.jobId().isEmpty() ? "?" : set.jobId());
        List<Integer> ranks = set.peers().stream().map(PeerProfile::rank).toList();
        fact(h, "Peers", set.peers().size() + " of " + set.jobSize() + " recorded (ranks " + Fmt.ranks(ranks) + ")");
        List<String> hosts = new ArrayList<>();
        for (Map.Entry<String, List<Integer>> e : set.hosts().entrySet()) {
            hosts.add(e.getKey() + " (" + Fmt.ranks(e.getValue()) + ")");
        }
        fact(h, "Hosts", String.join(", ", hosts));
        Instant start = Instant.ofEpochSecond(0, set.firstNanos()).truncatedTo(ChronoUnit.SECONDS);
        fact(h, "Recorded", start.toString().replace('T', ' ').replace("Z", " UTC") + ", "
                + Fmt.duration(set.lastNanos() - set.firstNanos()));
        fact(h, "Scope", scope.description());
        if (!set.missingRanks().isEmpty()) {
            fact(h, "Missing", "ranks " + Fmt.ranks(set.missingRanks()) + " (no readable recording)");
        }
        h.append("</dl><div class=\"tiles\">");
        double app = scope.perPeer(a.appNanos());
        double comm = scope.perPeer(a.commNanos());
        long messages = 0;
        long bytes = 0;
        for (PeerProfile p : scope.peers()) {
            for (CommEvent e : p.comms()) {
                if (e.kind() == CommKind.SEND) {
                    messages++;
                    bytes += Math.max(0, e.bytes());
                }
            }
            for (Totals.CommTotal t : p.totals().comms()) {
                if (t.kind() == CommKind.SEND) {
                    messages += t.count();
                    bytes += Math.max(0, t.bytes());
                }
            }
        }
        String per = scope.isOneRank() ? "" : " per peer";
        tile(h, Fmt.duration(app), "application time" + per, null);
        tile(h, Fmt.duration(comm), "communication" + per, null);
        tile(h, Fmt.fixed(a.appNanos() == 0 ? 0 : 100.0 * a.commNanos() / a.appNanos(), 1) + "%", "of the time communicating",
                SvgCharts.COMM_COLOUR);
        tile(h, Fmt.count(scope.perPeer(messages)), "messages sent" + per, null);
        tile(h, Fmt.bytes(scope.perPeer(bytes)), "sent" + per, null);
        h.append("</div></header>\n");
    }

    private static void timeline(StringBuilder h, Timeline t, TimelineWindow window) {
        h.append("<section class=\"card\" id=\"timeline\"><h2>Timeline</h2><p class=\"note\">Each peer's operations over time, in milliseconds since "
                + "the job's first event by each host's own clock: a lane per Java thread that recorded any, a bar per operation or "
                + "region, and an arrow from each send to the receive that matched it. Hover over a bar for its details.</p>");
        List<String> said = new ArrayList<>();
        String job = (t.scope.isOneRank() ? "rank " + t.scope.rank() + "'s" : "the job's") + " 0\u2013" + Fmt.millisShort(t.jobEnd) + " ms";
        if (t.eventsInWindow == 0) {
            said.add("Nothing was recorded in " + window.describe() + "; " + job + " hold " + t.totalEvents + " events.");
        } else if (t.isCut()) {
            said.add("Drawn: " + Fmt.millisShort(t.from) + "\u2013" + Fmt.millisShort(t.to) + " ms of "
                    + (window.isChosen() ? "the window " + window.describe() + " (" + job + ")" : job) + ", the first "
                    + t.eventsDrawn + " of its " + t.eventsInWindow + " events: a timeline draws at most " + Timeline.MAX_EVENTS
                    + ", so the " + (t.eventsInWindow - t.eventsDrawn) + " later ones are left out.");
            said.add("Show another part with cohort prof DIR --html --timeline-window=FROM:TO (milliseconds).");
        } else if (window.isChosen()) {
            said.add("Drawn: the window " + window.describe() + " of " + job + ", all " + t.eventsDrawn + " of its events ("
                    + t.totalEvents + " in all).");
        }
        if (t.scope.isOneRank()) {
            said.add("Only rank " + t.scope.rank() + " is in scope, so no message has an arrow.");
        } else if (t.endsWithoutArrow > 0) {
            said.add(t.endsWithoutArrow + (t.endsWithoutArrow == 1 ? " send or receive drawn has" : " sends and receives drawn have")
                    + " no arrow: the other end is outside the picture or was not recorded.");
        }
        if (!said.isEmpty()) {
            h.append("<p class=\"note tl-left-out\">").append(Html.escape(String.join(" ", said))).append("</p>");
        }
        h.append(SvgTimeline.draw(t)).append("</section>\n");
    }

    private static void fact(StringBuilder h, String name, String value) {
        h.append("<div><dt>").append(Html.escape(name)).append("</dt><dd>").append(Html.escape(value)).append("</dd></div>");
    }

    private static void tile(StringBuilder h, String value, String label, String colour) {
        h.append("<div class=\"tile\"><div class=\"big\"").append(colour == null ? "" : " style=\"color:" + colour + "\"").append('>')
                .append(Html.escape(value)).append("</div><div class=\"small\">").append(Html.escape(label)).append("</div></div>");
    }

    private static void callSites(StringBuilder h, ProfileAnalysis a) {
        Scope s = a.scope();
        h.append("<section class=\"card\"><h2>Top call sites by communication time").append(Html.escape(a.callSites().shownOf()))
                .append("</h2>");
        Table t = new Table("Operation", "Call site", "Count", "Total", "Mean", "% comm", "% app", "");
        for (ProfileAnalysis.SiteRow r : a.callSites().rows()) {
            double share = a.commNanos() == 0 ? 0 : 100.0 * r.nanos() / a.commNanos();
            t.row(code(r.operation()), "<span title=\"" + Html.escape(r.site().fullName()) + "\">" + code(r.site().shortName()) + "</span>",
                    Html.escape(Fmt.count(s.perPeer(r.count()))), Html.escape(Fmt.duration(s.perPeer(r.nanos()))),
                    Html.escape(Fmt.duration((double) r.nanos() / r.count())), Fmt.fixed(share, 1),
                    Fmt.percent(r.nanos(), a.appNanos()), "<div class=\"bar\"><div style=\"width:" + Fmt.fixed(share, 1) + "%\"></div></div>");
        }
        t.appendTo(h, "No communication recorded.");
        h.append("</section>\n");
    }

    private static void operations(StringBuilder h, ProfileAnalysis a) {
        Scope s = a.scope();
        h.append("<section class=\"card\"><h2>Operations").append(Html.escape(a.operations().shownOf())).append("</h2>");
        Table t = new Table("Operation", "Count", "Total", "Mean", "% comm");
        for (ProfileAnalysis.OperationRow r : a.operations().rows()) {
            t.row(code(r.operation()), Html.escape(Fmt.count(s.perPeer(r.count()))), Html.escape(Fmt.duration(s.perPeer(r.nanos()))),
                    Html.escape(Fmt.duration((double) r.nanos() / r.count())), Fmt.percent(r.nanos(), a.commNanos()));
        }
        t.appendTo(h, "No communication recorded.");
        h.append("</section>");
    }

    private static void sizes(StringBuilder h, ProfileAnalysis a) {
        Scope s = a.scope();
        h.append("<section class=\"card\"><h2>Message sizes</h2>");
        Table t = new Table("Operation", "Count", "Total", "Min", "Mean", "Max");
        for (SizeHistogram m : a.sizes()) {
            t.row(code(m.operation()), Html.escape(Fmt.count(s.perPeer(m.count()))), Html.escape(Fmt.bytes(s.perPeer(m.totalBytes()))),
                    Html.escape(Fmt.bytes(m.min())), Html.escape(Fmt.bytes(m.mean())), Html.escape(Fmt.bytes(m.max())));
        }
        t.appendTo(h, "No messages recorded.");
        h.append("</section>");
    }

    private static void regions(StringBuilder h, ProfileAnalysis a) {
        Scope s = a.scope();
        h.append("<section class=\"card\"><h2>Regions").append(Html.escape(a.regions().shownOf())).append("</h2>");
        Table t = new Table("Region", "Count", "Total", "Mean", "% app");
        for (ProfileAnalysis.RegionRow r : a.regions().rows()) {
            t.row(Html.escape(r.name()), Html.escape(Fmt.count(s.perPeer(r.count()))), Html.escape(Fmt.duration(s.perPeer(r.nanos()))),
                    Html.escape(Fmt.duration((double) r.nanos() / r.count())), Fmt.percent(r.nanos(), a.appNanos()));
        }
        t.appendTo(h, "No regions recorded.");
        h.append("</section>");
    }

    private static void protocol(StringBuilder h, ProfileAnalysis a) {
        Scope s = a.scope();
        h.append("<section class=\"card\"><h2>Protocol</h2>");
        Table t = new Table("Transport", "NACKs", "Retransmissions", "Retransmitted", "Stalls", "Stalled");
        for (ProfileAnalysis.TransportRow r : a.protocol()) {
            ProtocolStats p = r.stats();
            t.row(code(r.transport()), Html.escape(Fmt.count(s.perPeer(p.nacks()))), Html.escape(Fmt.count(s.perPeer(p.retransmissions()))),
                    Html.escape(Fmt.bytes(s.perPeer(p.retransmittedBytes()))), Html.escape(Fmt.count(s.perPeer(p.stalls()))),
                    Html.escape(Fmt.duration(s.perPeer(p.stallNanos()))));
        }
        t.appendTo(h, "No NACKs, retransmissions or flow-control stalls recorded.");
        h.append("</section>");
    }

    /** Only when something was dropped: the transports' drops, as each peer's --verbose line counts them. */
    private static void dropped(StringBuilder h, ProfileAnalysis a) {
        if (a.dropped().isEmpty()) {
            return;
        }
        h.append("<section class=\"card\" id=\"dropped\"><h2>Dropped traffic</h2><p class=\"note\">What the transports dropped "
                + "as not this job's, failing authentication or malformed (totals over the ")
                .append(a.scope().isOneRank() ? "rank" : "peers").append(", as <code>cohort run --verbose</code> prints them per peer)."
                + " Such traffic is never delivered.</p>");
        Table t = new Table("Transport", "Reason", "Dropped", "Per rank");
        for (ProfileAnalysis.DropRow r : a.dropped()) {
            List<String> perRank = new ArrayList<>();
            r.perRank().forEach((rank, n) -> perRank.add("rank " + rank + ": " + n));
            t.row(code(r.transport()), Html.escape(r.reason()), Html.escape(r.count() + " " + ProfileAnalysis.dropUnit(r)),
                    Html.escape(String.join(", ", perRank)));
        }
        t.appendTo(h, "Nothing dropped.");
        h.append("</section>\n");
    }

    private static String code(String s) {
        return "<code>" + Html.escape(s) + "</code>";
    }

    /** An HTML table whose cells are already escaped markup; the first column is text, the rest numbers. */
    private static final class Table {
        private final String[] heads;
        private final List<String[]> rows = new ArrayList<>();

        Table(String... heads) {
            this.heads = heads;
        }

        void row(String... cells) {
            rows.add(cells);
        }

        void appendTo(StringBuilder h, String empty) {
            if (rows.isEmpty()) {
                h.append("<p class=\"empty\">").append(Html.escape(empty)).append("</p>");
                return;
            }
            h.append("<table><thead><tr>");
            for (int i = 0; i < heads.length; i++) {
                h.append(text(i) ? "<th>" : "<th class=\"num\">").append(Html.escape(heads[i])).append("</th>");
            }
            h.append("</tr></thead><tbody>");
            for (String[] r : rows) {
                h.append("<tr>");
                for (int i = 0; i < r.length; i++) {
                    h.append(text(i) ? "<td>" : "<td class=\"num\">").append(r[i]).append("</td>");
                }
                h.append("</tr>");
            }
            h.append("</tbody></table>");
        }

        /** Whether column {@code i} holds text (left-aligned), not a number. */
        private boolean text(int i) {
            return i == 0 || heads[i].equals("Call site") || heads[i].equals("Reason") || heads[i].equals("Per rank");
        }
    }

    /** No '<' or '&' in here: the page must stay well-formed XML. */
    private static final String CSS = """
            :root { --ink: #1f2430; --muted: #6b7280; --line: #e5e7eb; --bg: #f6f7f9; --card: #ffffff; --accent: #e4572e; }
            * { box-sizing: border-box; }
            body { margin: 0; background: var(--bg); color: var(--ink);
                   font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
            main { max-width: 1240px; margin: 0 auto; padding: 28px 28px 40px; }
            header { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 22px 26px; margin-bottom: 18px; }
            .eyebrow { text-transform: uppercase; letter-spacing: .08em; font-size: 11px; color: var(--accent); font-weight: 700; }
            h1 { margin: 2px 0 10px; font-size: 28px; letter-spacing: -.01em; }
            h2 { margin: 0 0 6px; font-size: 16px; }
            dl.facts { display: flex; flex-wrap: wrap; gap: 6px 28px; margin: 0 0 16px; }
            dl.facts div { display: flex; gap: 8px; }
            dt { color: var(--muted); }
            dd { margin: 0; font-weight: 500; }
            .tiles { display: grid; grid-template-columns: repeat(5, minmax(0, 1fr)); gap: 12px; }
            .tile { background: var(--bg); border-radius: 10px; padding: 12px 14px; }
            .tile .big { font-size: 22px; font-weight: 700; font-variant-numeric: tabular-nums; }
            .tile .small { color: var(--muted); font-size: 12px; }
            .card { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 18px 22px; margin-bottom: 18px;
                    overflow-x: auto; }
            .pair { display: flex; flex-wrap: wrap; gap: 18px; align-items: flex-start; }
            .pair > .card { flex: 1 1 520px; min-width: 0; }
            figure { margin: 0; }
            figcaption { font-weight: 600; color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .06em; }
            .note { color: var(--muted); margin: 0 0 12px; font-size: 13px; }
            svg { display: block; max-width: 100%; height: auto; }
            svg text { font-family: inherit; }
            .axis { fill: var(--muted); font-size: 11px; font-variant-numeric: tabular-nums; }
            .axis-title { fill: var(--muted); font-size: 11px; font-weight: 600; }
            .label { fill: var(--ink); font-size: 12px; }
            .muted { fill: var(--muted); font-size: 11px; }
            .value { fill: var(--ink); font-size: 11px; font-variant-numeric: tabular-nums; }
            .legend { fill: var(--ink); font-size: 12px; }
            .grid { stroke: #eceef1; stroke-width: 1; }
            .baseline { stroke: #9ca3af; stroke-width: 1; }
            .cell-light { fill: #ffffff; font-size: 10px; font-weight: 600; }
            .cell-dark { fill: #1f2430; font-size: 10px; font-weight: 600; }
            .highlight { fill: none; stroke: #111827; stroke-width: 2; }
            table { border-collapse: collapse; width: 100%; font-size: 13px; }
            th { text-align: left; color: var(--muted); font-weight: 600; font-size: 12px; border-bottom: 1px solid var(--line); padding: 6px 8px; }
            td { border-bottom: 1px solid #f0f1f3; padding: 5px 8px; vertical-align: middle; }
            .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
            code { font: 12px/1.3 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
            .bar { width: 110px; height: 8px; background: #f1f2f4; border-radius: 4px; overflow: hidden; }
            .bar div { height: 100%; background: var(--accent); }
            .empty { color: var(--muted); font-style: italic; }
            .tl-left-out { color: var(--ink); }
            .tl-lane { fill: #ffffff; }
            .tl-lane.tl-odd { fill: #f7f8fa; }
            .tl-peer { stroke: #d9dce1; stroke-width: 1; }
            .tl-send { fill: #f28e2b; }
            .tl-receive { fill: #4e79a7; }
            .tl-probe { fill: #b07aa1; }
            .tl-wait { fill: #e15759; }
            .tl-collective { fill: #59a14f; }
            .tl-region { stroke: #ffffff; stroke-width: .5; }
            .tl-r0 { fill: #c6d4e6; }
            .tl-r1 { fill: #efd9bd; }
            .tl-r2 { fill: #cfe3c8; }
            .tl-r3 { fill: #e2d3e8; }
            .tl-r4 { fill: #d9e8e7; }
            .tl-rx { fill: #e3e5e8; }
            .tl-name { fill: #374151; font-size: 9px; pointer-events: none; }
            .tl-msg { stroke: #1f2430; stroke-width: .7; stroke-opacity: .4; }
            .tl-head { fill: #1f2430; fill-opacity: .55; }
            footer { color: var(--muted); font-size: 12px; margin-top: 8px; }
            """;
}
