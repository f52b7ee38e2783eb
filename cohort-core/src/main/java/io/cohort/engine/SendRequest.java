package io.cohort.engine;

import io.cohort.CohortException;
import io.cohort.Status;
import io.cohort.transport.SendCompletion;

/** A send in progress; done when its payload may be reused. */
final class SendRequest extends AbstractRequest implements SendCompletion {
    private final Status status;

    SendRequest(ProgressEngine engine, int dest, int tag, int length) {
        super(engine);
        this.status = new Status(dest, tag, length);
    }

    @Override
    public void sent() {
        complete(status);
    }

    @Override
    public void failed(CohortException cause) {
        fail(cause);
    }
}
