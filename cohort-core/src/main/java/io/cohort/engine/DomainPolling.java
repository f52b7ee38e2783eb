package io.cohort.engine;

import io.cohort.BroadcastDomain;

/**
 * Who polls a peer's broadcast domain while its program computes, so NACKs are answered and STATUS
 * sent between calls: the peer's {@link ProgressAgent} in a launched job, one
 * {@link io.cohort.broadcast.pcode.DomainAgent} per peer in an in-JVM job.
 */
public interface DomainPolling {
    /** Starts polling {@code domain} in the background. */
    void startPolling(BroadcastDomain domain);

    /** Stops polling it (it is closed). */
    void stopPolling(BroadcastDomain domain);
}
