package io.cohort.cli;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.SchedulingRequest;
import io.cohort.daemon.ClusterUnreachableException;
import io.cohort.daemon.DaemonClient;
import io.cohort.daemon.RequestRefusedException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A job's life with the cluster's daemons: registered as active with the daemon of every member it
 * runs on before anything starts (in parallel), each started peer handed to its member's daemon for
 * the partition's scheduling, and released when the job ends. The registrations are TCP connections
 * held by this launcher, so a launcher that dies (even by SIGKILL) releases its job on every member as
 * the kernel closes them; a daemon that drops one while the job runs (restarted) gets it again. Scheduling
 * requests run on one thread of their own, never on the controller's.
 */
final class ClusterSession implements AutoCloseable {
    private final String partition;
    private final SchedulingRequest scheduling;
    private final Map<String, DaemonClient.JobRegistration> registrations;
    /** The launcher's own lines for its stderr, in order with the peers' stderr lines. */
    private final Consumer<String> log;
    private final boolean verbose;
    private final ExecutorService scheduler = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "cohort-schedule");
        t.setDaemon(true);
        return t;
    });

    private ClusterSession(String partition, SchedulingRequest scheduling, Map<String, DaemonClient.JobRegistration> registrations,
                           Consumer<String> log, boolean verbose) {
        this.partition = partition;
        this.scheduling = scheduling;
        this.registrations = registrations;
        this.log = log;
        this.verbose = verbose;
    }

    /**
     * Registers job {@code jobId} of {@code user} with the daemons of {@code members}.
     *
     * @throws ClusterUnreachableException a member's daemon did not answer (nothing is left registered)
     * @throws RequestRefusedException     a member's daemon refused (nothing is left registered)
     */
    static ClusterSession open(ClusterDb db, DaemonClient client, List<String> members, String jobId, String user,
                               String partition, SchedulingRequest scheduling, Consumer<String> log, boolean verbose)
            throws ClusterUnreachableException, RequestRefusedException {
        Map<String, CompletableFuture<DaemonClient.JobRegistration>> pending = new LinkedHashMap<>();
        for (String m : members) {
            pending.put(m, CompletableFuture.supplyAsync(() -> {
                try {
                    // A daemon restarted during the job gets it back; the user hears of it in a line each.
                    return client.registerJob(db, m, jobId, user, partition, notice -> log.accept("cohort: " + notice));
                } catch (IOException e) {
                    throw new CompletionException(new ClusterUnreachableException("cannot register job " + jobId + " with the daemon of "
                            + m + " (" + DaemonClient.describe(e) + "); see 'cohort status'"));
                } catch (RequestRefusedException e) {
                    throw new CompletionException(e);
                }
            }));
        }
        Map<String, DaemonClient.JobRegistration> done = new LinkedHashMap<>();
        Throwable failure = null;
        for (Map.Entry<String, CompletableFuture<DaemonClient.JobRegistration>> e : pending.entrySet()) {
            try {
                done.put(e.getKey(), e.getValue().join());
            } catch (CompletionException ex) {
                if (failure == null) {
                    failure = ex.getCause();
                }
            }
        }
        if (failure != null) {
            done.values().forEach(DaemonClient.JobRegistration::close);
            if (failure instanceof RequestRefusedException r) {
                throw new RequestRefusedException("a member's daemon refused job " + jobId + ": " + r.getMessage());
            }
            if (failure instanceof ClusterUnreachableException u) {
                throw u;
            }
            // A daemon of another version, or something else on its port, answered nonsense.
            throw new ClusterUnreachableException("cannot register job " + jobId + ": " + (failure instanceof Exception e
                    ? DaemonClient.describe(e) : failure.toString()));
        }
        if (verbose) {
            log.accept("cohort: job " + jobId + " registered with the daemons of " + String.join(", ", members)
                    + "; partition " + partition + ", " + scheduling);
        }
        return new ClusterSession(partition, scheduling, done, log, verbose);
    }

    /** A peer started (controller thread): its member's daemon applies the partition's scheduling, off this thread. */
    void peerStarted(int rank, String member, long pid) {
        DaemonClient.JobRegistration r = registrations.get(member);
        if (r == null) {
            return;
        }
        scheduler.execute(() -> {
            try {
                String granted = r.schedule(pid, scheduling);
                if (verbose && !granted.equals("exited")) {
                    log.accept("cohort: rank " + rank + " (pid " + pid + " on " + member + ") scheduled at " + granted);
                }
            } catch (IOException | RequestRefusedException | RuntimeException e) {
                // The job still runs, only at the default priority: say so once per peer, do not stop it.
                log.accept("cohort: rank " + rank + " on " + member + " keeps its default scheduling: "
                        + (e instanceof RequestRefusedException ? e.getMessage() : DaemonClient.describe(e)));
            }
        });
    }

    /** Waits briefly for scheduling requests in flight, then releases the job on every member. */
    @Override
    public void close() {
        scheduler.shutdown();
        try {
            scheduler.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<CompletableFuture<Void>> closing = new ArrayList<>();
        for (DaemonClient.JobRegistration r : registrations.values()) {
            closing.add(CompletableFuture.runAsync(r::close));
        }
        closing.forEach(CompletableFuture::join);
    }
}
