package io.cohort.engine;

import io.cohort.Request;

import java.util.List;

/** Waiting on several requests at once, for {@link Request#awaitAny}. */
public final class RequestWaiter {
    private RequestWaiter() {
    }

    public static void awaitAny(List<? extends Request> requests) {
        for (Request r : requests) {
            if (r.isDone()) {
                return;
            }
        }
        Request first = requests.get(0);
        if (!(first instanceof AbstractRequest a)) {
            throw new IllegalArgumentException("not a Cohort request: " + first);
        }
        a.engine.waitAny(requests);
    }
}
