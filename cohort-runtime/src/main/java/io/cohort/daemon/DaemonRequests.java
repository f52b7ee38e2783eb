package io.cohort.daemon;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The daemon's request handlers, registered with its {@link RequestServer}. Each runs on the
 * connection's thread. The administrative ones ({@code DRAIN}, {@code RESUME}, {@code SLOTS}) act on
 * what this daemon holds: its own member's settings if the request names it, the load server's table
 * if it is one; the CLI sends them to the member's daemon and to every load server.
 */
final class DaemonRequests {
    static final int MAX_SLOTS = io.cohort.cluster.Member.MAX_SLOTS;

    private final String cluster;
    private final LocalMember local;
    private final ClusterTable table; // null unless a load server
    private final RingKeeper ring;
    private final RefusalLog refusals;
    private final DaemonLog log;
    private final JobScheduling scheduling;

    /** Whose connections these handlers serve; set once by {@link #register}, read by STATUS. */
    private volatile RequestServer server;
    /** STATUS answers: a burst of requests shares one encoding of the table (megabytes on a large cluster). */
    private final SharedBuild<MessageBody> statusAnswers = new SharedBuild<>(this::statusBody);

    DaemonRequests(String cluster, LocalMember local, ClusterTable table, RingKeeper ring, RefusalLog refusals, DaemonLog log,
                   JobScheduling scheduling) {
        this.cluster = cluster;
        this.local = local;
        this.table = table;
        this.ring = ring;
        this.refusals = refusals;
        this.log = log;
        this.scheduling = scheduling;
    }

    void register(RequestServer server) {
        this.server = server;
        server.handle(MessageType.RING_HELLO, ring::servePredecessor)
                .handle(MessageType.STATUS, (m, c) -> status())
                .handle(MessageType.REPORT, (m, c) -> report(m))
                .handle(MessageType.DRAIN, (m, c) -> admin(m, "drain"))
                .handle(MessageType.RESUME, (m, c) -> admin(m, "resume"))
                .handle(MessageType.SLOTS, (m, c) -> admin(m, "slots"))
                .handle(MessageType.JOB_REGISTER, this::registerJob)
                .handle(MessageType.JOB_RELEASE, this::releaseJob)
                .handle(MessageType.SCHEDULE, scheduling::schedule);
    }

    private ClusterTable table() throws RequestRefusedException {
        if (table == null) {
            throw new RequestRefusedException(local.name() + " is not a load server of cluster " + cluster);
        }
        return table;
    }

    private MessageBody status() throws RequestRefusedException {
        table(); // refused at once when not a load server
        return statusAnswers.get();
    }

    private MessageBody statusBody() {
        ClusterTable t = table;
        Map<String, Long> counters = new java.util.LinkedHashMap<>();
        refusals.counts().forEach((r, n) -> counters.put("refused." + r.name().toLowerCase(java.util.Locale.ROOT), n));
        counters.put("duplicateReports", t.duplicateReports());
        RequestServer srv = server;
        counters.put("turnedAway", srv == null ? 0 : srv.turnedAway());
        return new StatusTable(cluster, local.name(), System.currentTimeMillis(), t.snapshot(), counters).toBody();
    }

    private MessageBody report(DaemonMessage m) throws RequestRefusedException {
        ClusterTable t = table();
        if (!t.knows(m.sender())) {
            throw new RequestRefusedException("only members' daemons report ring events, not '" + m.sender() + "'");
        }
        String member = m.body().require("member");
        boolean down = "down".equals(m.body().require("state"));
        String why = m.body().get("why", "");
        if (t.onReport(member, down, m.sender(), m.body().getLong("at"), why)) {
            log.info(member + " is " + (down ? "down" : "back") + ", reported by " + m.sender() + (why.isEmpty() ? "" : ": " + why));
        }
        return MessageBody.empty();
    }

    private MessageBody admin(DaemonMessage m, String what) throws RequestRefusedException {
        String member = m.body().require("member");
        boolean mine = member.equals(local.name());
        if (table != null && !table.knows(member)) {
            throw new RequestRefusedException("cluster " + cluster + " has no member '" + member + "'");
        }
        if (!mine && table == null) {
            throw new RequestRefusedException(local.name() + " is neither " + member + " nor a load server");
        }
        List<String> applied = new ArrayList<>();
        switch (what) {
            case "drain" -> {
                String reason = m.body().require("reason");
                String wrong = DrainReason.check(reason);
                if (wrong != null) {
                    throw new RequestRefusedException(wrong);
                }
                if (mine) {
                    local.drain(reason);
                }
                if (table != null) {
                    table.drain(member, reason);
                }
                log.info(member + " drained by " + m.sender() + ": " + reason);
            }
            case "resume" -> {
                if (mine) {
                    local.resume();
                }
                if (table != null) {
                    table.resume(member);
                }
                log.info(member + " resumed by " + m.sender());
            }
            default -> {
                int n = m.body().getInt("slots");
                if (n < 0 || n > MAX_SLOTS) {
                    throw new RequestRefusedException("slots must be from 0 to " + MAX_SLOTS + ", not " + n);
                }
                if (mine) {
                    local.slots(n);
                }
                if (table != null) {
                    table.slots(member, n);
                }
                log.info(member + " slots set to " + n + " by " + m.sender());
            }
        }
        if (mine) {
            applied.add("member");
        }
        if (table != null) {
            applied.add("table");
        }
        return MessageBody.empty().put("applied", String.join(",", applied));
    }

    private MessageBody registerJob(DaemonMessage m, RequestServer.Connection c) throws RequestRefusedException, java.io.IOException {
        String job = m.body().require("job");
        String user = m.body().require("user");
        String partition = m.body().get("partition", null);
        if (!LocalMember.NAME.matcher(job).matches() || !LocalMember.NAME.matcher(user).matches()) {
            throw new RequestRefusedException("a job id and a user name are 1 to 64 letters, digits or . _ @ : -");
        }
        if (c.registeredJob != null) {
            throw new RequestRefusedException("this connection already registered job " + c.registeredJob);
        }
        if (partition != null) {
            scheduling.checkAdmission(partition, user); // the daemon's own database decides, not the sender's
        }
        String refused = local.registerJob(job, user);
        if (refused != null) {
            throw new RequestRefusedException(refused);
        }
        c.registeredJob = job;
        c.registeredPartition = partition;
        c.keepOpen();
        c.onClose(() -> local.releaseJob(job)); // a dead launcher's connection closes: the job is released
        return MessageBody.empty().put("member", local.name());
    }

    /** Only the connection that registered a job may release it. */
    private MessageBody releaseJob(DaemonMessage m, RequestServer.Connection c) throws RequestRefusedException {
        String job = m.body().require("job");
        if (!job.equals(c.registeredJob)) {
            throw new RequestRefusedException("job " + job + " was not registered on this connection");
        }
        boolean was = local.releaseJob(job);
        c.registeredJob = null;
        return MessageBody.empty().put("released", was);
    }
}
