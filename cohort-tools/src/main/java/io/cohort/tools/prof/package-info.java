/**
 * The analysis side of Cohort's parallel profiler ({@code cohort prof DIR}): reads the Java Flight
 * Recorder file each peer of a {@code cohort run --profile=DIR} job wrote ({@code <App>.prof.<rank>.jfr}),
 * and turns them into an mpiP-like text report ({@link io.cohort.tools.prof.TextReport}), a
 * self-contained HTML report with SVG plots and a timeline of every peer ({@link
 * io.cohort.tools.prof.HtmlReport}) and a Chrome trace-event JSON file for Perfetto ({@link
 * io.cohort.tools.prof.ChromeTrace}). The trace's flows and the timeline's arrows pair sends with
 * receives alike ({@link io.cohort.tools.prof.MessagePairs}).
 *
 * <p>Flow: {@link io.cohort.tools.prof.ProfileSet} loads every file with {@link
 * io.cohort.tools.prof.PeerProfileReader} into {@link io.cohort.tools.prof.PeerProfile}s; a {@link
 * io.cohort.tools.prof.ProfileAnalysis} computes the tables of one {@link io.cohort.tools.prof.Scope}
 * (all peers, averaged, or one rank); the reports only format them. The event names and fields
 * read are the contract in {@link io.cohort.tools.prof.ProfileEvents}; fields added later are
 * ignored (or carried into the trace's args), missing ones read as "unknown".
 *
 * <p>May depend on the JDK only ({@code jdk.jfr.consumer} included); single-threaded: one command
 * builds and writes one report.
 */
package io.cohort.tools.prof;
