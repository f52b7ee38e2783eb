package io.cohort.broadcast.eqa;

/**
 * How a message is broadcast (the EQA paper, sections 3.2 and 3.3). Immutable; any thread.
 */
public enum BroadcastMode {
    /** Every packet is broadcast at once, as the window allows: best for short messages. */
    SIMPLE,
    /**
     * BTP1 + BTP2 bytes are pushed; one designated receiver answers with a PULL once it has them,
     * and only then is the rest broadcast: a long message never floods receivers that are not there.
     */
    PUSH_PULL,
    /** SIMPLE for messages of at most BTP1 + BTP2 bytes, PUSH_PULL above. */
    AUTO;

    /** The mode that applies to a message of {@code length} bytes under {@code btp}. */
    BroadcastMode resolve(int length, int btp) {
        if (this != AUTO) {
            return this;
        }
        return length <= btp ? SIMPLE : PUSH_PULL;
    }
}
