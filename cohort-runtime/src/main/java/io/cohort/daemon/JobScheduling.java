package io.cohort.daemon;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.Commands;
import io.cohort.cluster.Partition;
import io.cohort.cluster.SchedulingPolicy;
import io.cohort.cluster.SchedulingRequest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The daemon's half of pseudo-gang scheduling: the {@code SCHEDULE} request, which applies a partition's
 * scheduling to one peer process of a registered job. The daemon runs privileged so that it may lower a
 * nice value or grant {@code SCHED_FIFO}, which the user's own processes may not; so it checks what it
 * is asked to change:
 * <ul>
 *   <li>the request comes on the connection that registered the job, and names no partition: the
 *       partition is the one the job registered with, admitted by this daemon's own database;</li>
 *   <li>the process belongs to that job (its environment holds {@code COHORT_JOB_ID=job}) and runs as the
 *       job's user (its real uid is the user's);</li>
 *   <li>the request is capped by the partition's maximum
 *       ({@link SchedulingRequest#cappedBy}), whatever the sender asked for.</li>
 * </ul>
 * Runs on the registering connection's thread. Also checks, at JOB_REGISTER, that the user may use the
 * partition ({@link #checkAdmission}).
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

    /**
     * At JOB_REGISTER: the user must be in the partition's access list, by this daemon's own database
     * (a launcher could have read any database it liked), and the partition must hold this member.
     */
    void checkAdmission(String partitionName, String user) throws RequestRefusedException {
        Partition p = db.partition(partitionName).orElseThrow(() -> new RequestRefusedException(
                "cluster " + db.name() + " has no partition '" + partitionName + "'"));
        if (!p.members().contains(local.name())) {
            throw new RequestRefusedException("partition " + p.name() + " does not hold " + local.name());
        }
        io.cohort.cluster.UserIdentity who;
        try {
            who = io.cohort.cluster.UserIdentity.of(user);
        } catch (IOException e) {
            throw new RequestRefusedException("user " + user + " is unknown on " + local.name());
        }
        if (!p.allows(user, who.groups())) {
            throw new RequestRefusedException("user " + user + " may not run jobs in partition " + p.name());
        }
    }

    /** SCHEDULE: only on the connection that registered the job, for the partition it registered with. */
    MessageBody schedule(DaemonMessage m, RequestServer.Connection c) throws RequestRefusedException {
        MessageBody b = m.body();
        String job = b.require("job");
        long pid = b.getLong("pid");
        if (!job.equals(c.registeredJob) || c.registeredPartition == null) {
            throw new RequestRefusedException("job " + job + " was not registered with a partition on this connection");
        }
        String user = local.userOf(job);
        if (user == null) {
            throw new RequestRefusedException("job " + job + " is not registered on " + local.name());
        }
        Partition p = db.partition(c.registeredPartition).orElseThrow(() -> new RequestRefusedException(
                "cluster " + db.name() + " has no partition '" + c.registeredPartition + "'"));
        SchedulingRequest asked;
        try {
            asked = new SchedulingRequest(SchedulingPolicy.valueOf(b.require("policy").toUpperCase(Locale.ROOT)),
                    b.getInt("nice"), b.getInt("rt"));
        } catch (IllegalArgumentException e) {
            throw new RequestRefusedException("a scheduling request needs a policy normal or fifo, a nice value from -20 to 19"
                    + " and a real-time priority from 1 to 99");
        }
        SchedulingRequest granted = asked.cappedBy(p);
        if (exited(pid)) {
            return MessageBody.empty().put("granted", "exited"); // a short job's peer may be gone already: nothing to do
        }
        try {
            String started = checkProcess(pid, job, user);
            ProcessScheduler.apply(pid, started, granted);
        } catch (IOException e) {
            throw new RequestRefusedException("cannot schedule process " + pid + " of job " + job + ": " + e.getMessage());
        }
        log.info("job " + job + " of " + user + ": process " + pid + " runs at " + granted
                + (granted.equals(asked) ? "" : " (asked " + asked + ", partition " + p.name() + "'s maximum applies)"));
        return MessageBody.empty().put("granted", granted.toString());
    }

    /** How often, and how far apart, an empty environment is read again: 100 ms at most, for a program being exec'd. */
    private static final int EMPTY_ENVIRON_RETRIES = 20;
    private static final long EMPTY_ENVIRON_PAUSE_NANOS = 5_000_000;

    /** Whether {@code pid} has ended (gone, or a zombie whose environment can no longer be read). */
    private static boolean exited(long pid) {
        try {
            String status = Files.readString(Path.of("/proc", Long.toString(pid), "status"), StandardCharsets.US_ASCII);
            return status.lines().anyMatch(l -> l.startsWith("State:") && (l.contains("Z (zombie)") || l.contains("X (dead)")));
        } catch (IOException e) {
            return !Files.exists(Path.of("/proc", Long.toString(pid)));
        }
    }

    /**
     * The process is the job's (environment) and the user's (real, effective, saved and file-system uid
     * all the user's: a set-uid program is refused); otherwise refused. Returns its start time, which
     * {@link ProcessScheduler} checks again so that a reused pid is never touched.
     */
    private static String checkProcess(long pid, String job, String user) throws IOException {
        String started = ProcessScheduler.startTime(pid);
        Path proc = Path.of("/proc", Long.toString(pid));
        byte[] environ;
        String status;
        try {
            environ = Files.readAllBytes(proc.resolve("environ"));
            // The io-manager reports a peer once its first program runs; the peer then execs setpriv,
            // taskset and java in turn, and while the kernel swaps a program in, environ reads empty.
            for (int i = 0; environ.length == 0 && i < EMPTY_ENVIRON_RETRIES; i++) {
                java.util.concurrent.locks.LockSupport.parkNanos(EMPTY_ENVIRON_PAUSE_NANOS);
                environ = Files.readAllBytes(proc.resolve("environ"));
            }
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
        String uid = Commands.output(java.util.List.of("id", "-u", "--", user));
        String[] uids = status.lines().filter(l -> l.startsWith("Uid:")).findFirst().orElse("Uid:").trim().split("\\s+");
        if (uids.length != 5 || !java.util.Arrays.stream(uids, 1, 5).allMatch(uid::equals)) {
            throw new IOException("it does not run as " + user);
        }
        return started;
    }
}
