package io.cohort.daemon;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.Partition;
import io.cohort.cluster.SchedulingPolicy;
import io.cohort.cluster.SchedulingRequest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The daemon's half of pseudo-gang scheduling: the {@code SCHEDULE} request, which applies a partition's
 * scheduling to one peer process of a registered job. The daemon runs privileged so that it may lower a
 * nice value or grant {@code SCHED_FIFO}, which the user's own processes may not; so it checks what it
 * is asked to change:
 * <ul>
 *   <li>the job is registered on this member (the launcher sends the request on the registering connection);</li>
 *   <li>the process belongs to that job (its environment holds {@code COHORT_JOB_ID=job}) and runs as the
 *       job's user (its real uid is the user's);</li>
 *   <li>the partition exists and holds this member; the request is capped by the partition's maximum
 *       ({@link SchedulingRequest#cappedBy}), whatever the sender asked for.</li>
 * </ul>
 * Runs on the registering connection's thread.
 */
final class JobScheduling {
    private final ClusterDb db;
    private final LocalMember local;
    private final DaemonLog log;

    JobScheduling(ClusterDb db, LocalMember local, DaemonLog log) {
        this.db = db;
        this.local = local;
        this.log = log;
    }

    void register(RequestServer server) {
        server.handle(MessageType.SCHEDULE, (m, c) -> schedule(m));
    }

    private MessageBody schedule(DaemonMessage m) throws RequestRefusedException {
        MessageBody b = m.body();
        String job = b.require("job");
        long pid = b.getLong("pid");
        String partitionName = b.require("partition");
        String user = local.userOf(job);
        if (user == null) {
            throw new RequestRefusedException("job " + job + " is not registered on " + local.name());
        }
        Partition p = db.partition(partitionName).orElseThrow(() -> new RequestRefusedException(
                "cluster " + db.name() + " has no partition '" + partitionName + "'"));
        if (!p.members().contains(local.name())) {
            throw new RequestRefusedException("partition " + p.name() + " does not hold " + local.name());
        }
        SchedulingRequest asked;
        try {
            asked = new SchedulingRequest(SchedulingPolicy.valueOf(b.require("policy").toUpperCase(Locale.ROOT)),
                    b.getInt("nice"), b.getInt("rt"));
        } catch (IllegalArgumentException e) {
            throw new RequestRefusedException("a scheduling request needs a policy normal or fifo, a nice value from -20 to 19"
                    + " and a real-time priority from 1 to 99");
        }
        SchedulingRequest granted = asked.cappedBy(p);
        try {
            checkProcess(pid, job, user);
            ProcessScheduler.apply(pid, granted);
        } catch (IOException e) {
            throw new RequestRefusedException("cannot schedule process " + pid + " of job " + job + ": " + e.getMessage());
        }
        log.info("job " + job + " of " + user + ": process " + pid + " runs at " + granted
                + (granted.equals(asked) ? "" : " (asked " + asked + ", partition " + p.name() + "'s maximum applies)"));
        return MessageBody.empty().put("granted", granted.toString());
    }

    /** The process is the job's (environment) and the user's (real uid); otherwise refused. */
    private static void checkProcess(long pid, String job, String user) throws IOException {
        Path proc = Path.of("/proc", Long.toString(pid));
        byte[] environ;
        String status;
        try {
            environ = Files.readAllBytes(proc.resolve("environ"));
            status = Files.readString(proc.resolve("status"), StandardCharsets.US_ASCII);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IOException("it does not exist");
        } catch (java.nio.file.AccessDeniedException e) {
            throw new IOException("the daemon may not read it (it needs to run as root)");
        }
        String marker = "COHORT_JOB_ID=" + job;
        boolean ours = false;
        for (String var : new String(environ, StandardCharsets.UTF_8).split("\0")) {
            if (var.equals(marker)) {
                ours = true;
                break;
            }
        }
        if (!ours) {
            throw new IOException("it is not a peer of this job");
        }
        String uid = status.lines().filter(l -> l.startsWith("Uid:")).map(l -> l.split("\\s+")[1]).findFirst().orElse("?");
        if (!uid.equals(uidOf(user))) {
            throw new IOException("it does not run as " + user);
        }
    }

    private static String uidOf(String user) throws IOException {
        Process p = new ProcessBuilder("id", "-u", "--", user).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        try {
            if (!p.waitFor(5, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException("user " + user + " is unknown on this member");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
        return out;
    }
}
