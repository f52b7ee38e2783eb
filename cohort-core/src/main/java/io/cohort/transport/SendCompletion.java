package io.cohort.transport;

import io.cohort.CohortException;

/** Told exactly once how a send ended. Called from whichever thread finished the send. */
public interface SendCompletion {
    void sent();

    void failed(CohortException cause);

    /** For frames nobody waits on (goodbyes). */
    SendCompletion NONE = new SendCompletion() {
        @Override
        public void sent() {
        }

        @Override
        public void failed(CohortException cause) {
        }
    };
}
