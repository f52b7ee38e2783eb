/**
 * Cohort's API and its implementation, in one jar with no dependencies. Only the API packages are
 * exported to everyone; each internal package that another shipped module imports is exported to
 * exactly those modules (docs/architecture.md, "Modules"). The API reaches its implementation
 * ({@code io.cohort.wireup.CoreProvider}) by name inside this module, so nothing is opened.
 */
@SuppressWarnings("module") // the qualified exports name modules built after this one
module io.cohort.core {
    // The Flight Recorder of cohort run --profile (io.cohort.profile), the thread dumps of cohort
    // stacks (io.cohort.stacks), TCP keep-alive settings (io.cohort.transport.tcp).
    requires jdk.jfr;
    requires java.management;
    requires jdk.net;

    exports io.cohort;
    exports io.cohort.deck;

    exports io.cohort.auth to io.cohort.runtime;
    exports io.cohort.broadcast.eqa to io.cohort.cli;
    exports io.cohort.broadcast.pcode to io.cohort.cli;
    exports io.cohort.collective to io.cohort.runtime, io.cohort.cli, io.cohort.mpi, io.cohort.mpj;
    exports io.cohort.engine to io.cohort.runtime, io.cohort.cli;
    exports io.cohort.idle to io.cohort.cli;
    exports io.cohort.profile to io.cohort.cli, io.cohort.tools;
    exports io.cohort.stacks to io.cohort.runtime, io.cohort.cli, io.cohort.tools;
    exports io.cohort.transport.fault to io.cohort.cli;
    exports io.cohort.transport.shm to io.cohort.runtime;
    exports io.cohort.transport.tcp to io.cohort.runtime;
    exports io.cohort.transport.udp to io.cohort.cli;
    exports io.cohort.wireup to io.cohort.runtime, io.cohort.cli;
}
