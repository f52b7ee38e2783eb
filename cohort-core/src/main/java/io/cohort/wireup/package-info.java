/**
 * The peer side of a launched job: reading the job's identity from the environment, the control
 * connection to the controlling process (publish endpoints, receive everyone's, report failures),
 * and the {@link io.cohort.wireup.PeerMain} bootstrap that runs a program's {@code main} under
 * {@code cohort run}. The control protocol itself ({@link io.cohort.wireup.ControlFrame},
 * {@link io.cohort.wireup.ControlMessageType}) is shared with the launcher in {@code cohort-runtime}.
 */
package io.cohort.wireup;
