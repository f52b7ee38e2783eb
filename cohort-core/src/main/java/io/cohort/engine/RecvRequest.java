package io.cohort.engine;

import io.cohort.Message;
import io.cohort.Status;
import io.cohort.profile.Profiling;

import java.nio.ByteBuffer;

/**
 * A receive: its match criteria, an optional user buffer, and the result. While posted it is a
 * node of the matching engine's posted queue ({@link #prev}, {@link #next}), so posting and
 * matching allocate nothing; the request of a blocking receive is reused by the thread's next one.
 */
final class RecvRequest extends AbstractRequest {
    int context;
    int source;
    int tag;
    /** Null when the receive accepts any length and returns a {@link Message}. */
    ByteBuffer userBuffer;
    /** Where in {@link #userBuffer} the message goes (an index), and how many bytes fit there. */
    int userOffset;
    int userCapacity;
    /** Whether receiving moves {@link #userBuffer}'s position past the message (the position-relative forms). */
    boolean userAdvance;
    private Message message;
    /** Links of the posted queue; guarded by the matching engine's lock. */
    RecvRequest prev;
    RecvRequest next;
    boolean posted;
    /**
     * For the program's receives ({@link #userOperation} set): whether its message was handed over
     * (its Receive event recorded, or no recording wanted it). Touched by the threads that wait on it.
     */
    private boolean handedOver;

    RecvRequest(ProgressEngine engine) {
        super(engine);
    }

    /** A receive into {@code userBuffer} from its position, moving it (or, for null, of a message of any length). */
    RecvRequest start(int context, int source, int tag, ByteBuffer userBuffer) {
        return userBuffer == null ? start(context, source, tag, null, 0, 0, false)
                : start(context, source, tag, userBuffer, userBuffer.position(), userBuffer.remaining(), true);
    }

    /** A receive of at most {@code capacity} bytes into {@code userBuffer} from index {@code offset}. */
    RecvRequest start(int context, int source, int tag, ByteBuffer userBuffer, int offset, int capacity,
                      boolean advance) {
        this.context = context;
        this.source = source;
        this.tag = tag;
        this.userBuffer = userBuffer;
        this.userOffset = offset;
        this.userCapacity = capacity;
        this.userAdvance = advance;
        this.message = null;
        return this;
    }

    /** Copies a message that fits ({@code length <= userCapacity}) from {@code src} into the user's buffer. */
    void fill(ByteBuffer src, int index, int length) {
        userBuffer.put(userOffset, src, index, length);
        if (userAdvance) {
            userBuffer.position(userOffset + length);
        }
    }

    /**
     * A message longer than the buffer: its first {@code userCapacity} bytes go into the buffer, as
     * MPI leaves a truncated receive's buffer, without moving the buffer's position.
     */
    void fillTruncated(ByteBuffer src, int index) {
        userBuffer.put(userOffset, src, index, userCapacity);
    }

    /** The status of the last message this request object received (kept across reuse). */
    private Status lastStatus;

    /**
     * A status for a message it matched. Statuses are immutable, so when a reused request receives
     * a message like the previous one (same source, tag and length, as in every loop of a
     * ping-pong) it hands out the same object: the steady state allocates nothing at all.
     */
    Status statusFor(int src, int t, int length) {
        Status s = lastStatus;
        if (s == null || s.source() != src || s.tag() != t || s.length() != length) {
            s = new Status(src, t, length);
            lastStatus = s;
        }
        return s;
    }

    @Override
    void recycle() {
        userBuffer = null;
        message = null;
        super.recycle();
    }

    @Override
    public boolean cancel() {
        if (!engine.cancelPosted(this)) {
            return false;
        }
        complete(Status.CANCELLED);
        return true;
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
        Status s = result(); // null while pending
        if (s != null && s.cancelled()) {
            throw new IllegalStateException("this receive was cancelled; it carries no message");
        }
        if (message == null) {
            throw new IllegalStateException("receive still pending; await() it first");
        }
        if (userOperation != null) {
            handOver(s);
        }
        return message;
    }

    // ---- the profiler ---------------------------------------------------------------------------

    /**
     * The message's Receive event, once: an instant at the moment the program is handed the message.
     * The wait or test that handed it over records its own duration (a Wait event), so the two never
     * overlap and no time counts twice.
     */
    @Override
    void handOver(Status s) {
        if (handedOver || s.cancelled()) {
            return; // a cancelled receive received nothing to record
        }
        handedOver = true;
        Profiling.receiveHandedOver(context, s.source(), s.tag(), s.length(), sequence, userOperation);
    }
}
