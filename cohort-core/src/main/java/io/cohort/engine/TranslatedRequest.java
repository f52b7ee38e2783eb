package io.cohort.engine;

import io.cohort.Message;
import io.cohort.MessageTruncatedException;
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
        return s == null || s.cancelled() ? s : new Status(sourceMap.applyAsInt(s.source()), s.tag(), s.length());
    }

    /** {@code m} with its source translated (null stays null). */
    public static Message translate(Message m, IntUnaryOperator sourceMap) {
        return m == null ? null : new Message(translate(m.status(), sourceMap), m.bytes());
    }

    /** {@code e} naming its sender in the communicator's ranks, as the status does. */
    public static MessageTruncatedException translate(MessageTruncatedException e, IntUnaryOperator sourceMap) {
        return e.withSource(sourceMap.applyAsInt(e.status().source()));
    }

    @Override
    public Status await() {
        try {
            return translate(inner.await(), sourceMap);
        } catch (MessageTruncatedException e) {
            throw translate(e, sourceMap);
        }
    }

    @Override
    public Status await(Duration timeout) throws TimeoutException {
        try {
            return translate(inner.await(timeout), sourceMap);
        } catch (MessageTruncatedException e) {
            throw translate(e, sourceMap);
        }
    }

    @Override
    public boolean test() {
        try {
            return inner.test();
        } catch (MessageTruncatedException e) {
            throw translate(e, sourceMap);
        }
    }

    @Override
    public boolean isDone() {
        return inner.isDone();
    }

    @Override
    public boolean cancel() {
        return inner.cancel();
    }

    @Override
    public Message message() {
        return translate(inner.message(), sourceMap);
    }
}
