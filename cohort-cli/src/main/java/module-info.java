/** The cohort command. It exports nothing; picocli reads and sets its commands' annotated fields. */
module io.cohort.cli {
    requires io.cohort.core;
    requires io.cohort.runtime;
    requires io.cohort.tools;
    // Not imported: its list of examples (a resource) for cohort examples and cohort run --example,
    // so that the command has them on a module path too, as it has on the class path.
    requires io.cohort.examples;
    requires info.picocli;
    // sun.misc.Signal: SIGUSR1 for the job's stacks, SIGTSTP and SIGCONT for job control.
    requires jdk.unsupported;

    opens io.cohort.cli to info.picocli;
}
