/**
 * The {@code cohort} command line, built with picocli: one class per subcommand ({@link
 * io.cohort.cli.RunCommand}, {@link io.cohort.cli.ExamplesCommand}, {@code cohort db} and its
 * {@code Db*Command}s over the cluster database, {@link io.cohort.cli.ProfCommand} over the profiler's recordings, {@link io.cohort.cli.StacksCommand} over a running job's
 * stacks, with {@link io.cohort.cli.StacksSignal} and {@link io.cohort.cli.JobControl} the only uses of {@code sun.misc.Signal}), and one place that turns
 * exceptions into the documented exit codes and one-sentence messages ({@link io.cohort.cli.ExitCodeMapper}).
 * May depend on picocli, {@code io.cohort.launch} and {@code io.cohort.cluster} (cohort-runtime), {@code io.cohort.tools}
 * (cohort-tools) and cohort-core; nothing depends on it.
 */
package io.cohort.cli;
