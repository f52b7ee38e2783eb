package io.cohort.tools.prof;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.cohort.tools.prof.SvgCharts.f;
import static io.cohort.tools.prof.SvgCharts.line;
import static io.cohort.tools.prof.SvgCharts.text;

/**
 * A {@link Timeline} as inline SVG, the picture a trace viewer would give without one: time from left
 * to right (milliseconds since the job's first event), a lane per peer and thread, a bar per event
 * coloured by its kind, and an arrow from each send to its receive. Every bar's tooltip
 * ({@code <title>}) names the operation, the peers, tag, bytes, duration and call site.
 *
 * <p>A bar is at least one pixel wide, so a microsecond's send in a second's picture still shows.
 * Colours come from the page's CSS ({@code tl-send}, {@code tl-receive}...), which keeps each bar short.
 */
final class SvgTimeline {
    static final int WIDTH = 1140;
    static final int LEFT = 176;
    private static final int RIGHT = 14;
    static final int PLOT_W = WIDTH - LEFT - RIGHT;
    /** Top of the lanes, below the legend's one or two lines and the axis labels. */
    private static final int TOP = 50;
    private static final int TOP_WITH_REGIONS = 66;
    /** Above this many rows the lanes shrink so that the picture stays about this tall. */
    private static final int TALL = 1100;
    private static final int LINE_H = 13;

    /** CSS classes of the bars, by kind; the page's CSS gives their colours. */
    private static final Map<CommKind, String> CLASSES = Map.of(CommKind.SEND, "tl-send", CommKind.RECEIVE, "tl-receive",
            CommKind.PROBE, "tl-probe", CommKind.WAIT, "tl-wait", CommKind.COLLECTIVE, "tl-collective");
    private static final String REGION_CLASS = "tl-region";
    /** Regions with a colour of their own, the ones longest in the picture first; the rest share {@code tl-rx}. */
    static final int REGION_COLOURS = 5;
    private static final String OTHER_REGIONS = "tl-region tl-rx";
    /** Fields a tooltip shows in its own words, not again among the event's other fields. */
    private static final List<String> SHOWN_ELSEWHERE = List.of(ProfileEvents.PEER, ProfileEvents.TAG, ProfileEvents.BYTES,
            ProfileEvents.OPERATION);

    private SvgTimeline() {
    }

    static String draw(Timeline t) {
        Map<String, String> regionClasses = regionClasses(t);
        Geometry g = new Geometry(t, regionClasses.isEmpty() ? TOP : TOP_WITH_REGIONS);
        StringBuilder s = SvgCharts.open(WIDTH, g.height, "Timeline: each peer's operations over time, with an arrow per message");
        s.append("<defs><marker id=\"tl-head\" viewBox=\"0 0 6 6\" refX=\"6\" refY=\"3\" markerWidth=\"5\" markerHeight=\"5\" "
                + "markerUnits=\"userSpaceOnUse\" orient=\"auto\"><path class=\"tl-head\" d=\"M0,0L6,3L0,6z\"/></marker></defs>");
        legend(s, regionClasses);
        lanes(s, t, g);
        axis(s, t, g);
        for (Timeline.Lane lane : t.lanes) {
            for (Timeline.Item it : lane.items) {
                bar(s, t, g, it, regionClasses);
            }
        }
        for (Timeline.Arrow a : t.arrows) {
            arrow(s, t, g, a);
        }
        return SvgCharts.close(s);
    }

    /** Where lanes and rows are: computed once, so bars and arrows agree. */
    private static final class Geometry {
        final Map<Timeline.Lane, Double> laneTop = new HashMap<>();
        final Map<Timeline.Lane, Double> laneHeight = new HashMap<>();
        final Map<Integer, Integer> lanesOfPeer = new HashMap<>();
        final double top;
        final double pitch;
        final double barH;
        final double pad;
        final boolean compact;
        final int height;
        final double bottom;
        final double scale;

        Geometry(Timeline t, double top) {
            this.top = top;
            int rows = 0;
            for (Timeline.Lane lane : t.lanes) {
                rows += lane.rows();
                lanesOfPeer.merge(lane.peer.rank(), 1, Integer::sum);
            }
            compact = rows * 14 + t.lanes.size() * 8 > TALL;
            pitch = compact ? Math.max(2, Math.min(13, (double) TALL / Math.max(1, rows))) : 14;
            barH = compact ? Math.max(1.5, pitch - 1) : 11;
            pad = compact ? 0.5 : 4;
            double y = top;
            for (Timeline.Lane lane : t.lanes) {
                int lines = compact ? 0 : (lane.firstOfPeer ? 1 : 0) + (threadLabel(lane) ? 1 : 0);
                double h = 2 * pad + Math.max(lane.rows() * pitch, lines * LINE_H);
                laneTop.put(lane, y);
                laneHeight.put(lane, h);
                y += h;
            }
            bottom = y;
            height = (int) Math.ceil(y + (y - top > 320 ? 30 : 12));
            scale = (double) PLOT_W / Math.max(1, t.to - t.from);
        }

        boolean threadLabel(Timeline.Lane lane) {
            return !compact && lane.threadId >= 0 && lanesOfPeer.get(lane.peer.rank()) > 1;
        }

        /** Top of a row's bar. */
        double rowY(Timeline.Lane lane, int row) {
            return laneTop.get(lane) + pad + row * pitch + (pitch - barH) / 2;
        }
    }

    /**
     * The first line: the kinds of operations and the message arrow; the second: the regions in the
     * picture by colour (names cut short; every bar's tooltip has the whole name).
     */
    private static void legend(StringBuilder s, Map<String, String> regionClasses) {
        String[][] keys = {{"tl-send", "send"}, {"tl-receive", "receive"}, {"tl-probe", "probe"}, {"tl-wait", "wait"},
                {"tl-collective", "collective"}};
        double x = LEFT;
        for (String[] k : keys) {
            x = swatch(s, x, 15, k[0], k[1]);
        }
        s.append("<line class=\"tl-msg\" x1=\"").append(f(x)).append("\" y1=\"11\" x2=\"").append(f(x + 26))
                .append("\" y2=\"11\" marker-end=\"url(#tl-head)\"/>");
        s.append(text(x + 32, 15, "message, from its send to the receive that matched it", "legend", "start"));
        if (regionClasses.isEmpty()) {
            return;
        }
        s.append(text(LEFT - 8, 35, "regions", "axis-title", "end"));
        x = LEFT;
        boolean others = false;
        for (Map.Entry<String, String> e : regionClasses.entrySet()) {
            if (e.getValue().equals(OTHER_REGIONS)) {
                others = true;
            } else if (x < WIDTH - 160) {
                x = swatch(s, x, 35, e.getValue(), cut(e.getKey(), 18));
            }
        }
        if (others) {
            swatch(s, x, 35, OTHER_REGIONS, "other regions");
        }
    }

    private static double swatch(StringBuilder s, double x, double baseline, String cls, String name) {
        s.append("<rect class=\"").append(cls).append("\" x=\"").append(f(x)).append("\" y=\"").append(f(baseline - 10))
                .append("\" width=\"12\" height=\"12\" rx=\"2\"/>");
        s.append(text(x + 17, baseline, name, "legend", "start"));
        return x + 17 + 7 * name.length() + 18;
    }

    /** Region name to its CSS classes: a colour each for the longest {@link #REGION_COLOURS} in the picture. */
    static Map<String, String> regionClasses(Timeline t) {
        Map<String, Long> time = new HashMap<>();
        for (Timeline.Lane lane : t.lanes) {
            for (Timeline.Item it : lane.items) {
                if (it.region() != null) {
                    time.merge(it.region().name(), Math.min(it.end(), t.to) - Math.max(it.start(), t.from), Long::sum);
                }
            }
        }
        List<String> names = new ArrayList<>(time.keySet());
        names.sort(java.util.Comparator.comparing((String n) -> -time.get(n)).thenComparing(n -> n));
        Map<String, String> classes = new java.util.LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            classes.put(names.get(i), i < REGION_COLOURS ? REGION_CLASS + " tl-r" + i : OTHER_REGIONS);
        }
        return classes;
    }

    private static void lanes(StringBuilder s, Timeline t, Geometry g) {
        int peerIndex = -1;
        int labelEvery = g.compact ? (int) Math.ceil(12 / Math.max(1, g.pitch)) : 1;
        for (Timeline.Lane lane : t.lanes) {
            if (lane.firstOfPeer) {
                peerIndex++;
            }
            double y = g.laneTop.get(lane);
            double h = g.laneHeight.get(lane);
            String host = lane.peer.host().isEmpty() ? "?" : lane.peer.host();
            String name = "rank " + lane.peer.rank() + " (" + host + ")"
                    + (lane.threadId >= 0 ? ", thread " + lane.threadName : ": nothing recorded in this part of the job");
            s.append("<rect class=\"tl-lane").append(peerIndex % 2 == 1 ? " tl-odd" : "").append("\" x=\"0\" y=\"").append(f(y))
                    .append("\" width=\"").append(WIDTH).append("\" height=\"").append(f(h)).append("\"><title>")
                    .append(Html.escape(name)).append("</title></rect>");
            if (lane.firstOfPeer && peerIndex > 0) {
                s.append(line(0, y, WIDTH, y, "tl-peer"));
            }
            if (g.compact) {
                if (lane.firstOfPeer && peerIndex % labelEvery == 0) {
                    s.append(text(LEFT - 8, y + Math.min(h, 12) - 1, Integer.toString(lane.peer.rank()), "axis", "end"));
                }
                continue;
            }
            double base = y + g.pad + 10;
            if (lane.firstOfPeer) {
                String rank = "rank " + lane.peer.rank();
                s.append(text(10, base, rank, "label", "start"));
                s.append(text(10 + 7.2 * rank.length() + 6, base, cut(host, 14), "muted", "start"));
                base += LINE_H;
            }
            if (g.threadLabel(lane)) {
                s.append(text(18, base, cut(lane.threadName, 22), "muted", "start"));
            }
        }
    }

    private static void axis(StringBuilder s, Timeline t, Geometry g) {
        double spanMs = (t.to - t.from) / 1e6;
        double step = SvgCharts.Axis.niceStep(Math.max(spanMs, 1e-6), 10);
        int decimals = step >= 1 ? 0 : Math.min(6, (int) Math.ceil(-Math.log10(step) - 1e-9));
        boolean below = g.bottom - g.top > 320;
        s.append(text(LEFT - 8, g.top - 8, "ms since start", "axis-title", "end"));
        long first = (long) Math.ceil(t.from / 1e6 / step - 1e-9);
        for (long i = first; i * step <= t.to / 1e6 + 1e-9; i++) {
            double ms = i * step;
            double x = LEFT + (ms * 1e6 - t.from) * g.scale;
            s.append(line(x, g.top - 4, x, g.bottom, "grid"));
            String label = Fmt.fixed(ms, decimals);
            // Labels at the plot's edges stay inside it, clear of the axis title.
            String anchor = x - LEFT < 14 ? "start" : LEFT + PLOT_W - x < 14 ? "end" : "middle";
            s.append(text(x, g.top - 8, label, "axis", anchor));
            if (below) {
                s.append(text(x, g.bottom + 16, label, "axis", anchor));
            }
        }
        s.append(line(LEFT, g.top, LEFT, g.bottom, "baseline"));
    }

    private static void bar(StringBuilder s, Timeline t, Geometry g, Timeline.Item it, Map<String, String> regionClasses) {
        double x1 = LEFT + (Math.max(it.start(), t.from) - t.from) * g.scale;
        double x2 = LEFT + (Math.min(it.end(), t.to) - t.from) * g.scale;
        double w = Math.max(1, x2 - x1);
        double y = g.rowY(it.lane(), it.row());
        String cls = it.comm() != null ? CLASSES.get(it.comm().kind()) : regionClasses.get(it.region().name());
        s.append("<rect class=\"").append(cls).append("\" x=\"").append(f(x1)).append("\" y=\"").append(f(y)).append("\" width=\"")
                .append(f(w)).append("\" height=\"").append(f(g.barH)).append("\"><title>").append(Html.escape(tooltip(it)))
                .append("</title></rect>");
        if (it.region() != null && !g.compact && w >= 30) {
            String name = cut(it.region().name(), (int) ((w - 6) / 5.6));
            if (!name.isEmpty()) {
                s.append(text(x1 + 3, y + g.barH - 2.5, name, "tl-name", "start"));
            }
        }
    }

    /**
     * From the start of the send to the end of the receive: the message left no earlier than the one and
     * had arrived by the other, so on one clock the arrow never points back in time (from middle to
     * middle, a long blocking receive would have its arrow point back to before its send).
     */
    private static void arrow(StringBuilder s, Timeline t, Geometry g, Timeline.Arrow a) {
        double x1 = LEFT + (clamp(a.send().start(), t) - t.from) * g.scale;
        double x2 = LEFT + (clamp(a.receive().end(), t) - t.from) * g.scale;
        double sendTop = g.rowY(a.send().lane(), a.send().row());
        double recvTop = g.rowY(a.receive().lane(), a.receive().row());
        boolean down = recvTop > sendTop;
        double y1 = down ? sendTop + g.barH : sendTop;
        double y2 = down ? recvTop : recvTop + g.barH;
        if (recvTop == sendTop) {
            y1 = sendTop + g.barH;
            y2 = y1;
        }
        CommEvent send = a.send().comm();
        String tip = "message rank " + a.send().lane().peer.rank() + " \u2192 rank " + a.receive().lane().peer.rank()
                + (send.tag() >= 0 ? ", tag " + send.tag() : "") + (send.bytes() >= 0 ? ", " + Fmt.bytes(send.bytes()) : "");
        s.append("<line class=\"tl-msg\" x1=\"").append(f(x1)).append("\" y1=\"").append(f(y1)).append("\" x2=\"").append(f(x2))
                .append("\" y2=\"").append(f(y2)).append("\" marker-end=\"url(#tl-head)\"><title>").append(Html.escape(tip))
                .append("</title></line>");
    }

    private static long clamp(long nanos, Timeline t) {
        return Math.max(t.from, Math.min(t.to, nanos));
    }

    /** What a bar's tooltip says: operation and peers, its fields, when and how long, where in the program. */
    static String tooltip(Timeline.Item it) {
        PeerProfile p = it.lane().peer;
        String who = "rank " + p.rank() + " (" + (p.host().isEmpty() ? "?" : p.host()) + "), thread " + it.lane().threadName;
        String when = Fmt.duration(it.end() - it.start()) + ", " + Fmt.millisShort(it.start()) + "\u2013"
                + Fmt.millisShort(it.end()) + " ms";
        if (it.region() != null) {
            return "region " + it.region().name() + "\n" + who + "\n" + when;
        }
        CommEvent e = it.comm();
        String head = switch (e.kind()) {
            case SEND -> e.operation() + " \u2192 rank " + e.peer();
            case RECEIVE -> e.operation() + " \u2190 " + (e.peer() >= 0 ? "rank " + e.peer() : "any rank");
            case PROBE -> e.operation() + " " + (e.peer() >= 0 ? "rank " + e.peer() : "any rank");
            default -> e.operation();
        };
        List<String> fields = new ArrayList<>();
        if (e.tag() >= 0) {
            fields.add("tag " + e.tag());
        }
        if (e.bytes() >= 0) {
            fields.add(Fmt.bytes(e.bytes()));
        }
        e.args().forEach((k, v) -> {
            if (!SHOWN_ELSEWHERE.contains(k)) {
                fields.add(k + " " + v);
            }
        });
        return head + "\n" + who + (fields.isEmpty() ? "" : "\n" + String.join(", ", fields)) + "\n" + when
                + (e.callSite() == CallSite.UNKNOWN ? "" : "\n" + e.callSite().fullName());
    }

    /** {@code s} cut to {@code max} characters with an ellipsis; empty when not even one fits. */
    static String cut(String s, int max) {
        if (s.length() <= max) {
            return s;
        }
        return max < 2 ? "" : s.substring(0, max - 1) + "\u2026";
    }
}
