package io.cohort.engine;

import io.cohort.Message;
import io.cohort.Request;
import io.cohort.Status;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.function.IntUnaryOperator;

/**
 * A request whose status and message name the source in a communicator's ranks instead of the
 * engine's: {@code sourceMap} turns the engine's rank into the communicator's. Used by
 * communicators made from the world and by the collectives' channel over the engine.
 *
 * <p>Threads: as the wrapped request.
 */
public final class TranslatedRequest implements Request {
    private final Request inner;
    private final IntUnaryOperator sourceMap;

    public TranslatedRequest(Request inner, IntUnaryOperator sourceMap) {
        this.inner = inner;
        this.sourceMap = sourceMap;
    }

    /** The engine's request underneath. */
    Request inner() {
        return inner;
    }

    /** {@code s} with its source translated (null stays null). */
    public static Status translate(Status s, IntUnaryOperator sourceMap) {
        return s == null ? null : new Status(sourceMap.applyAsInt(s.source()), s.tag(), s.length());
    }

    /** {@code m} with its source translated (null stays null). */
    public static Message translate(Message m, IntUnaryOperator sourceMap) {
        return m == null ? null : new Message(translate(m.status(), sourceMap), m.bytes());
    }

    @Override
    public Status await() {
        return translate(inner.await(), sourceMap);
    }

    @Override
    public Status await(Duration timeout) throws TimeoutException {
        return translate(inner.await(timeout), sourceMap);
    }

    @Override
    public boolean test() {
        return inner.test();
    }

    @Override
    public boolean isDone() {
        return inner.isDone();
    }

    @Override
    public Message message() {
        return translate(inner.message(), sourceMap);
    }
}
