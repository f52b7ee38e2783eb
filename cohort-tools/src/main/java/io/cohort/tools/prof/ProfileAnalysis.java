package io.cohort.tools.prof;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The tables of a report, computed once for one scope and shared by the text and HTML reports. Every
 * count and time is a sum over the scope's peers; {@link Scope#perPeer(double)} makes it the mean
 * the reports print. Ranked tables are cut by the {@link TableLimit}.
 */
public final class ProfileAnalysis {
    /** A peer's application time and the part of it spent communicating. */
    public record PeerTime(int rank, String host, long appNanos, long commNanos, boolean jobClosed) {
    }

    /** Calls of one operation from one place in the program. */
    public record SiteRow(String operation, CallSite site, long count, long nanos) {
    }

    public record OperationRow(String operation, long count, long nanos) {
    }

    /** Samples whose top frame was this method ({@code pkg.Class.method}). */
    public record MethodRow(String method, long samples) {
    }

    public record RegionRow(String name, long count, long nanos) {
    }

    public record TransportRow(String transport, ProtocolStats stats) {
    }

    /**
     * What the scope's peers' {@code transport} dropped for {@code reason}: {@code count} {@code unit}s
     * in all (a job total, not a mean per peer), and the count of each rank that dropped some.
     */
    public record DropRow(String transport, String reason, String unit, long count, Map<Integer, Long> perRank) {
    }

    private final ProfileSet set;
    private final Scope scope;
    private final TableLimit limit;
    private final List<PeerTime> peerTimes = new ArrayList<>();
    private final long appNanos;
    private final long commNanos;
    private final TableLimit.Ranked<SiteRow> callSites;
    private final TableLimit.Ranked<OperationRow> operations;
    private final List<SizeHistogram> sizes;
    private final CommMatrix matrix;
    private final TableLimit.Ranked<MethodRow> methods;
    private final long samples;
    private final TableLimit.Ranked<RegionRow> regions;
    private final List<TransportRow> protocol;
    private final List<DropRow> dropped;
    private boolean summary;

    public ProfileAnalysis(ProfileSet set, Scope scope, TableLimit limit) {
        this.set = set;
        this.scope = scope;
        this.limit = limit;
        long app = 0;
        long comm = 0;
        Map<SiteKey, long[]> sites = new HashMap<>();
        Map<String, long[]> ops = new HashMap<>();
        Map<String, SizeHistogram> sizeByOp = new HashMap<>();
        Map<String, Long> methodSamples = new HashMap<>();
        Map<String, long[]> regionTimes = new HashMap<>();
        Map<String, ProtocolStats> transports = new TreeMap<>();
        Map<List<String>, Map<Integer, Long>> drops = new HashMap<>();
        for (PeerProfile p : scope.peers()) {
            for (DroppedTraffic d : p.dropped()) {
                if (d.count() > 0) {
                    drops.computeIfAbsent(List.of(d.transport(), d.reason(), d.unit()), k -> new TreeMap<>())
                            .merge(p.rank(), d.count(), Long::sum);
                }
            }
            long c = p.commNanos();
            peerTimes.add(new PeerTime(p.rank(), p.host(), p.appNanos(), c, p.jobClosed()));
            app += p.appNanos();
            comm += c;
            for (CommEvent e : p.comms()) {
                add(sites.computeIfAbsent(new SiteKey(e.operation(), e.callSite()), k -> new long[2]), e.durationNanos());
                add(ops.computeIfAbsent(e.operation(), k -> new long[2]), e.durationNanos());
                if (e.kind() == CommKind.SEND || e.kind() == CommKind.COLLECTIVE) {
                    sizeByOp.computeIfAbsent(e.operation(), SizeHistogram::new).add(e.bytes());
                }
            }
            for (Totals.CommTotal t : p.totals().comms()) {
                add(ops.computeIfAbsent(t.operation(), k -> new long[2]), t.count(), t.nanos());
                if (t.kind() == CommKind.SEND || t.kind() == CommKind.COLLECTIVE) {
                    sizeByOp.computeIfAbsent(t.operation(), SizeHistogram::new)
                            .add(t.sizeClass(), t.count(), t.bytes(), t.minBytes(), t.maxBytes());
                }
            }
            for (Totals.SiteTotal t : p.totals().sites()) {
                add(sites.computeIfAbsent(new SiteKey(t.operation(), t.site()), k -> new long[2]), t.calls(), t.nanos());
            }
            p.samples().forEach((m, n) -> methodSamples.merge(m, n, Long::sum));
            for (RegionEvent r : p.regions()) {
                add(regionTimes.computeIfAbsent(r.name(), k -> new long[2]), r.durationNanos());
            }
            for (Totals.RegionTotal r : p.totals().regions()) {
                add(regionTimes.computeIfAbsent(r.name(), k -> new long[2]), r.count(), r.nanos());
            }
            summary |= p.isSummary();
            p.protocol().forEach((t, s) -> transports.computeIfAbsent(t, k -> new ProtocolStats()).add(s));
        }
        this.appNanos = app;
        this.commNanos = comm;

        List<SiteRow> siteRows = new ArrayList<>();
        sites.forEach((k, v) -> siteRows.add(new SiteRow(k.operation, k.site, v[0], v[1])));
        siteRows.sort(Comparator.comparingLong(SiteRow::nanos).reversed()
                .thenComparing(SiteRow::operation).thenComparing(SiteRow::site));
        this.callSites = limit.apply(siteRows, SiteRow::nanos);

        List<OperationRow> opRows = new ArrayList<>();
        ops.forEach((k, v) -> opRows.add(new OperationRow(k, v[0], v[1])));
        opRows.sort(Comparator.comparingLong(OperationRow::nanos).reversed().thenComparing(OperationRow::operation));
        this.operations = limit.apply(opRows, OperationRow::nanos);

        List<SizeHistogram> hs = new ArrayList<>(sizeByOp.values());
        hs.removeIf(h -> h.count() == 0);
        hs.sort(Comparator.comparingLong(SizeHistogram::totalBytes).reversed().thenComparing(SizeHistogram::operation));
        this.sizes = List.copyOf(hs);

        this.matrix = CommMatrix.of(set);

        List<MethodRow> ms = new ArrayList<>();
        methodSamples.forEach((m, n) -> ms.add(new MethodRow(m, n)));
        ms.sort(Comparator.comparingLong(MethodRow::samples).reversed().thenComparing(MethodRow::method));
        this.samples = ms.stream().mapToLong(MethodRow::samples).sum();
        this.methods = limit.apply(ms, MethodRow::samples);

        List<RegionRow> rs = new ArrayList<>();
        regionTimes.forEach((n, v) -> rs.add(new RegionRow(n, v[0], v[1])));
        rs.sort(Comparator.comparingLong(RegionRow::nanos).reversed().thenComparing(RegionRow::name));
        this.regions = limit.apply(rs, RegionRow::nanos);

        List<TransportRow> ts = new ArrayList<>();
        transports.forEach((t, s) -> ts.add(new TransportRow(t, s)));
        this.protocol = List.copyOf(ts);

        List<DropRow> ds = new ArrayList<>();
        drops.forEach((k, perRank) -> ds.add(new DropRow(k.get(0), k.get(1), k.get(2),
                perRank.values().stream().mapToLong(Long::longValue).sum(), java.util.Collections.unmodifiableMap(perRank))));
        ds.sort(Comparator.comparing(DropRow::transport).thenComparing(Comparator.comparingLong(DropRow::count).reversed())
                .thenComparing(DropRow::reason).thenComparing(DropRow::unit));
        this.dropped = List.copyOf(ds);
    }

    private static void add(long[] countAndNanos, long nanos) {
        add(countAndNanos, 1, nanos);
    }

    private static void add(long[] countAndNanos, long count, long nanos) {
        countAndNanos[0] += count;
        countAndNanos[1] += nanos;
    }

    /**
     * Whether some peer's profile is a summary: its call sites are estimates from sampled calls
     * (see io.cohort.profile.Summary), and it has no events for a timeline.
     */
    public boolean summary() {
        return summary;
    }

    private record SiteKey(String operation, CallSite site) {
    }

    public ProfileSet set() {
        return set;
    }

    public Scope scope() {
        return scope;
    }

    public TableLimit limit() {
        return limit;
    }

    public List<PeerTime> peerTimes() {
        return peerTimes;
    }

    /** Application time summed over the scope's peers. */
    public long appNanos() {
        return appNanos;
    }

    /** Communication time summed over the scope's peers. */
    public long commNanos() {
        return commNanos;
    }

    public TableLimit.Ranked<SiteRow> callSites() {
        return callSites;
    }

    public TableLimit.Ranked<OperationRow> operations() {
        return operations;
    }

    /** Sizes of sent messages and collective payloads per operation, largest total first. */
    public List<SizeHistogram> sizes() {
        return sizes;
    }

    /** The whole job's matrix, whatever the scope (a rank's row and column are its part). */
    public CommMatrix matrix() {
        return matrix;
    }

    public TableLimit.Ranked<MethodRow> methods() {
        return methods;
    }

    public long samples() {
        return samples;
    }

    public TableLimit.Ranked<RegionRow> regions() {
        return regions;
    }

    public List<TransportRow> protocol() {
        return protocol;
    }

    /** What the transports dropped, per transport (by name), then reason (most first); empty when nothing was. */
    public List<DropRow> dropped() {
        return dropped;
    }

    /** {@code broadcast domain: failed authentication (rank 1: 7, rank 2: 5)}: a drop row's words after its count. */
    public static String dropWhat(DropRow r) {
        StringBuilder b = new StringBuilder(r.transport()).append(": ").append(r.reason()).append(" (");
        String sep = "";
        for (Map.Entry<Integer, Long> e : r.perRank().entrySet()) {
            b.append(sep).append("rank ").append(e.getKey()).append(": ").append(e.getValue());
            sep = ", ";
        }
        return b.append(')').toString();
    }

    /** {@code 1 datagram}, {@code 12 datagrams}: a drop row's count with its unit. */
    public static String dropUnit(DropRow r) {
        return r.unit().isEmpty() ? "" : r.unit() + (r.count() == 1 ? "" : "s");
    }

    /** The lowest and highest size class any operation's messages fall in, or {-1, -1}. */
    public int[] sizeClassRange() {
        int lo = Integer.MAX_VALUE;
        int hi = -1;
        for (SizeHistogram h : sizes) {
            lo = Math.min(lo, h.lowestClass());
            hi = Math.max(hi, h.highestClass());
        }
        return hi < 0 ? new int[] {-1, -1} : new int[] {lo, hi};
    }
}
