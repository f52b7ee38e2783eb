package io.cohort.tools.prof;

import java.io.IOException;
import java.io.Writer;
import java.time.Instant;
import java.util.Map;
import java.util.TreeSet;

/**
 * The job as a Chrome trace-event JSON file, which Perfetto (ui.perfetto.dev) and chrome://tracing
 * open: one process per peer ({@code pid} = rank, named {@code rank R (host)}), one track per Java
 * thread, a complete event ({@code X}) for every send, receive, probe, wait, collective and region,
 * with the event's fields as args, and a flow arrow from each send to the receive that matched it.
 *
 * <p>Time zero is the earliest event of the job; timestamps are microseconds with nanosecond
 * decimals. Each peer stamped its events with its own host's clock, so on several hosts the tracks are
 * offset by the clocks' skew (an arrow may even point back in time); peers of one host share a clock.
 *
 * <p>A flow is an {@code s} event inside the send's slice and an {@code f} event with {@code bp: "e"}
 * (bind to the enclosing slice) inside the receive's. Sends and receives are paired by {@link
 * MessagePairs}, whose message key, written as hex text as the format allows, is the flow's id.
 */
public final class ChromeTrace {
    private static final int FLUSH_CHARS = 1 << 16;

    private final ProfileSet set;
    private final Scope scope;
    private final long zero;
    private final StringBuilder buf = new StringBuilder(FLUSH_CHARS + 4096);
    private Writer out;
    private boolean first = true;

    private ChromeTrace(ProfileSet set, Scope scope) {
        this.set = set;
        this.scope = scope;
        this.zero = set.firstNanos();
    }

    /** Writes the trace of the scope's peers; flows need both ends in scope. */
    public static void write(ProfileSet set, Scope scope, Writer out) throws IOException {
        new ChromeTrace(set, scope).writeTo(out);
    }

    private void writeTo(Writer w) throws IOException {
        this.out = w;
        buf.append("{\"displayTimeUnit\":\"ms\",\"otherData\":{\"application\":");
        Json.string(buf, set.application());
        buf.append(",\"jobId\":");
        Json.string(buf, set.jobId());
        buf.append(",\"timeZero\":");
        Json.string(buf, Instant.ofEpochSecond(0, zero).toString());
        buf.append(",\"clocks\":\"each peer's own host clock; peers on different hosts are offset by their skew\"},\n\"traceEvents\":[\n");
        MessagePairs pairs = MessagePairs.of(scope);
        for (PeerProfile p : scope.peers()) {
            metadata(p);
            for (CommEvent e : p.comms()) {
                complete(p, e);
                CommEvent r = pairs.receiveOf(p.rank(), e);
                if (r != null) {
                    flow(MessagePairs.key(p.rank(), e.peer(), e.sequence()), p.rank(), e, e.peer(), r);
                }
            }
            for (RegionEvent r : p.regions()) {
                region(p, r);
            }
        }
        buf.append("\n]}\n");
        out.write(buf.toString());
        buf.setLength(0);
        out.flush();
    }

    private void metadata(PeerProfile p) throws IOException {
        String host = p.host().isEmpty() ? "?" : p.host();
        meta("process_name", p.rank(), 0, "name", "rank " + p.rank() + " (" + host + ")");
        meta("process_sort_index", p.rank(), 0, "sort_index", p.rank());
        TreeSet<Long> used = new TreeSet<>();
        p.comms().forEach(e -> used.add(e.threadId()));
        p.regions().forEach(r -> used.add(r.threadId()));
        for (long tid : used) {
            meta("thread_name", p.rank(), tid, "name", p.threads().getOrDefault(tid, "thread " + tid));
        }
    }

    private void meta(String name, int pid, long tid, String key, Object value) throws IOException {
        begin();
        buf.append("{\"ph\":\"M\",\"name\":\"").append(name).append("\",\"pid\":").append(pid).append(",\"tid\":").append(tid)
                .append(",\"args\":{\"").append(key).append("\":");
        Json.value(buf, value);
        buf.append("}}");
    }

    private void complete(PeerProfile p, CommEvent e) throws IOException {
        begin();
        buf.append("{\"ph\":\"X\",\"name\":");
        Json.string(buf, e.operation());
        buf.append(",\"cat\":\"").append(e.kind().label()).append("\",\"pid\":").append(p.rank())
                .append(",\"tid\":").append(e.threadId()).append(",\"ts\":");
        Json.micros(buf, e.startNanos() - zero);
        buf.append(",\"dur\":");
        Json.micros(buf, e.durationNanos());
        buf.append(",\"args\":{");
        boolean firstArg = true;
        for (Map.Entry<String, Object> a : e.args().entrySet()) {
            if (!firstArg) {
                buf.append(',');
            }
            firstArg = false;
            Json.string(buf, a.getKey());
            buf.append(':');
            Json.value(buf, a.getValue());
        }
        if (e.callSite() != CallSite.UNKNOWN) {
            buf.append(firstArg ? "" : ",").append("\"callSite\":");
            Json.string(buf, e.callSite().fullName());
        }
        buf.append("}}");
    }

    private void region(PeerProfile p, RegionEvent r) throws IOException {
        begin();
        buf.append("{\"ph\":\"X\",\"name\":");
        Json.string(buf, r.name());
        buf.append(",\"cat\":\"region\",\"pid\":").append(p.rank()).append(",\"tid\":").append(r.threadId()).append(",\"ts\":");
        Json.micros(buf, r.startNanos() - zero);
        buf.append(",\"dur\":");
        Json.micros(buf, r.durationNanos());
        buf.append('}');
    }

    /**
     * The arrow's two ends sit in the middle of their slices, not on their edges: a flow end binds to
     * the slice that encloses its timestamp, and at an edge a neighbouring slice could claim it.
     */
    private void flow(long id, int source, CommEvent send, int destination, CommEvent receive) throws IOException {
        String hex = Long.toHexString(id);
        begin();
        buf.append("{\"ph\":\"s\",\"name\":\"message\",\"cat\":\"message\",\"id\":\"0x").append(hex).append("\",\"pid\":")
                .append(source).append(",\"tid\":").append(send.threadId()).append(",\"ts\":");
        Json.micros(buf, send.startNanos() + send.durationNanos() / 2 - zero);
        buf.append('}');
        begin();
        buf.append("{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"message\",\"cat\":\"message\",\"id\":\"0x").append(hex).append("\",\"pid\":")
                .append(destination).append(",\"tid\":").append(receive.threadId()).append(",\"ts\":");
        Json.micros(buf, receive.startNanos() + receive.durationNanos() / 2 - zero);
        buf.append('}');
    }

    /** Separates events, one per line, and hands full buffers to the writer (traces of long jobs are large). */
    private void begin() throws IOException {
        if (!first) {
            buf.append(",\n");
        }
        first = false;
        if (buf.length() >= FLUSH_CHARS) {
            out.write(buf.toString());
            buf.setLength(0);
        }
    }
}
