package io.cohort;


/**
 * The global program is not correct (the paper's Assumption 1 does not hold): a request found no
 * matching multicast within the call time-out, a request met a multicast to a different target
 * set, or a multicast waited too long for peers that never handle its frames. The message names
 * the call, this peer's position in its program and the peers involved.
 */
public final class GlobalProgramException extends CohortException {
    private static final long serialVersionUID = 1L;

    public GlobalProgramException(String message) {
        super(message);
    }
}
