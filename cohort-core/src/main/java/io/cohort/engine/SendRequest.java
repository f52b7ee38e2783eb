package io.cohort.engine;

import io.cohort.CohortException;
import io.cohort.Status;
import io.cohort.transport.SendCompletion;

/**
 * A send in progress; done when its payload may be reused. Its status (destination, tag, length)
 * is built only if someone asks, and the request of a blocking send is reused by the thread's
 * next blocking send ({@link #recycle}), so a blocking send allocates nothing.
 */
final class SendRequest extends AbstractRequest implements SendCompletion {
    private int dest;
    private int tag;
    private int length;

    SendRequest(ProgressEngine engine) {
        super(engine);
    }

    SendRequest start(int dest, int tag, int length) {
        this.dest = dest;
        this.tag = tag;
        this.length = length;
        return this;
    }

    int dest() {
        return dest;
    }

    int tag() {
        return tag;
    }

    @Override
    public void sent() {
        complete(null);
    }

    @Override
    public void failed(CohortException cause) {
        fail(cause);
    }

    @Override
    Status statusOnDemand() {
        return new Status(dest, tag, length);
    }
}
