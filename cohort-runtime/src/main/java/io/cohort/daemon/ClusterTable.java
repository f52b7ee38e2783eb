package io.cohort.daemon;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.Member;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A load server's table of the cluster: per member, its last update and what the ring and the
 * administrators said about it. States are computed when asked, from this clock, so the TTL needs no
 * timer (see {@link MemberState} for the order in which they win).
 *
 * <ul>
 *   <li><b>Updates</b> ({@link #onUpdate}) carry load, cpus, slots, jobs and the member's drain. An update
 *       sent after the ring's down report (sender's timestamp) brings the member back; an older one, still
 *       in flight when the member died, is ignored.</li>
 *   <li><b>Ring reports</b> ({@link #onReport}): down, with who reported it, when and why; the first report
 *       wins and duplicates (both neighbours report) change nothing. A down report older than the
 *       member's last update is stale and ignored. An up report, newer than the down report, clears it.</li>
 *   <li><b>TTL</b>: a member whose last sign of life (update, or up report) arrived more than
 *       {@code daemon.ttl} ago is not-responding (PSE: the load servers expire its information).</li>
 *   <li><b>Drain</b> ({@link #drain}, {@link #resume}): kept here as well as in the member's daemon, so that a
 *       dead member can be drained and a restarted load server learns drains from updates.</li>
 * </ul>
 *
 * Thread-safe (every method synchronized): the UDP receiver and the connection threads share it.
 */
public final class ClusterTable {
    private static final class Row {
        final String name;
        int cpus;
        int slots;
        double load1 = -1;
        double load5 = -1;
        double load15 = -1;
        List<String> jobs = List.of();
        long lastUpdate = -1;
        long lastUpdateSent = Long.MIN_VALUE;
        long lastHeard = -1;
        long downAt = -1;
        String downBy;
        String downWhy;
        String drainReason;
        long drainedAt = -1;

        Row(Member m) {
            this.name = m.name();
            this.cpus = m.cpus();
            this.slots = m.slots();
        }
    }

    private final Map<String, Row> rows = new LinkedHashMap<>();
    private final Clock clock;
    private final long ttlMillis;
    private final long startedAt;
    private long duplicateReports;

    public ClusterTable(ClusterDb db, Clock clock) {
        this.clock = clock;
        this.ttlMillis = db.daemon().ttl().toMillis();
        this.startedAt = clock.millis();
        db.members().values().forEach(m -> rows.put(m.name(), new Row(m)));
    }

    public synchronized boolean knows(String member) {
        return rows.containsKey(member);
    }

    /** An update from {@code member} sent at {@code sentAt} (its clock); false if ignored as too old. */
    public synchronized boolean onUpdate(String member, long sentAt, LoadUpdate u) {
        Row r = rows.get(member);
        if (r == null || sentAt <= r.lastUpdateSent) {
            return false;
        }
        if (r.downAt >= 0) {
            if (sentAt <= r.downAt) {
                return false; // sent before the ring lost it: a late datagram from the dead daemon
            }
            r.downAt = -1;
        }
        long now = clock.millis();
        r.lastUpdateSent = sentAt;
        r.lastUpdate = now;
        r.lastHeard = now;
        r.load1 = u.load1();
        r.load5 = u.load5();
        r.load15 = u.load15();
        r.cpus = u.cpus();
        r.slots = u.slots();
        r.jobs = u.jobs();
        if (u.drainReason() != null && r.drainReason == null) {
            r.drainReason = u.drainReason();
            r.drainedAt = now;
        }
        return true;
    }

    /**
     * The ring says {@code member} went down ({@code down}) or came back, as seen by {@code reporter} at
     * {@code at} (its clock). Returns true if the table changed.
     */
    public synchronized boolean onReport(String member, boolean down, String reporter, long at, String why) {
        Row r = rows.get(member);
        if (r == null) {
            return false;
        }
        if (down) {
            if (r.downAt >= 0) {
                duplicateReports++;
                return false;
            }
            if (at < r.lastUpdateSent) {
                return false; // it sent an update after the reporter lost it: alive
            }
            r.downAt = at;
            r.downBy = reporter;
            r.downWhy = why;
            return true;
        }
        if (r.downAt < 0 || at < r.downAt) {
            return false;
        }
        r.downAt = -1;
        r.lastHeard = clock.millis();
        return true;
    }

    public synchronized boolean drain(String member, String reason) {
        Row r = rows.get(member);
        if (r == null) {
            return false;
        }
        r.drainReason = reason;
        r.drainedAt = clock.millis();
        return true;
    }

    public synchronized boolean resume(String member) {
        Row r = rows.get(member);
        if (r == null) {
            return false;
        }
        r.drainReason = null;
        r.drainedAt = -1;
        return true;
    }

    /** An administrator's slots for {@code member}, shown at once (its daemon's next update confirms it). */
    public synchronized boolean slots(String member, int slots) {
        Row r = rows.get(member);
        if (r == null) {
            return false;
        }
        r.slots = slots;
        return true;
    }

    public synchronized MemberState state(String member) {
        return status(rows.get(member), clock.millis()).state();
    }

    /** Every member's row as of now, in the database's order. */
    public synchronized List<MemberStatus> snapshot() {
        long now = clock.millis();
        List<MemberStatus> out = new ArrayList<>(rows.size());
        rows.values().forEach(r -> out.add(status(r, now)));
        return out;
    }

    public synchronized long duplicateReports() {
        return duplicateReports;
    }

    private MemberStatus status(Row r, long now) {
        MemberState state;
        long since;
        String reason;
        if (r.downAt >= 0) {
            state = MemberState.DOWN;
            since = r.downAt;
            reason = "reported by " + r.downBy + " at " + Instant.ofEpochMilli(r.downAt) + ": " + r.downWhy;
        } else if (r.lastHeard < 0) {
            state = MemberState.UNKNOWN;
            since = startedAt;
            reason = "no update since this load server started at " + Instant.ofEpochMilli(startedAt);
        } else if (now - r.lastHeard > ttlMillis) {
            state = MemberState.NOT_RESPONDING;
            since = r.lastHeard + ttlMillis;
            reason = "last update " + (now - r.lastHeard) / 1000.0 + " s ago, longer than daemon.ttl " + ttlMillis / 1000.0 + " s";
        } else if (r.drainReason != null) {
            state = MemberState.DRAINED;
            since = r.drainedAt;
            reason = r.drainReason;
        } else {
            state = MemberState.UP;
            since = -1; // not tracked: "up" needs no date
            reason = "";
        }
        return new MemberStatus(r.name, state, r.load1, r.load5, r.load15, r.cpus, r.drainReason != null ? 0 : r.slots,
                r.jobs, r.lastUpdate, since, reason, r.drainReason);
    }
}
