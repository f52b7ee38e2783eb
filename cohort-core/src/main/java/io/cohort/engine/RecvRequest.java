package io.cohort.engine;

import io.cohort.Message;
import io.cohort.Status;

import java.nio.ByteBuffer;

/** A receive: its match criteria, an optional user buffer, and the result. */
final class RecvRequest extends AbstractRequest {
    final int context;
    final int source;
    final int tag;
    /** Null when the receive accepts any length and returns a {@link Message}. */
    final ByteBuffer userBuffer;
    /** Rank of the sender, in the communicator's numbering, is filled by the engine. */
    private Message message;

    RecvRequest(ProgressEngine engine, int context, int source, int tag, ByteBuffer userBuffer) {
        super(engine);
        this.context = context;
        this.source = source;
        this.tag = tag;
        this.userBuffer = userBuffer;
    }

    boolean matches(int ctx, int src, int t) {
        return ctx == context && (source < 0 || source == src) && (tag < 0 || tag == t);
    }

    void completeWithMessage(Status s, byte[] payload) {
        this.message = new Message(s, payload);
        complete(s);
    }

    @Override
    public Message message() {
        if (userBuffer != null) {
            throw new IllegalStateException("this receive wrote into a user buffer; it carries no message");
        }
        result();
        if (message == null) {
            throw new IllegalStateException("receive still pending; await() it first");
        }
        return message;
    }
}
