package io.cohort.engine;

import io.cohort.Communicator;
import io.cohort.MessageTruncatedException;
import io.cohort.PeerClosedException;
import io.cohort.PeerFailedException;
import io.cohort.Status;
import io.cohort.concurrent.CasLock;
import io.cohort.transport.InboundSink;
import io.cohort.transport.InboundTarget;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Pairs arriving messages with posted receives, MPI style: a receive takes the earliest matching
 * arrival; an arrival takes the earliest matching posted receive; arrivals nobody waits for yet
 * wait in the unexpected queue. Matching happens when a message's header arrives, so a large
 * message streams straight into the receive's buffer.
 *
 * <p>Threads: every method holds this engine's {@link CasLock} (one CAS and a plain store, where a
 * monitor costs two CASes: this is on every message's path). Completions (which may unpark
 * waiters) run outside the lock where that is easy, inside it otherwise; they never call back in.
 */
final class MatchingEngine implements InboundSink {
    private final ProgressEngine engine;
    private final CasLock lock = new CasLock();
    /** Posted receives in posting order; the requests carry the links, so the queues allocate nothing. */
    private RecvRequest postedHead;
    private RecvRequest postedTail;
    /** Arrivals nobody has claimed yet, in arrival order; linked the same way. */
    private Arrival unexpectedHead;
    private Arrival unexpectedTail;
    /** The one message per source currently being filled by its transport. */
    private final Target[] inflight;
    private final String[] failedReason;
    /** Set when a peer's goodbye arrived: nothing more comes from it. Guarded by the lock. */
    private final boolean[] closed;
    private final int maxArrayBytes;
    /** Written under the lock after the reason; volatile so {@link #failure} can skip the lock. */
    private volatile int failedCount;
    /** Written under the lock after the flag; volatile so {@link #closed} can skip the lock while no peer closed. */
    private volatile int closedCount;

    /** The longest {@code byte[]} HotSpot allocates; longer messages live in direct memory. */
    static final int MAX_ARRAY_BYTES = Integer.MAX_VALUE - 8;

    MatchingEngine(ProgressEngine engine, int size) {
        this(engine, size, MAX_ARRAY_BYTES);
    }

    MatchingEngine(ProgressEngine engine, int size, int maxArrayBytes) {
        this.engine = engine;
        this.maxArrayBytes = maxArrayBytes;
        this.inflight = new Target[size];
        this.failedReason = new String[size];
        this.closed = new boolean[size];
    }

    // ---- the transport side ------------------------------------------------------------------

    @Override
    public InboundTarget begin(int source, int context, int tag, int length) {
        return begin(source, context, tag, length, -1);
    }

    /** As {@link #begin(int, int, int, int)} for the message numbered {@code sequence} from {@code source}. */
    InboundTarget begin(int source, int context, int tag, int length, long sequence) {
        Target target;
        lock.lock();
        try {
            RecvRequest match = takePosted(context, source, tag);
            Status status = match != null ? match.statusFor(source, tag, length) : new Status(source, tag, length);
            if (match != null) {
                match.sequence = sequence; // published with the completion, like the status
            }
            if (match == null) {
                Arrival a = new Arrival(context, status, sequence);
                appendUnexpected(a);
                target = a;
            } else if (match.userBuffer == null && length > maxArrayBytes) {
                target = new Truncated(match, status, -1);
            } else if (match.userBuffer == null) {
                target = new IntoArray(match, status);
            } else if (match.userCapacity < length) {
                target = new Truncated(match, status, match.userCapacity);
            } else {
                target = new IntoUserBuffer(match, status);
            }
            if (length > 0) {
                inflight[source] = target;
            }
        } finally {
            lock.unlock();
        }
        return target;
    }

    /**
     * The fast path for a message that arrived whole: one lock to match it, then a copy
     * straight from the transport's memory into the receive's buffer (outside the lock: the
     * receive is no longer posted, nobody else can touch it), or into a fresh unexpected arrival.
     */
    @Override
    public void deliver(int source, int context, int tag, ByteBuffer src, int index, int length) {
        deliver(source, context, tag, src, index, length, -1);
    }

    /** As {@link #deliver(int, int, int, ByteBuffer, int, int)} for the message numbered {@code sequence}. */
    void deliver(int source, int context, int tag, ByteBuffer src, int index, int length, long sequence) {
        RecvRequest match;
        lock.lock();
        try {
            match = takePosted(context, source, tag);
            if (match == null) {
                Arrival a = new Arrival(context, new Status(source, tag, length), sequence);
                a.buffer.put(0, src, index, length);
                a.complete = true;
                appendUnexpected(a);
                return;
            }
        } finally {
            lock.unlock();
        }
        match.sequence = sequence;
        Status status = match.statusFor(source, tag, length);
        ByteBuffer user = match.userBuffer;
        if (user == null) {
            if (length > maxArrayBytes) {
                match.fail(new MessageTruncatedException(status, -1));
                return;
            }
            byte[] bytes = new byte[length];
            src.get(index, bytes, 0, length);
            match.completeWithMessage(status, bytes);
        } else if (match.userCapacity < length) {
            match.fillTruncated(src, index);
            match.fail(new MessageTruncatedException(status, match.userCapacity));
        } else {
            match.fill(src, index, length);
            match.complete(status);
        }
    }

    @Override
    public void peerFailed(int source, String reason) {
        List<AbstractRequest> toFail = new ArrayList<>();
        lock.lock();
        try {
            if (failedReason[source] != null) {
                return;
            }
            failedReason[source] = reason;
            failedCount++;
            for (RecvRequest r = postedHead; r != null; ) {
                RecvRequest next = r.next;
                if (r.source == source || r.source == Communicator.ANY_SOURCE) {
                    unlinkPosted(r);
                    toFail.add(r);
                }
                r = next;
            }
            Target half = inflight[source];
            inflight[source] = null;
            if (half instanceof Arrival a) {
                unlinkUnexpected(a);
                if (a.claimedBy != null) {
                    toFail.add(a.claimedBy);
                }
            } else if (half != null) {
                toFail.add(half.request());
            }
        } finally {
            lock.unlock();
        }
        for (AbstractRequest r : toFail) {
            r.fail(new PeerFailedException(source, reason));
        }
    }

    /**
     * The peer said goodbye after everything it sent, so a receive naming it that nothing queued
     * matches can never complete: fail those posted now and any posted later, instead of waiting
     * forever. A receive from any source is left alone (another peer, or this one, may still send).
     */
    @Override
    public void peerClosed(int source) {
        List<RecvRequest> toFail = new ArrayList<>();
        lock.lock();
        try {
            if (closed[source] || failedReason[source] != null) {
                return;
            }
            closed[source] = true;
            closedCount++;
            for (RecvRequest r = postedHead; r != null; ) {
                RecvRequest next = r.next;
                if (r.source == source) {
                    unlinkPosted(r);
                    toFail.add(r);
                }
                r = next;
            }
        } finally {
            lock.unlock();
        }
        for (RecvRequest r : toFail) {
            r.fail(engine.closedFailure(source));
        }
    }

    static PeerClosedException closedFailure(int source) {
        // A program that fails inside try-with-resources closes its world normally before the exception
        // leaves main, so a goodbye cannot tell failing from returning early: the sentence names both.
        return new PeerClosedException(source, "rank " + source + " closed its world (its program ended) without"
                + " sending a message this peer waits for: did it fail, or skip a call the others made?");
    }

    // ---- the user side -----------------------------------------------------------------------

    /** Posts a receive: completes it at once from the unexpected queue, or queues it. */
    void post(RecvRequest r) {
        Arrival found = null;
        String failure = null;
        int failedPeer = -1;
        lock.lock();
        try {
            for (Arrival a = unexpectedHead; a != null; a = a.next) {
                if (a.claimedBy == null && r.matches(a.context, a.status.source(), a.status.tag())) {
                    unlinkUnexpected(a);
                    found = a;
                    if (!a.complete) {
                        a.claimedBy = r; // finished when the transport completes the arrival
                        return;
                    }
                    break;
                }
            }
            if (found == null) {
                failedPeer = failedPeerFor(r.source);
                if (failedPeer >= 0) {
                    failure = failedReason[failedPeer];
                } else if (r.source >= 0 && closed[r.source]) {
                    failedPeer = r.source;
                } else {
                    appendPosted(r);
                    return;
                }
            }
        } finally {
            lock.unlock();
        }
        if (found != null) {
            deliver(found, r);
        } else if (failure == null) {
            r.fail(engine.closedFailure(failedPeer));
        } else {
            r.fail(new PeerFailedException(failedPeer, failure));
        }
    }

    /** Removes a pending receive nobody will wait for (not used for matched ones). */
    boolean cancel(RecvRequest r) {
        lock.lock();
        try {
            if (!r.posted) {
                return false;
            }
            unlinkPosted(r);
            return true;
        } finally {
            lock.unlock();
        }
    }

    Optional<Status> probe(int context, int source, int tag) {
        lock.lock();
        try {
            for (Arrival a = unexpectedHead; a != null; a = a.next) {
                if (a.claimedBy == null && a.context == context && (source < 0 || source == a.status.source())
                        && (tag < 0 || tag == a.status.tag())) {
                    return Optional.of(a.status);
                }
            }
            return Optional.empty();
        } finally {
            lock.unlock();
        }
    }

    // ---- the two queues (call with the lock held) ---------------------------------------------

    /** Unlinks and returns the earliest posted receive that matches, or null. */
    private RecvRequest takePosted(int context, int source, int tag) {
        for (RecvRequest r = postedHead; r != null; r = r.next) {
            if (r.matches(context, source, tag)) {
                unlinkPosted(r);
                return r;
            }
        }
        return null;
    }

    private void appendPosted(RecvRequest r) {
        r.prev = postedTail;
        r.next = null;
        if (postedTail == null) {
            postedHead = r;
        } else {
            postedTail.next = r;
        }
        postedTail = r;
        r.posted = true;
    }

    private void unlinkPosted(RecvRequest r) {
        if (r.prev == null) {
            postedHead = r.next;
        } else {
            r.prev.next = r.next;
        }
        if (r.next == null) {
            postedTail = r.prev;
        } else {
            r.next.prev = r.prev;
        }
        r.prev = null;
        r.next = null;
        r.posted = false;
    }

    private void appendUnexpected(Arrival a) {
        a.prev = unexpectedTail;
        a.next = null;
        if (unexpectedTail == null) {
            unexpectedHead = a;
        } else {
            unexpectedTail.next = a;
        }
        unexpectedTail = a;
        a.queued = true;
    }

    private void unlinkUnexpected(Arrival a) {
        if (!a.queued) {
            return;
        }
        if (a.prev == null) {
            unexpectedHead = a.next;
        } else {
            a.prev.next = a.next;
        }
        if (a.next == null) {
            unexpectedTail = a.prev;
        } else {
            a.next.prev = a.prev;
        }
        a.prev = null;
        a.next = null;
        a.queued = false;
    }

    /**
     * The reason a peer failed, or null if it has not. Every send asks, so the common answer comes
     * without the lock: a volatile read of the count of failures, which is written after the reason.
     */
    String failure(int peer) {
        if (failedCount == 0) {
            return null;
        }
        lock.lock();
        try {
            return failedReason[peer];
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether the peer said goodbye. Everything it sent was queued before this turned true, so a
     * probe that finds nothing from it after this answered true will never find anything.
     */
    boolean closed(int peer) {
        if (closedCount == 0) {
            return false;
        }
        lock.lock();
        try {
            return closed[peer];
        } finally {
            lock.unlock();
        }
    }

    /** A failed peer that makes a receive from {@code source} hopeless, or -1. */
    private int failedPeerFor(int source) {
        if (failedCount == 0) {
            return -1;
        }
        if (source >= 0) {
            return failedReason[source] != null ? source : -1;
        }
        for (int i = 0; i < failedReason.length; i++) {
            if (failedReason[i] != null) {
                return i;
            }
        }
        return -1;
    }

    private static void deliver(Arrival a, RecvRequest r) {
        r.sequence = a.sequence;
        if (r.userBuffer == null && a.data == null) {
            r.fail(new MessageTruncatedException(a.status, -1));
        } else if (r.userBuffer == null) {
            r.completeWithMessage(a.status, a.data);
        } else if (r.userCapacity < a.status.length()) {
            r.fillTruncated(a.buffer, 0);
            r.fail(new MessageTruncatedException(a.status, r.userCapacity));
        } else {
            r.fill(a.buffer, 0, a.status.length());
            r.complete(a.status);
        }
    }

    private void finished(int source, Target t) {
        lock.lock();
        try {
            if (inflight[source] == t) {
                inflight[source] = null;
            }
        } finally {
            lock.unlock();
        }
    }

    // ---- targets -----------------------------------------------------------------------------

    private abstract class Target implements InboundTarget {
        final Status status;

        Target(Status status) {
            this.status = status;
        }

        abstract AbstractRequest request();

        @Override
        public final void complete() {
            if (status.length() > 0) {
                finished(status.source(), this);
            }
            onComplete();
        }

        abstract void onComplete();
    }

    /**
     * A message nobody waited for yet; lives in the unexpected queue. Its bytes are a {@code byte[]}
     * a later receive can take over without copying, or direct memory when too long for an array.
     */
    private final class Arrival extends Target {
        final int context;
        /** Its number among the messages from its source ({@link MessageSequences}). */
        final long sequence;
        final byte[] data;
        final ByteBuffer buffer;
        boolean complete;
        RecvRequest claimedBy;
        /** Links of the unexpected queue, and whether it is in it; guarded by the lock. */
        Arrival prev;
        Arrival next;
        boolean queued;

        Arrival(int context, Status status, long sequence) {
            super(status);
            this.context = context;
            this.sequence = sequence;
            if (status.length() > maxArrayBytes) {
                this.data = null;
                this.buffer = ByteBuffer.allocateDirect(status.length());
            } else {
                this.data = new byte[status.length()];
                this.buffer = ByteBuffer.wrap(data);
            }
        }

        @Override
        public ByteBuffer buffer() {
            return buffer;
        }

        @Override
        AbstractRequest request() {
            return claimedBy;
        }

        @Override
        void onComplete() {
            RecvRequest claimer;
            lock.lock();
            try {
                complete = true;
                claimer = claimedBy;
            } finally {
                lock.unlock();
            }
            if (claimer != null) {
                deliver(this, claimer);
            }
        }
    }

    private final class IntoArray extends Target {
        final RecvRequest request;
        final byte[] data;
        final ByteBuffer buffer;

        IntoArray(RecvRequest request, Status status) {
            super(status);
            this.request = request;
            this.data = new byte[status.length()];
            this.buffer = ByteBuffer.wrap(data);
        }

        @Override
        public ByteBuffer buffer() {
            return buffer;
        }

        @Override
        AbstractRequest request() {
            return request;
        }

        @Override
        void onComplete() {
            request.completeWithMessage(status, data);
        }
    }

    private final class IntoUserBuffer extends Target {
        final RecvRequest request;
        final ByteBuffer buffer;
        final int end;

        IntoUserBuffer(RecvRequest request, Status status) {
            super(status);
            this.request = request;
            this.end = request.userOffset + status.length();
            this.buffer = request.userBuffer.duplicate();
            this.buffer.clear().limit(end).position(request.userOffset);
        }

        @Override
        public ByteBuffer buffer() {
            return buffer;
        }

        @Override
        AbstractRequest request() {
            return request;
        }

        @Override
        void onComplete() {
            if (request.userAdvance) {
                request.userBuffer.position(end);
            }
            request.complete(status);
        }
    }

    /**
     * The matched receive cannot hold the message (its buffer is too small, or it wants a
     * {@code byte[]} longer than Java allows, capacity -1): consume the bytes, put the first
     * {@code capacity} into its buffer, then fail it.
     */
    private final class Truncated extends Target {
        final RecvRequest request;
        final ByteBuffer buffer;
        final int capacity;

        Truncated(RecvRequest request, Status status, int capacity) {
            super(status);
            this.request = request;
            this.capacity = capacity;
            this.buffer = status.length() > maxArrayBytes ? ByteBuffer.allocateDirect(status.length())
                    : ByteBuffer.allocate(status.length());
        }

        @Override
        public ByteBuffer buffer() {
            return buffer;
        }

        @Override
        AbstractRequest request() {
            return request;
        }

        @Override
        void onComplete() {
            if (capacity > 0) {
                request.fillTruncated(buffer, 0);
            }
            request.fail(new MessageTruncatedException(status, capacity));
        }
    }
}
