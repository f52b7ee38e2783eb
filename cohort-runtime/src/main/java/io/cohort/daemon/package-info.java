/**
 * {@code cohortd}, the daemon on every cluster member (PSE's farmd): its dynamic information (availability,
 * CPUs, load averages, job slots, active jobs) sent as authenticated, time-stamped updates to the load
 * servers, which keep the cluster's table and expire members by TTL; the TCP ring that reports a dead
 * member's daemon within moments; the authenticated request protocol ({@link io.cohort.daemon.DaemonFrame},
 * {@link io.cohort.daemon.MessageType}) and its client ({@link io.cohort.daemon.DaemonClient}) used by
 * {@code cohort status}, {@code cohort admin} and the launcher. See docs/cluster.md.
 *
 * <p>Depends on the JDK and on {@code io.cohort.cluster} (the configuration database's model) only.
 */
package io.cohort.daemon;
