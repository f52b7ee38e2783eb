package io.cohort.engine;

import io.cohort.Message;
import io.cohort.Status;
import io.cohort.profile.Profiling;
import io.cohort.profile.ReceiveEvent;

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
    private Message message;
    /** Links of the posted queue; guarded by the matching engine's lock. */
    RecvRequest prev;
    RecvRequest next;
    boolean posted;
    /**
     * For the program's receives ({@link #userOperation} set): whether its message was handed over
     * (its Receive event recorded, or no recording wanted it), and the event a wait on several
     * requests began for it. Touched by the threads that wait on it.
     */
    private boolean handedOver;
    private ReceiveEvent pending;

    RecvRequest(ProgressEngine engine) {
        super(engine);
    }

    RecvRequest start(int context, int source, int tag, ByteBuffer userBuffer) {
        this.context = context;
        this.source = source;
        this.tag = tag;
        this.userBuffer = userBuffer;
        this.message = null;
        return this;
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
        Status s = result();
        if (message == null) {
            throw new IllegalStateException("receive still pending; await() it first");
        }
        if (userOperation != null) {
            handOver(null, s);
        }
        return message;
    }

    // ---- the profiler ---------------------------------------------------------------------------

    @Override
    void handOver(ReceiveEvent started, Status s) {
        if (handedOver) {
            return;
        }
        handedOver = true;
        ReceiveEvent e = started != null ? started : takePending();
        if (e == null) {
            e = Profiling.startReceive(); // seen outside a wait (isDone, message): an instant
        }
        if (e != null) {
            e.matched(s.source(), s.tag(), s.length(), sequence);
            e.finish(context, userOperation);
        }
    }

    @Override
    void beginPendingReceive() {
        if (!handedOver && pending == null) {
            pending = Profiling.startReceive();
        }
    }

    @Override
    void dropPendingReceive() {
        pending = null;
    }

    @Override
    ReceiveEvent receiveEventForCall() {
        if (handedOver) {
            return null;
        }
        ReceiveEvent e = takePending();
        return e != null ? e : Profiling.startReceive();
    }

    private ReceiveEvent takePending() {
        ReceiveEvent e = pending;
        pending = null;
        return e;
    }
}
