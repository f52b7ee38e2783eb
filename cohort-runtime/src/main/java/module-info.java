/**
 * The launcher side of a job: the controller, the io-manager, the cluster database and cohortd.
 * Exported only to the command line, the one shipped module that drives it.
 */
@SuppressWarnings("module") // the qualified exports name modules built after this one
module io.cohort.runtime {
    requires io.cohort.core;
    // The load servers' load average (io.cohort.daemon), the cluster database's DNS records (io.cohort.cluster).
    requires java.management;
    requires java.naming;

    exports io.cohort.cluster to io.cohort.cli;
    exports io.cohort.daemon to io.cohort.cli;
    exports io.cohort.launch to io.cohort.cli;
}
