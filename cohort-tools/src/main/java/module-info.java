/** The parallel tools' reports: cohort prof's and cohort stacks', which only the command line shows. */
@SuppressWarnings("module") // the qualified exports name modules built after this one
module io.cohort.tools {
    requires io.cohort.core;
    // Reads the peers' Flight Recorder files (jdk.jfr.consumer).
    requires jdk.jfr;

    exports io.cohort.tools.prof to io.cohort.cli;
    exports io.cohort.tools.stacks to io.cohort.cli;
}
