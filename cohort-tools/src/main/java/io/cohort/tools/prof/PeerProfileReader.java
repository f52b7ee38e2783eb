package io.cohort.tools.prof;

import jdk.jfr.ValueDescriptor;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Reads one peer's recording into a {@link PeerProfile}. Fields are read by name and converted
 * leniently (an {@code int} written as a {@code long} still reads), so the capture side may widen a
 * field or add new ones without breaking reports. A file damaged after some events were read (a
 * peer killed mid-write leaves its last chunk incomplete) keeps those events, with a warning.
 */
final class PeerProfileReader {
    private final Path file;
    private final List<CommEvent> comms = new ArrayList<>();
    private final List<RegionEvent> regions = new ArrayList<>();
    private final Map<String, Long> samples = new HashMap<>();
    private final Map<String, ProtocolStats> protocol = new TreeMap<>();
    private final Map<Long, String> threads = new TreeMap<>();
    private final Map<String, DroppedTraffic> dropped = new LinkedHashMap<>();
    private long first = Long.MAX_VALUE;
    private long last = Long.MIN_VALUE;
    private int rank = -1;
    private int size;
    private String jobId = "";
    private String host = "";
    private String application = "";
    private long pid = -1;
    private long jobNanos = -1;
    private int jobRank = -1;
    private long events;
    /** What was out of range and left out, for one warning at the end. */
    private String badPeerInfo;

    private PeerProfileReader(Path file) {
        this.file = file;
    }

    /**
     * @throws IOException when the file is not a recording, or is damaged before its first event, or
     *                     says nowhere which rank wrote it
     */
    static PeerProfile read(Path file, Consumer<String> warnings) throws IOException {
        if (ProfileFileName.isSummary(file)) {
            return SummaryReader.read(file, warnings);
        }
        return new PeerProfileReader(file).readAll(warnings);
    }

    private PeerProfile readAll(Consumer<String> warnings) throws IOException {
        try (RecordingFile in = new RecordingFile(file)) {
            while (in.hasMoreEvents()) {
                accept(in.readEvent());
                events++;
            }
        } catch (IOException | RuntimeException | InternalError e) {
            // The JDK's parser reports damage as IOException, or as an index or state error on a cut chunk.
            String why = e instanceof IOException && e.getMessage() != null ? e.getMessage()
                    : "cut short or damaged: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName()
                    + ": " + e.getMessage());
            if (events == 0) {
                throw new IOException("not a readable Flight Recorder file (" + why + ")", e);
            }
            warnings.accept(file.getFileName() + ": damaged after " + events + " events (" + why
                    + "); the report uses the events before the damage");
        }
        int peers = size > 0 ? size : SummaryReader.MAX_JOB_SIZE; // the job's size may come after its events
        int before = comms.size();
        comms.removeIf(c -> c.peer() < -1 || c.peer() >= peers);
        int eventsOutsideTheJob = before - comms.size();
        if (badPeerInfo != null) {
            warnings.accept(file.getFileName() + ": " + badPeerInfo + ", outside any job; the rank comes from elsewhere");
        }
        if (eventsOutsideTheJob > 0) {
            warnings.accept(file.getFileName() + ": " + eventsOutsideTheJob + " communication events name a peer outside the"
                    + " job; they were left out");
        }
        if (rank < 0) {
            rank = jobRank;
        }
        ProfileFileName name = ProfileFileName.parse(file);
        if (rank < 0 && name != null) {
            rank = name.rank();
        }
        if (rank < 0) {
            throw new IOException((badPeerInfo != null ? badPeerInfo + ", outside any job," : "no io.cohort.PeerInfo event")
                    + " and the file name is not <App>.prof.<rank>.jfr, so its rank is unknown");
        }
        if (application.isEmpty() && name != null) {
            application = name.application();
        }
        if (first > last) {
            first = last = 0;
        }
        boolean closed = jobNanos >= 0;
        long app = closed ? jobNanos : last - first;
        comms.sort((a, b) -> Long.compare(a.startNanos(), b.startNanos()));
        regions.sort((a, b) -> Long.compare(a.startNanos(), b.startNanos()));
        return new PeerProfile(file, rank, size, jobId, host, application, pid, first, last, app, closed,
                Collections.unmodifiableList(comms), Collections.unmodifiableList(regions),
                Collections.unmodifiableMap(samples), Collections.unmodifiableMap(protocol),
                Collections.unmodifiableMap(threads), Totals.NONE, List.copyOf(dropped.values()));
    }

    private void accept(RecordedEvent e) {
        long start = nanos(e.getStartTime());
        long duration = e.getDuration().toNanos();
        first = Math.min(first, start);
        last = Math.max(last, start + duration);
        String type = e.getEventType().getName();
        CommKind kind = CommKind.ofEvent(type);
        if (kind != null) {
            comms.add(comm(kind, e, start, duration));
            return;
        }
        switch (type) {
            case ProfileEvents.EXECUTION_SAMPLE -> sample(e);
            case ProfileEvents.REGION -> regions.add(new RegionEvent(text(e, ProfileEvents.NAME, "?"), start, duration, thread(e)));
            case ProfileEvents.PEER_INFO -> {
                long r = number(e, ProfileEvents.RANK, -1);
                long n = number(e, ProfileEvents.SIZE, 0);
                if (n < 1 || n > SummaryReader.MAX_JOB_SIZE || r < 0 || r >= n) {
                    badPeerInfo = "its io.cohort.PeerInfo says rank " + r + " of a job of " + n;
                } else {
                    rank = (int) r;
                    size = (int) n;
                }
                jobId = text(e, ProfileEvents.JOB_ID, "");
                host = text(e, ProfileEvents.HOST, "");
                application = text(e, ProfileEvents.APPLICATION, "");
                pid = number(e, ProfileEvents.PID, -1);
            }
            case ProfileEvents.JOB -> {
                jobNanos = Math.max(jobNanos, duration);
                long r = number(e, ProfileEvents.RANK, -1);
                jobRank = r >= 0 && r < SummaryReader.MAX_JOB_SIZE ? (int) r : -1;
            }
            case ProfileEvents.NACK -> transport(e).nacks += number(e, ProfileEvents.COUNT, 1);
            case ProfileEvents.RETRANSMISSION -> {
                ProtocolStats s = transport(e);
                s.retransmissions++;
                s.retransmittedBytes += Math.max(0, number(e, ProfileEvents.BYTES, 0));
            }
            case ProfileEvents.FLOW_CONTROL_STALL -> {
                ProtocolStats s = transport(e);
                s.stalls++;
                s.stallNanos += duration;
            }
            case ProfileEvents.DROPPED_TRAFFIC -> DroppedTraffic.add(dropped, text(e, ProfileEvents.TRANSPORT, "?"),
                    text(e, ProfileEvents.REASON, "?"), text(e, ProfileEvents.UNIT, ""), number(e, ProfileEvents.COUNT, 0));
            default -> {
                // JDK events other than samples only widen the recording's span.
            }
        }
    }

    private CommEvent comm(CommKind kind, RecordedEvent e, long start, long duration) {
        Map<String, Object> args = new LinkedHashMap<>();
        for (ValueDescriptor d : e.getFields()) {
            if (!ProfileEvents.STANDARD_FIELDS.contains(d.getName())) {
                Object v = simple(e.getValue(d.getName()));
                if (v != null) {
                    args.put(d.getName(), v);
                }
            }
        }
        return new CommEvent(kind, text(e, ProfileEvents.OPERATION, kind.defaultOperation()), start, duration, thread(e),
                (int) number(e, ProfileEvents.COMMUNICATOR, -1), (int) number(e, ProfileEvents.PEER, -1),
                (int) number(e, ProfileEvents.TAG, -1), number(e, ProfileEvents.BYTES, -1),
                number(e, ProfileEvents.SEQUENCE, -1), CallSite.of(e.getStackTrace()), args);
    }

    private void sample(RecordedEvent e) {
        RecordedStackTrace st = e.getStackTrace();
        if (st == null || st.getFrames().isEmpty()) {
            return;
        }
        RecordedFrame top = st.getFrames().get(0);
        samples.merge(top.getMethod().getType().getName() + "." + top.getMethod().getName(), 1L, Long::sum);
    }

    private ProtocolStats transport(RecordedEvent e) {
        return protocol.computeIfAbsent(text(e, ProfileEvents.TRANSPORT, "?"), k -> new ProtocolStats());
    }

    private long thread(RecordedEvent e) {
        RecordedThread t = e.hasField("eventThread") ? e.getThread() : null;
        if (t == null) {
            return 0;
        }
        long id = t.getJavaThreadId();
        if (!threads.containsKey(id)) {
            String n = t.getJavaName() != null ? t.getJavaName() : t.getOSName();
            threads.put(id, n == null ? "thread " + id : n);
        }
        return id;
    }

    static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    private static long number(RecordedEvent e, String field, long absent) {
        if (!e.hasField(field)) {
            return absent;
        }
        Object v = e.getValue(field);
        if (v instanceof Number n) {
            return n.longValue();
        }
        if (v instanceof Boolean b) {
            return b ? 1 : 0;
        }
        return absent;
    }

    private static String text(RecordedEvent e, String field, String absent) {
        if (!e.hasField(field)) {
            return absent;
        }
        Object v = e.getValue(field);
        return v == null ? absent : v.toString();
    }

    /** A field's value as the trace can show it: numbers, booleans and text as they are, classes and threads by name. */
    private static Object simple(Object v) {
        if (v instanceof Number || v instanceof Boolean || v instanceof String || v instanceof Character) {
            return v;
        }
        if (v instanceof RecordedClass c) {
            return c.getName();
        }
        if (v instanceof RecordedThread t) {
            return t.getJavaName();
        }
        return null;
    }
}
