package io.cohort.cli;

import io.cohort.launch.JobRegistry;
import io.cohort.launch.StacksQuery;
import io.cohort.stacks.JobStacks;
import io.cohort.tools.stacks.RawStacksFormatter;
import io.cohort.tools.stacks.StackTree;
import io.cohort.tools.stacks.StackTreeFormatter;
import io.cohort.tools.stacks.ThreadFilter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code cohort stacks [JOB]}: the stacks of every thread of every peer of a running job, merged into
 * one tree whose nodes carry the ranks that are there (see docs/stacks.md). The job is found in this
 * user's job registry ({@link JobRegistry}); its controller collects the stacks ({@link StacksQuery}).
 */
@Command(name = "stacks", sortOptions = false,
        description = "Show where every thread of a running job is: the stacks of all its peers, merged into one tree.",
        customSynopsis = {"cohort stacks [--all-threads] [--raw] [--timeout SECONDS] [JOB]", "       cohort stacks --list"})
final class StacksCommand implements Callable<Integer> {
    static final double TIMEOUT_SECONDS_DEFAULT = 1.5;
    private static final DateTimeFormatter STARTED = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "JOB",
            description = "The job: its id (or the start of it), its launcher's pid or that of the cohort command that started it; needed only when several jobs run.")
    String job;

    @Option(names = "--all-threads", description = "Also show the JVM's housekeeping threads (Reference Handler, Finalizer, ...).")
    boolean allThreads;

    @Option(names = "--raw", description = "Each rank's threads as a thread dump, not merged.")
    boolean raw;

    @Option(names = "--list", description = "List this user's running jobs on this machine.")
    boolean list;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "" + TIMEOUT_SECONDS_DEFAULT,
            description = "How long the peers have to answer; the others are listed as silent (default: ${DEFAULT-VALUE}).")
    double timeoutSeconds;

    @Option(names = "--verbose", description = "Print stack traces of errors.")
    boolean verbose;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help.")
    boolean help;

    Map<String, String> environment = System.getenv();

    @Override
    public Integer call() throws IOException {
        if (!(timeoutSeconds > 0) || timeoutSeconds > 60) {
            throw new UsageException("--timeout must be more than 0 and at most 60 seconds (got " + timeoutSeconds + ")");
        }
        if (list && job != null) {
            throw new UsageException("--list lists every job; give it no JOB");
        }
        JobRegistry registry = JobRegistry.forCurrentUser(environment);
        List<JobRegistry.Entry> jobs = registry.running();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (list) {
            if (jobs.isEmpty()) {
                err.println("cohort: " + noJobs(registry));
                err.flush();
            } else {
                out.print(table(jobs));
                out.flush();
            }
            return 0;
        }
        JobRegistry.Entry chosen = choose(registry, jobs, err);
        if (chosen == null) {
            return io.cohort.launch.ExitCodes.USAGE;
        }
        JobStacks stacks = StacksQuery.ask(chosen, Duration.ofMillis(Math.round(timeoutSeconds * 1000)));
        ThreadFilter filter = ThreadFilter.of(allThreads);
        out.print(raw ? RawStacksFormatter.format(stacks, filter) : StackTreeFormatter.format(stacks, StackTree.merge(stacks, filter)));
        out.flush();
        return 0;
    }

    /** The job to ask, or null after listing several for the user to choose from. */
    private JobRegistry.Entry choose(JobRegistry registry, List<JobRegistry.Entry> jobs, PrintWriter err) {
        if (job == null) {
            if (jobs.isEmpty()) {
                throw new NoJobException(noJobs(registry));
            }
            if (jobs.size() == 1) {
                return jobs.get(0);
            }
            err.print(table(jobs));
            err.println("cohort: " + jobs.size() + " jobs are running; say which: cohort stacks JOB");
            err.flush();
            return null;
        }
        String want = job.trim();
        if (want.isEmpty()) {
            throw new UsageException("JOB is empty; give a job id (or its start) or the launcher's pid, or leave it out");
        }
        List<JobRegistry.Entry> matches = jobs.stream()
                .filter(e -> e.jobId().startsWith(want) || Long.toString(e.pid()).equals(want)
                        || Long.toString(parentOf(e.pid())).equals(want)).toList();
        if (matches.isEmpty()) {
            throw new NoJobException("no running job " + want + " of user " + user() + " on this machine"
                    + (jobs.isEmpty() ? "" : "; 'cohort stacks --list' shows the " + jobs.size() + " there are"));
        }
        if (matches.size() > 1) {
            throw new UsageException("'" + want + "' is the start of " + matches.size() + " job ids ("
                    + String.join(", ", matches.stream().map(JobRegistry.Entry::jobId).toList()) + "); give more of it");
        }
        return matches.get(0);
    }

    /**
     * The pid of the process that started launcher {@code pid}, or -1: the {@code cohort} script
     * runs the launcher's JVM as its child, and the shell's {@code $!} or {@code jobs -l} names the
     * script.
     */
    private static long parentOf(long pid) {
        return ProcessHandle.of(pid).flatMap(ProcessHandle::parent).map(ProcessHandle::pid).orElse(-1L);
    }

    private static String noJobs(JobRegistry registry) {
        return "no running Cohort job of user " + user() + " on this machine (none registered in " + registry.directory() + ")";
    }

    private static String user() {
        return System.getProperty("user.name");
    }

    static String table(List<JobRegistry.Entry> jobs) {
        StringBuilder b = new StringBuilder(String.format("%-8s  %8s  %5s  %-19s  %s%n", "JOB", "PID", "PEERS", "STARTED", "APPLICATION"));
        for (JobRegistry.Entry e : jobs) {
            b.append(String.format("%-8s  %8d  %5d  %-19s  %s%n", e.jobId(), e.pid(), e.size(),
                    STARTED.format(Instant.ofEpochMilli(e.startedMillis()).atZone(ZoneId.systemDefault())), e.application()));
        }
        return b.toString();
    }
}
