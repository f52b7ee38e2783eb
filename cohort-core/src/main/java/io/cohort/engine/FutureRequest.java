package io.cohort.engine;

import io.cohort.Request;

import java.util.concurrent.CompletableFuture;

/**
 * A request that completes on a thread of its own rather than through a progress engine's polling
 * (a nonblocking collective): {@link RequestWaiter#awaitAny} waits on its future, since no engine
 * would wake it.
 */
public interface FutureRequest extends Request {
    /** Completes, normally or not, when the request does. */
    CompletableFuture<?> completion();
}
