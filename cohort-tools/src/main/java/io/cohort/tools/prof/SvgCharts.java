package io.cohort.tools.prof;

import java.util.List;
import java.util.Locale;

/**
 * The HTML report's plots, drawn as inline SVG (no script, no fonts or files to fetch): stacked bars of
 * each peer's time, a heat map of the communication matrix, a histogram of message sizes and
 * horizontal bars of the hottest methods. Sizes are in CSS pixels; styles come from the page's CSS
 * classes ({@code axis}, {@code grid}, {@code label}...), so the charts follow the page's font.
 */
final class SvgCharts {
    static final String COMM_COLOUR = "#e4572e";
    static final String COMPUTE_COLOUR = "#4c78a8";
    static final String EMPTY_CELL = "#eef0f3";
    /** Categorical colours for operations (a common ten-colour palette). */
    static final String[] SERIES = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
            "#ff9da7", "#9c755f", "#bab0ac"};
    /**
     * Stops of a light-to-dark orange-red scale for the heat map: more traffic reads as more ink on the
     * white page, and the hue is the report's colour for communication.
     */
    private static final int[][] HEAT = {{0xfd, 0xd4, 0x9e}, {0xfd, 0xbb, 0x84}, {0xfc, 0x8d, 0x59}, {0xe3, 0x4a, 0x33},
            {0xb3, 0x00, 0x00}};

    private SvgCharts() {
    }

    // ---------------------------------------------------------------- time per peer

    static String peerTimes(List<ProfileAnalysis.PeerTime> peers) {
        int n = Math.max(1, peers.size());
        int barH = n <= 16 ? 22 : Math.max(3, Math.min(22, 480 / n));
        int gap = Math.max(1, barH * 2 / 5);
        int left = barH >= 12 ? 132 : 60;
        int right = 96;
        int width = 1140;
        int plotW = width - left - right;
        int top = 34;
        int plotH = n * (barH + gap);
        int height = top + plotH + 34;
        double max = peers.stream().mapToLong(ProfileAnalysis.PeerTime::appNanos).max().orElse(1);
        Axis axis = Axis.time(max);
        StringBuilder s = open(width, height, "Application time of each peer, split into communication and computation");
        legend(s, left, 14, new String[] {"communication", "computation (rest of the application time)"},
                new String[] {COMM_COLOUR, COMPUTE_COLOUR});
        for (double t = 0; t <= axis.max + 1e-9; t += axis.step) {
            double x = left + plotW * t / axis.max;
            s.append(line(x, top - 4, x, top + plotH, "grid"));
            s.append(text(x, top + plotH + 16, axis.label(t), "axis", "middle"));
        }
        s.append(text(left + plotW / 2.0, top + plotH + 31, "seconds", "axis-title", "middle"));
        int labelEvery = barH >= 10 ? 1 : (int) Math.ceil(12.0 / (barH + gap));
        for (int i = 0; i < peers.size(); i++) {
            ProfileAnalysis.PeerTime p = peers.get(i);
            double y = top + i * (barH + gap) + gap / 2.0;
            double comm = Math.min(p.commNanos(), p.appNanos());
            double wComm = plotW * comm / axis.max;
            double wRest = plotW * (p.appNanos() - comm) / axis.max;
            String pct = Fmt.fixed(p.appNanos() == 0 ? 0 : 100.0 * comm / p.appNanos(), 1) + "% comm";
            String tip = "rank " + p.rank() + " on " + p.host() + ": application " + Fmt.duration(p.appNanos())
                    + ", communication " + Fmt.duration(p.commNanos()) + " (" + pct + ")";
            s.append("<g><title>").append(Html.escape(tip)).append("</title>");
            s.append(rect(left, y, wComm, barH, COMM_COLOUR, null));
            s.append(rect(left + wComm, y, wRest, barH, COMPUTE_COLOUR, null));
            s.append("</g>");
            if (i % labelEvery == 0) {
                double ty = y + barH / 2.0 + 4;
                String label = barH >= 12 ? "rank " + p.rank() : Integer.toString(p.rank());
                s.append(text(left - 8, ty, label, "label", "end"));
                if (barH >= 12 && !p.host().isEmpty()) {
                    s.append(text(left - 8 - 7.2 * label.length() - 6, ty, p.host(), "muted", "end"));
                }
                s.append(text(left + wComm + wRest + 6, ty, pct, "value", "start"));
            }
        }
        return close(s);
    }

    // ---------------------------------------------------------------- communication matrix

    /** The most rows and columns a heat map draws; beyond it, each cell holds a block of ranks. */
    static final int HEAT_MAP_MAX_CELLS = 128;

    static String heatMap(CommMatrix m, boolean bytes, int highlightRank, String gradientId) {
        // Ranks per cell: 1 up to HEAT_MAP_MAX_CELLS ranks, then blocks, so the picture stays at most
        // 128 x 128 cells (a job of 65536 ranks would otherwise be 4 billion rectangles).
        int block = Math.max(1, (m.size() + HEAT_MAP_MAX_CELLS - 1) / HEAT_MAP_MAX_CELLS);
        int n = Math.max(1, (m.size() + block - 1) / block);
        long[][] value = new long[n][n];
        long[][] otherValue = new long[n][n];
        for (CommMatrix.Pair p : m.pairs()) {
            value[p.from() / block][p.to() / block] += bytes ? p.bytes() : p.messages();
            otherValue[p.from() / block][p.to() / block] += bytes ? p.messages() : p.bytes();
        }
        int cell = Math.max(3, Math.min(72, 400 / n));
        int left = 58;
        int top = 46;
        int plot = n * cell;
        int lw = Math.max(120, Math.min(220, plot));
        int width = Math.max(left + plot + 24, left + lw + 150);
        int height = top + plot + 62;
        long max = 0;
        long minNonZero = Long.MAX_VALUE;
        for (long[] row : value) {
            for (long v : row) {
                max = Math.max(max, v);
                if (v > 0) {
                    minNonZero = Math.min(minNonZero, v);
                }
            }
        }
        boolean log = max > 0 && max / (double) minNonZero >= 100;
        String what = bytes ? "bytes" : "messages";
        StringBuilder s = open(width, height, "Point-to-point " + what + " sent from each rank (row) to each rank (column)"
                + (block > 1 ? ", " + block + " ranks to a cell" : ""));
        s.append(text(left + plot / 2.0, 14, block > 1 ? "to ranks (" + block + " a cell)" : "to rank", "axis-title", "middle"));
        s.append("<text class=\"axis-title\" text-anchor=\"middle\" transform=\"translate(14,").append(f(top + plot / 2.0))
                .append(") rotate(-90)\">from rank").append(block > 1 ? "s" : "").append("</text>");
        int every = (int) Math.ceil(14.0 / cell);
        for (int i = 0; i < n; i += every) {
            s.append(text(left + i * cell + cell / 2.0, top - 8, Integer.toString(i * block), "axis", "middle"));
            s.append(text(left - 6, top + i * cell + cell / 2.0 + 4, Integer.toString(i * block), "axis", "end"));
        }
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) {
                long v = value[r][c];
                long other = otherValue[r][c];
                double t = v == 0 ? -1 : scale(v, minNonZero, max, log);
                String colour = v == 0 ? EMPTY_CELL : heat(t);
                double x = left + c * cell;
                double y = top + r * cell;
                String tip = ranks(r, block, m.size()) + " \u2192 " + ranks(c, block, m.size()) + ": "
                        + (bytes ? Fmt.bytes(v) + " in " + other + " messages" : v + " messages, " + Fmt.bytes(other));
                s.append("<rect x=\"").append(f(x)).append("\" y=\"").append(f(y)).append("\" width=\"").append(cell)
                        .append("\" height=\"").append(cell).append("\" fill=\"").append(colour)
                        .append("\" stroke=\"#ffffff\" stroke-width=\"").append(cell >= 8 ? "1" : "0")
                        .append("\"><title>").append(Html.escape(tip)).append("</title></rect>");
                if (cell >= 30 && v > 0) {
                    String label = bytes ? shortBytes(v) : shortCount(v);
                    s.append(text(x + cell / 2.0, y + cell / 2.0 + 4, label, t > 0.5 ? "cell-light" : "cell-dark", "middle"));
                }
            }
        }
        highlightRank = highlightRank >= 0 && highlightRank < m.size() ? highlightRank / block : -1;
        if (highlightRank >= 0) {
            s.append("<rect class=\"highlight\" x=\"").append(left).append("\" y=\"").append(top + highlightRank * cell)
                    .append("\" width=\"").append(plot).append("\" height=\"").append(cell).append("\"/>");
            s.append("<rect class=\"highlight\" x=\"").append(left + highlightRank * cell).append("\" y=\"").append(top)
                    .append("\" width=\"").append(cell).append("\" height=\"").append(plot).append("\"/>");
        }
        // The colour scale: a gradient bar with its two ends labelled.
        int ly = top + plot + 22;
        s.append("<defs><linearGradient id=\"").append(gradientId).append("\">");
        for (int i = 0; i < HEAT.length; i++) {
            double off = (double) i / (HEAT.length - 1);
            s.append("<stop offset=\"").append(f(off)).append("\" stop-color=\"").append(heat(off)).append("\"/>");
        }
        s.append("</linearGradient></defs>");
        s.append("<rect x=\"").append(left).append("\" y=\"").append(ly).append("\" width=\"").append(lw)
                .append("\" height=\"10\" rx=\"2\" fill=\"url(#").append(gradientId).append(")\"/>");
        String lo = max == 0 ? "0" : bytes ? Fmt.bytes(minNonZero) : Long.toString(minNonZero);
        String hi = bytes ? Fmt.bytes(max) : Long.toString(max);
        s.append(text(left, ly + 24, lo, "axis", "start"));
        s.append(text(left + lw, ly + 24, hi, "axis", "end"));
        s.append(text(left + lw + 10, ly + 9, (log ? "log scale" : "linear scale") + "; grey: none", "muted", "start"));
        return close(s);
    }

    /** "5" for one rank to a cell, "ranks 512-1023" for a block. */
    private static String ranks(int cellIndex, int block, int size) {
        if (block == 1) {
            return Integer.toString(cellIndex);
        }
        int first = cellIndex * block;
        return "ranks " + first + "\u2013" + Math.min(size - 1, first + block - 1);
    }

    /** Position of v on the colour scale, 0.08..1 (the smallest non-zero value stays visible against empty cells). */
    private static double scale(long v, long min, long max, boolean log) {
        if (max <= min) {
            return 1;
        }
        double t = log ? Math.log((double) v / min) / Math.log((double) max / min) : (double) (v - min) / (max - min);
        return 0.08 + 0.92 * t;
    }

    static String heat(double t) {
        t = Math.max(0, Math.min(1, t));
        double pos = t * (HEAT.length - 1);
        int i = Math.min(HEAT.length - 2, (int) pos);
        double u = pos - i;
        int[] a = HEAT[i];
        int[] b = HEAT[i + 1];
        return String.format(Locale.ROOT, "#%02x%02x%02x", mix(a[0], b[0], u), mix(a[1], b[1], u), mix(a[2], b[2], u));
    }

    private static int mix(int a, int b, double u) {
        return (int) Math.round(a + (b - a) * u);
    }

    // ---------------------------------------------------------------- message sizes

    static String sizeHistogram(List<SizeHistogram> sizes, int[] range, Scope scope) {
        int width = 560;
        int height = 300;
        int left = 56;
        int right = 16;
        int top = 40;
        int bottom = 62;
        int plotW = width - left - right;
        int plotH = height - top - bottom;
        List<SizeHistogram> shown = sizes.size() > SERIES.length ? sizes.subList(0, SERIES.length) : sizes;
        StringBuilder s = open(width, height, "Messages per size class, by operation");
        if (range[0] < 0) {
            s.append(text(width / 2.0, height / 2.0, "no messages recorded", "muted", "middle"));
            return close(s);
        }
        int lo = range[0];
        int hi = Math.max(range[1], lo + 3);
        int classes = hi - lo + 1;
        double max = 0;
        for (int k = lo; k <= hi; k++) {
            double sum = 0;
            for (SizeHistogram h : shown) {
                sum += scope.perPeer(h.inClass(k));
            }
            max = Math.max(max, sum);
        }
        Axis axis = Axis.count(max);
        String[] names = shown.stream().map(SizeHistogram::operation).toArray(String[]::new);
        String[] colours = new String[names.length];
        for (int i = 0; i < colours.length; i++) {
            colours[i] = SERIES[i];
        }
        legend(s, left, 14, names, colours);
        for (double v = 0; v <= axis.max + 1e-9; v += axis.step) {
            double y = top + plotH - plotH * v / axis.max;
            s.append(line(left, y, left + plotW, y, "grid"));
            s.append(text(left - 6, y + 4, axis.label(v), "axis", "end"));
        }
        double slot = (double) plotW / classes;
        double barW = Math.max(2, slot * 0.72);
        boolean rotate = slot < 30;
        for (int k = lo; k <= hi; k++) {
            double x = left + (k - lo) * slot + (slot - barW) / 2;
            double y = top + plotH;
            for (int i = 0; i < shown.size(); i++) {
                double v = scope.perPeer(shown.get(i).inClass(k));
                if (v <= 0) {
                    continue;
                }
                double h = plotH * v / axis.max;
                y -= h;
                String tip = shown.get(i).operation() + ", " + classRange(k) + ": " + Fmt.count(v) + " messages"
                        + (scope.isOneRank() ? "" : " per peer");
                s.append("<rect x=\"").append(f(x)).append("\" y=\"").append(f(y)).append("\" width=\"").append(f(barW))
                        .append("\" height=\"").append(f(h)).append("\" fill=\"").append(colours[i]).append("\"><title>")
                        .append(Html.escape(tip)).append("</title></rect>");
            }
            double lx = left + (k - lo) * slot + slot / 2;
            double ly = top + plotH + 14;
            if (rotate) {
                s.append("<text class=\"axis\" text-anchor=\"end\" transform=\"translate(").append(f(lx + 3)).append(',')
                        .append(f(ly - 4)).append(") rotate(-45)\">").append(Html.escape(SizeHistogram.label(k))).append("</text>");
            } else {
                s.append(text(lx, ly, SizeHistogram.label(k), "axis", "middle"));
            }
        }
        s.append(line(left, top + plotH, left + plotW, top + plotH, "baseline"));
        s.append(text(left + plotW / 2.0, height - 8, "message size, bytes (each bar: from its label to twice it)", "axis-title", "middle"));
        return close(s);
    }

    private static String classRange(int k) {
        return k == 0 ? "empty" : SizeHistogram.label(k) + " to " + (2 * SizeHistogram.lowerBound(k) - 1) + " bytes";
    }

    // ---------------------------------------------------------------- hottest methods

    static String hotMethods(List<ProfileAnalysis.MethodRow> rows, long totalSamples) {
        int width = 560;
        int barH = 18;
        int gap = 7;
        int left = 270;
        int right = 64;
        int top = 8;
        int plotW = width - left - right;
        int height = top + Math.max(1, rows.size()) * (barH + gap) + 8;
        StringBuilder s = open(width, height, "Share of execution samples per method (top frame)");
        if (rows.isEmpty()) {
            s.append(text(width / 2.0, height / 2.0 + 4, "no execution samples recorded", "muted", "middle"));
            return close(s);
        }
        double max = rows.get(0).samples();
        for (int i = 0; i < rows.size(); i++) {
            ProfileAnalysis.MethodRow r = rows.get(i);
            double y = top + i * (barH + gap);
            double w = Math.max(1, plotW * r.samples() / max);
            String share = Fmt.fixed(100.0 * r.samples() / Math.max(1, totalSamples), 1) + "%";
            s.append("<g><title>").append(Html.escape(r.method() + ": " + share + " of the samples")).append("</title>");
            s.append(rect(left, y, w, barH, COMPUTE_COLOUR, null));
            s.append("</g>");
            s.append(text(left - 8, y + barH / 2.0 + 4, shortMethod(r.method(), 34), "label", "end"));
            s.append(text(left + w + 6, y + barH / 2.0 + 4, share, "value", "start"));
        }
        return close(s);
    }

    /** {@code demo.RingProgram.crunch} as {@code RingProgram.crunch}, cut to {@code max} characters. */
    static String shortMethod(String method, int max) {
        int dot = method.lastIndexOf('.');
        int pkg = dot > 0 ? method.lastIndexOf('.', dot - 1) : -1;
        String s = pkg >= 0 ? method.substring(pkg + 1) : method;
        return s.length() <= max ? s : "\u2026" + s.substring(s.length() - max + 1);
    }

    // ---------------------------------------------------------------- pieces

    static StringBuilder open(int width, int height, String title) {
        StringBuilder s = new StringBuilder(4096);
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ").append(width).append(' ').append(height)
                .append("\" width=\"").append(width).append("\" height=\"").append(height).append("\" role=\"img\">");
        s.append("<title>").append(Html.escape(title)).append("</title>");
        return s;
    }

    static String close(StringBuilder s) {
        return s.append("</svg>").toString();
    }

    private static void legend(StringBuilder s, double x, double y, String[] names, String[] colours) {
        double at = x;
        for (int i = 0; i < names.length; i++) {
            s.append(rect(at, y - 9, 12, 12, colours[i], null));
            s.append(text(at + 17, y + 1, names[i], "legend", "start"));
            at += 17 + 7 * names[i].length() + 18;
        }
    }

    static String rect(double x, double y, double w, double h, String fill, String cls) {
        return "<rect x=\"" + f(x) + "\" y=\"" + f(y) + "\" width=\"" + f(Math.max(0, w)) + "\" height=\"" + f(h)
                + "\" fill=\"" + fill + "\"" + (cls == null ? "" : " class=\"" + cls + "\"") + "/>";
    }

    static String line(double x1, double y1, double x2, double y2, String cls) {
        return "<line class=\"" + cls + "\" x1=\"" + f(x1) + "\" y1=\"" + f(y1) + "\" x2=\"" + f(x2) + "\" y2=\"" + f(y2) + "\"/>";
    }

    static String text(double x, double y, String text, String cls, String anchor) {
        return "<text class=\"" + cls + "\" x=\"" + f(x) + "\" y=\"" + f(y) + "\" text-anchor=\"" + anchor + "\">"
                + Html.escape(text) + "</text>";
    }

    /** A coordinate to a tenth of a pixel: {@code 12}, {@code 12.5}. */
    static String f(double v) {
        return Fmt.trimmed(v, 1);
    }

    static String shortBytes(long b) {
        String[] u = {"", "K", "M", "G", "T"};
        double v = b;
        int i = 0;
        while (v >= 1000 && i < u.length - 1) {
            v /= 1024;
            i++;
        }
        return (i == 0 ? Long.toString(b) : v < 10 ? Fmt.fixed(v, 1) : Fmt.fixed(v, 0)) + u[i];
    }

    static String shortCount(long c) {
        return c < 10_000 ? Long.toString(c) : c < 10_000_000 ? (c / 1000) + "k" : (c / 1_000_000) + "M";
    }

    /** A linear axis from 0 with round steps (1, 2 or 5 times a power of ten). */
    record Axis(double max, double step, boolean seconds, double unit) {
        static Axis count(double max) {
            double step = niceStep(Math.max(max, 1e-9), 5);
            return new Axis(Math.max(step, Math.ceil(max / step - 1e-9) * step), step, false, 1);
        }

        /** Nanoseconds on an axis labelled in seconds. */
        static Axis time(double maxNanos) {
            double step = niceStep(Math.max(maxNanos, 1), 5);
            return new Axis(Math.max(step, Math.ceil(maxNanos / step - 1e-9) * step), step, true, 1e9);
        }

        String label(double v) {
            double x = v / unit;
            double s = step / unit;
            int decimals = s >= 1 ? 0 : (int) Math.ceil(-Math.log10(s) - 1e-9);
            return Fmt.fixed(x, Math.min(9, decimals));
        }

        static double niceStep(double max, int ticks) {
            double raw = max / ticks;
            double mag = Math.pow(10, Math.floor(Math.log10(raw)));
            double n = raw / mag;
            return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10) * mag;
        }
    }
}
