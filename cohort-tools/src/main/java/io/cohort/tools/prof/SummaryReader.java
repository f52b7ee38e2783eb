package io.cohort.tools.prof;

import io.cohort.profile.SummaryFormat;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Reads one peer's summary profile ({@link SummaryFormat}) into a {@link PeerProfile} with
 * {@link Totals} and no events. Unknown records and extra columns are skipped (a later writer may add
 * them); a line that cannot be parsed is named in one warning and skipped.
 */
final class SummaryReader {
    /** The most peers a job has ({@code cohort run -n}). */
    static final int MAX_JOB_SIZE = 65_536;
    private SummaryReader() {
    }

    static PeerProfile read(Path file, Consumer<String> warnings) throws IOException {
        List<Totals.CommTotal> comms = new ArrayList<>();
        List<Totals.SiteTotal> sites = new ArrayList<>();
        Map<String, long[]> regions = new TreeMap<>();
        Map<String, Long> samples = new HashMap<>();
        Map<String, ProtocolStats> protocol = new TreeMap<>();
        Map<String, DroppedTraffic> dropped = new java.util.LinkedHashMap<>();
        int rank = -1;
        int size = 0;
        String jobId = "";
        String host = "";
        String application = "";
        long pid = -1;
        long start = 0;
        long app = 0;
        boolean closed = false;
        long siteInterval = 0;
        long ticks = 0;
        long pause = 0;
        boolean format = false;
        int bad = 0;
        String firstBad = null;
        int lineNo = 0;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                lineNo++;
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t", -1);
                try {
                    switch (f[0]) {
                        case SummaryFormat.FORMAT -> {
                            if (!SummaryFormat.MAGIC.equals(f[1])) {
                                throw new IOException("not a Cohort profile summary (its format line names '" + f[1] + "')");
                            }
                            format = true;
                        }
                        case SummaryFormat.PEER -> {
                            jobId = text(f[3]);
                            host = text(f[4]);
                            application = text(f[5]);
                            pid = Long.parseLong(f[6]);
                            int r = Integer.parseInt(f[1]);
                            int n = Integer.parseInt(f[2]);
                            if (n < 1 || n > MAX_JOB_SIZE || r < 0 || r >= n) {
                                // The rest of the line stands; the rank comes from the file name.
                                throw new IllegalArgumentException("rank " + r + " of " + n);
                            }
                            rank = r;
                            size = n;
                        }
                        case SummaryFormat.JOB -> {
                            start = Long.parseLong(f[1]);
                            app = Long.parseLong(f[2]);
                            closed = "1".equals(f[3]);
                        }
                        case SummaryFormat.SITES -> siteInterval = Long.parseLong(f[1]);
                        case SummaryFormat.SAMPLER -> {
                            ticks = Long.parseLong(f[2]);
                            pause = Long.parseLong(f[4]);
                        }
                        case SummaryFormat.COMM -> comm(f, size, comms, regions);
                        case SummaryFormat.SITE -> sites.add(new Totals.SiteTotal(text(f[2]),
                                new CallSite(text(f[3]), text(f[4]), Integer.parseInt(f[5])),
                                Long.parseLong(f[6]), Long.parseLong(f[7]), Long.parseLong(f[8])));
                        case SummaryFormat.METHOD -> samples.merge(text(f[1]), Long.parseLong(f[2]), Long::sum);
                        case SummaryFormat.PROTOCOL -> {
                            ProtocolStats s = protocol.computeIfAbsent(text(f[1]), k -> new ProtocolStats());
                            s.nacks += Long.parseLong(f[3]);
                            s.retransmissions += Long.parseLong(f[4]);
                            s.retransmittedBytes += Long.parseLong(f[5]);
                            s.stalls += Long.parseLong(f[6]);
                            s.stallNanos += Long.parseLong(f[7]);
                        }
                        case SummaryFormat.DROPPED -> {
                            long n = Long.parseLong(f[4]);
                            if (n < 0) {
                                throw new IllegalArgumentException("dropped " + n);
                            }
                            DroppedTraffic.add(dropped, text(f[1]), text(f[2]), text(f[3]), n);
                        }
                        default -> {
                            // a record a later writer added
                        }
                    }
                } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) { // NumberFormatException too
                    if (bad++ == 0) {
                        firstBad = "line " + lineNo;
                    }
                }
            }
        } catch (java.nio.charset.MalformedInputException e) {
            throw new IOException("not a Cohort profile summary (not UTF-8 text)", e);
        }
        if (!format) {
            throw new IOException("not a Cohort profile summary (no '" + SummaryFormat.FORMAT + "' line)");
        }
        if (bad > 0) {
            warnings.accept(file.getFileName() + ": " + bad + (bad == 1 ? " line" : " lines") + " could not be read (first: "
                    + firstBad + "); the report uses the rest");
        }
        ProfileFileName name = ProfileFileName.parse(file);
        if (rank < 0 && name != null) {
            rank = name.rank();
        }
        if (rank < 0) {
            throw new IOException("no peer line and the file name is not <App>.prof.<rank>.tsv, so its rank is unknown");
        }
        if (application.isEmpty() && name != null) {
            application = name.application();
        }
        List<Totals.RegionTotal> regionTotals = new ArrayList<>();
        regions.forEach((n, v) -> regionTotals.add(new Totals.RegionTotal(n, v[0], v[1])));
        Totals totals = new Totals(Collections.unmodifiableList(comms), Collections.unmodifiableList(sites),
                Collections.unmodifiableList(regionTotals), siteInterval, ticks, pause);
        return new PeerProfile(file, rank, size, jobId, host, application, pid, start, start + app, app, closed,
                List.of(), List.of(), Collections.unmodifiableMap(samples), Collections.unmodifiableMap(protocol),
                Map.of(), totals, List.copyOf(dropped.values()));
    }

    /** A comm line's peer (-1: none or any) within the job, and its size class (-1: none) within the histogram's. */
    private static void comm(String[] f, int size, List<Totals.CommTotal> comms, Map<String, long[]> regions) {
        String kindLabel = f[1];
        String operation = text(f[2]);
        long count = Long.parseLong(f[7]);
        long nanos = Long.parseLong(f[9]);
        if ("region".equals(kindLabel)) {
            long[] r = regions.computeIfAbsent(operation, k -> new long[2]);
            r[0] += count;
            r[1] += nanos;
            return;
        }
        CommKind kind = CommKind.ofLabel(kindLabel);
        if (kind == null) {
            return; // a kind a later writer added
        }
        int peer = Integer.parseInt(f[5]);
        int sizeClass = Integer.parseInt(f[6]);
        if (peer < -1 || peer >= (size > 0 ? size : MAX_JOB_SIZE) || sizeClass < -1 || sizeClass >= SizeHistogram.CLASSES) {
            throw new IllegalArgumentException("peer " + peer + ", size class " + sizeClass);
        }
        comms.add(new Totals.CommTotal(kind, operation, text(f[3]), Integer.parseInt(f[4]), peer,
                sizeClass, count, Long.parseLong(f[8]), nanos, Long.parseLong(f[10]), Long.parseLong(f[11])));
    }

    private static String text(String field) {
        return SummaryFormat.unescape(field);
    }
}
