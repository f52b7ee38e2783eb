/**
 * What the runtime's servers share about connections: who may hold one ({@link io.cohort.net.ConnectionAdmission}),
 * so that clients without a key cannot keep those with one out. Used by cohortd and the launcher's
 * rendezvous; depends on the JDK only.
 */
package io.cohort.net;
