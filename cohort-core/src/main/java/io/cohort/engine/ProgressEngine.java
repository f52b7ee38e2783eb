package io.cohort.engine;

import io.cohort.CohortException;
import io.cohort.Message;
import io.cohort.PeerClosedException;
import io.cohort.PeerFailedException;
import io.cohort.Request;
import io.cohort.Status;
import io.cohort.idle.BackoffIdleStrategy;
import io.cohort.idle.Blocker;
import io.cohort.idle.IdleStrategies;
import io.cohort.idle.IdleStrategy;
import io.cohort.profile.ReceiveSpan;
import io.cohort.stacks.PeerWait;
import io.cohort.stacks.PeerWaits;
import io.cohort.transport.InboundSink;
import io.cohort.transport.InboundTarget;
import io.cohort.transport.Transport;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One peer's communication engine: routes sends to transports, matches arrivals to receives, and
 * runs the progress role.
 *
 * <p>Progress is driven by the threads that wait ("progress on call", as MPI libraries do): the
 * first waiting thread takes the progress lock and polls the transports until its own request is
 * done, completing other threads' requests on the way; the rest park until woken. When nobody is
 * inside the library the {@link ProgressAgent} polls now and then, so arrivals are drained and
 * failures noticed. This keeps the ping-pong path on one thread, with no hand-off between threads.
 */
public final class ProgressEngine implements InboundSink {
    private final int rank;
    private final int size;
    private final ThreadLocal<Waiter> waiters;
    private final String idleName;
    private final MatchingEngine matching;
    /** Message numbers per peer, sent and arrived: what pairs the profiler's sends with receives. */
    private final MessageSequences sequences;
    private final Transport[] routes;
    private final List<Transport> transports = new ArrayList<>();
    private final Set<Thread> parked = ConcurrentHashMap.newKeySet();
    /**
     * The progress lock itself: the thread that holds the progress role, or null. Taken with a CAS
     * ({@link #tryAcquireProgress}) and given back with a release store, which on x86 is a plain
     * store: a lock built for the one operation the engine needs (try, never wait in line), cheaper
     * than a {@code ReentrantLock}'s volatile release. {@link #wakeOwnerIfBlocked} reads it too.
     */
    private volatile Thread owner;
    private volatile Transport blockingTransport;
    /** The transports that wake {@link #blockingTransport} through a channel; asked before each of its sleeps. */
    private volatile Transport[] sleepPartners = new Transport[0];
    /**
     * The blocking transport carries everything and its sleep does a poll's work when something is
     * ready ({@link Transport#blockReplacesPoll}): an owner whose strategy blocks at once skips the
     * poll before each sleep, which under {@code park} found nothing on most waits (an empty
     * {@code epoll_wait} per wait where peers outnumber cores).
     */
    private volatile boolean sleepInsteadOfPoll;
    private volatile PeerFailureListener failureListener;
    /** Peers whose close a failed receive or probe has been told to the listener for. */
    private final Set<Integer> awaitedClosed = ConcurrentHashMap.newKeySet();
    /** Contexts whose arrivals bypass matching (see {@link #onContext}); null while there are none. */
    private volatile ContextHandlers contextHandlers;
    private volatile boolean closed;
    /** Set by {@link #programClosing}. */
    private volatile boolean programDone;
    /** Yields of the goodbye wait before it blocks. */
    static final int CLOSE_YIELDS = 10;
    /** Longest block of the goodbye wait: the last goodbye is seen within this. */
    static final long CLOSE_MAX_BLOCK_NANOS = 1_000_000L;
    /** Launcher notices of peers that are gone, applied by the next progress owner. */
    private final java.util.concurrent.ConcurrentLinkedQueue<Object[]> goneNotices =
            new java.util.concurrent.ConcurrentLinkedQueue<>();
    private boolean transportsClosed;

    /** Told the first time each peer is seen to fail (the wire-up reports it to the launcher). */
    @FunctionalInterface
    public interface PeerFailureListener {
        void peerFailed(int peer, String reason);

        /**
         * Told the first time a receive or probe fails because {@code peer} had closed its world, so
         * that the launcher does not take this peer's failure that follows for a cause of its own.
         */
        default void awaitedClosed(int peer) {
        }
    }

    public ProgressEngine(int rank, int size, Supplier<IdleStrategy> idleFactory) {
        if (size < 1 || rank < 0 || rank >= size) {
            throw new IllegalArgumentException("rank " + rank + " is not in a job of " + size);
        }
        this.rank = rank;
        this.size = size;
        this.waiters = new ThreadLocal<>() {
            @Override
            protected Waiter initialValue() {
                Waiter w = new Waiter(idleFactory.get());
                PeerWaits.register(Thread.currentThread(), w); // once per thread: for the stacks
                return w;
            }
        };
        this.idleName = idleFactory.get().name();
        this.matching = new MatchingEngine(this, size);
        this.sequences = new MessageSequences(size);
        this.routes = new Transport[size];
    }

    /** A field updater, not a VarHandle: no method-handle linking at a peer's start-up (see CasLock). */
    private static final AtomicReferenceFieldUpdater<ProgressEngine, Thread> OWNER =
            AtomicReferenceFieldUpdater.newUpdater(ProgressEngine.class, Thread.class, "owner");

    /**
     * One thread's wait: its idle strategy, and the {@link Blocker} the strategy calls when it wants
     * to give up the CPU. Only then does the thread announce itself as the waiter of its requests
     * (a volatile write, that is a fence): spinning waits stay free of fences.
     */
    private final class Waiter implements Blocker, PeerWaits.Source {
        final IdleStrategy strategy;
        Thread thread;
        AbstractRequest request;
        List<? extends Request> anyOf;
        BooleanSupplier done;
        boolean owning;
        /** Finished requests of this thread's blocking calls, kept for its next ones. */
        SendRequest spareSend;
        RecvRequest spareRecv;

        Waiter(IdleStrategy strategy) {
            this.strategy = strategy;
        }

        /**
         * For a capture of the stacks, on another thread: the request this thread waits for, read
         * without synchronisation from the fields the wait sets anyway (a wait costs nothing more).
         * A thread of a hung job stays where it is; one that moves on may be seen between two waits.
         */
        @Override
        public PeerWait read() {
            AbstractRequest r = request;
            if (thread == null || r == null) {
                return null;
            }
            if (r instanceof RecvRequest q) {
                return new PeerWait(PeerWait.RECEIVE, q.source, q.context, q.tag);
            }
            if (r instanceof SendRequest q) {
                return new PeerWait(PeerWait.SEND, q.dest(), -1, q.tag());
            }
            return null;
        }

        @Override
        public void block(long nanos) {
            announce(thread);
            try {
                // Re-check after announcing: a completion either sees us as its waiter or is seen here.
                if (!done.getAsBoolean()) {
                    Transport t = blockingTransport;
                    if (owning && t != null) {
                        blockIn(t, nanos);
                    } else {
                        LockSupport.parkNanos(nanos);
                    }
                }
            } finally {
                announce(null);
            }
        }

        /** Sleeps in {@code t}, woken also by its partners' channels; they look once more first. */
        private void blockIn(Transport t, long nanos) {
            Transport[] partners = sleepPartners;
            if (partners.length == 0) {
                t.block(nanos);
                return;
            }
            if (nanos < Transport.WAKE_CHANNEL_MIN_SLEEP_NANOS) {
                LockSupport.parkNanos(nanos); // see there
                return;
            }
            int work = 0;
            try {
                for (Transport p : partners) {
                    work += p.prepareSleep();
                }
                if (work == 0 && !done.getAsBoolean()) {
                    t.block(nanos);
                }
            } finally {
                for (Transport p : partners) {
                    p.endSleep();
                }
            }
        }

        private void announce(Thread t) {
            if (request != null) {
                request.waiter = t;
            }
            if (anyOf != null) {
                for (Request q : anyOf) {
                    if (q instanceof AbstractRequest a) {
                        a.waiter = t;
                    }
                }
            }
        }
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return size;
    }

    public String idleStrategyName() {
        return idleName;
    }

    /** Routes messages for {@code peers} through {@code transport}. Call before communicating. */
    public synchronized void attach(Transport transport, int[] peers) {
        for (int p : peers) {
            if (p == rank) {
                throw new IllegalArgumentException("self-sends never use a transport");
            }
            routes[p] = transport;
        }
        if (!transports.contains(transport)) {
            transports.add(transport);
        }
        chooseBlocking();
    }

    /**
     * Block in the kernel only where an arrival on any transport wakes the owner: one transport
     * that carries everything and can block, or one that can block and also wakes on every other
     * transport's {@link Transport#wakeChannel} (TCP to other hosts beside the host's shared
     * memory). Otherwise the owner parks on a timer, or it could sleep through an arrival.
     */
    private void chooseBlocking() {
        Transport chosen = null;
        List<Transport> partners = new ArrayList<>();
        for (Transport b : transports) {
            if (!b.canBlock()) {
                continue;
            }
            partners.clear();
            for (Transport o : transports) {
                if (o != b) {
                    java.nio.channels.SelectableChannel ch = o.wakeChannel();
                    if (ch == null || !b.alsoWakeOn(ch)) {
                        break;
                    }
                    partners.add(o);
                }
            }
            if (partners.size() == transports.size() - 1) {
                chosen = b;
                break;
            }
        }
        sleepPartners = chosen == null ? new Transport[0] : partners.toArray(new Transport[0]);
        sleepInsteadOfPoll = chosen != null && partners.isEmpty() && chosen.blockReplacesPoll();
        blockingTransport = chosen;
    }

    /** The name of the transport used to reach {@code peer} ("self" for this peer). */
    /** Where the job's peers run; set once at start-up, before any collective. */
    private volatile MachineMap placement = MachineMap.UNKNOWN;

    public void placement(MachineMap p) {
        placement = java.util.Objects.requireNonNull(p, "placement");
    }

    public MachineMap placement() {
        return placement;
    }

    public String transportName(int peer) {
        return peer == rank ? "self" : routes[peer] == null ? "none" : routes[peer].name();
    }

    public void onPeerFailure(PeerFailureListener listener) {
        this.failureListener = listener;
    }

    // ---- context handlers (services that must not sit in a receive) -------------------------------

    /**
     * From now on, every message arriving for {@code context} is handed whole to {@code handler}
     * instead of being matched against receives: for services (DECK's naming service, group
     * servers, mailboxes) that must be served without a thread sitting in a receive, which would
     * hold the progress role for good. Other contexts are untouched.
     *
     * <p>The handler runs on whichever thread delivers the message: the progress owner, the
     * progress agent, or (local transport, self-sends) the sending thread. It must only hand the
     * message on (to a queue, say) and return: never block, never call this engine, never throw.
     * Register before anything can arrive for the context; arrivals already in the unexpected
     * queue stay there. Any thread may call this.
     *
     * @throws IllegalStateException if the context already has a handler
     */
    public synchronized void onContext(int context, Consumer<Message> handler) {
        if (handler == null) {
            throw new IllegalArgumentException("a context handler must not be null");
        }
        ContextHandlers current = contextHandlers;
        if (current != null && current.find(context) != null) {
            throw new IllegalStateException("context " + context + " already has a handler");
        }
        // Copy on write: the arrival path reads the field once and never locks.
        contextHandlers = ContextHandlers.with(current, context, handler);
    }

    /** The handler registered for {@code context}, or null. Any thread may call this. */
    public Consumer<Message> contextHandler(int context) {
        ContextHandlers h = contextHandlers;
        return h == null ? null : h.find(context);
    }

    /** The handler for an arrival on {@code context}, or null: one volatile read when there are none. */
    private Consumer<Message> handlerFor(int context) {
        ContextHandlers h = contextHandlers;
        return h == null ? null : h.find(context);
    }

    // ---- InboundSink, for transports -------------------------------------------------------------

    @Override
    public InboundTarget begin(int source, int context, int tag, int length) {
        // Numbered here, for every context, in the order the transport hands messages over: the
        // order in which the source numbered them (FIFO per pair).
        long sequence = sequences.nextArrival(source);
        Consumer<Message> h = handlerFor(context);
        if (h != null) {
            return new ContextHandlers.Collect(h, source, tag, length);
        }
        return matching.begin(source, context, tag, length, sequence);
    }

    @Override
    public void deliver(int source, int context, int tag, ByteBuffer src, int index, int length) {
        long sequence = sequences.nextArrival(source);
        Consumer<Message> h = handlerFor(context);
        if (h != null) {
            byte[] bytes = new byte[length];
            src.get(index, bytes, 0, length);
            ContextHandlers.hand(h, new Message(new Status(source, tag, length), bytes));
            return;
        }
        matching.deliver(source, context, tag, src, index, length, sequence);
    }

    @Override
    public void peerFailed(int source, String reason) {
        boolean first = matching.failure(source) == null;
        matching.peerFailed(source, reason);
        PeerFailureListener l = reporting();
        if (first && l != null) {
            l.peerFailed(source, reason);
        }
    }

    /** The listener while this peer's losses are still news to the launcher, else null. */
    private PeerFailureListener reporting() {
        return closed || programDone ? null : failureListener;
    }

    /**
     * The program has begun to close its world: from now on it fails because of no other peer, so
     * losses are no longer told to the launcher (which would take this peer's own failure, in a
     * clean-up after the close, for collateral damage).
     */
    public void programClosing() {
        programDone = true;
    }

    @Override
    public void peerClosed(int source) {
        matching.peerClosed(source);
    }

    /** The failure of a receive or probe that waits for {@code source}, which has closed its world. */
    PeerClosedException closedFailure(int source) {
        noteAwaitedClosed(source);
        return MatchingEngine.closedFailure(source);
    }

    /** A wait of this peer failed because {@code source} (world rank) had closed its world: told once per peer. */
    public void noteAwaitedClosed(int source) {
        PeerFailureListener l = reporting();
        if (l != null && awaitedClosed.add(source)) {
            l.awaitedClosed(source);
        }
    }

    /** The reason {@code peer} failed, or null. */
    public String failure(int peer) {
        return matching.failure(peer);
    }

    /**
     * Why a wait for something world rank {@code peer} has yet to do can never end: it failed
     * ({@link PeerFailedException}) or closed its world ({@link PeerClosedException});
     * null while neither. For waits outside matching, such as a shared-memory collective's.
     */
    public CohortException waitFailure(int peer) {
        String reason = matching.failure(peer);
        if (reason != null) {
            return new PeerFailedException(peer, reason);
        }
        return matching.closed(peer) ? closedFailure(peer) : null;
    }

    /**
     * Waits until {@code done} holds, polling the transports and idling as every wait of this peer
     * does: for conditions on memory that other peers write (a shared-memory collective's phases).
     * {@code done} ends the wait by throwing where it can never hold.
     */
    public void awaitCondition(BooleanSupplier done) {
        waitUntil(done, null, Long.MAX_VALUE);
    }

    /** The transport that reaches {@code peer}: null for this peer itself and for peers no transport reaches. */
    public Transport transportTo(int peer) {
        return peer == rank ? null : routes[peer];
    }

    // ---- operations ------------------------------------------------------------------------------

    /** A nonblocking send; the request's {@link AbstractRequest#sequence()} is the message's number for {@code dest}. */
    public AbstractRequest send(int dest, int context, int tag, ByteBuffer payload) {
        return send(dest, context, tag, payload, payload.position(), payload.remaining());
    }

    /** As {@link #send(int, int, int, ByteBuffer)} for {@code length} bytes from index {@code offset}. */
    public AbstractRequest send(int dest, int context, int tag, ByteBuffer payload, int offset, int length) {
        checkPeer(dest);
        checkUsable();
        SendRequest r = new SendRequest(this).start(dest, tag, length);
        r.soleThread = Thread.currentThread();
        route(r, dest, context, tag, payload, offset, length);
        r.soleThread = null; // from here on any thread may hold and wait on it
        return r;
    }

    /**
     * A blocking send. Its request never leaves this thread, so completing it needs no fence, and
     * once done it is kept for the thread's next blocking send: the path allocates nothing.
     * Returns the message's number among those sent to {@code dest} ({@link MessageSequences}).
     */
    public long sendAndWait(int dest, int context, int tag, ByteBuffer payload) {
        return sendAndWait(dest, context, tag, payload, payload.position(), payload.remaining());
    }

    /** As {@link #sendAndWait(int, int, int, ByteBuffer)} for {@code length} bytes from index {@code offset}. */
    public long sendAndWait(int dest, int context, int tag, ByteBuffer payload, int offset, int length) {
        checkPeer(dest);
        checkUsable();
        Waiter w = waiters.get();
        SendRequest r = w.spareSend;
        if (r == null) {
            r = new SendRequest(this);
            r.soleThread = Thread.currentThread();
        } else {
            w.spareSend = null;
        }
        r.start(dest, tag, length);
        route(r, dest, context, tag, payload, offset, length);
        r.awaitDone(); // a failure throws: the request is then dropped, not kept
        long sequence = r.sequence;
        r.recycle();
        w.spareSend = r;
        return sequence;
    }

    private void route(SendRequest r, int dest, int context, int tag, ByteBuffer payload, int offset, int length) {
        if (dest == rank) {
            r.sequence = sequences.nextSent(dest);
            deliver(rank, context, tag, payload.slice(offset, length));
            r.sent();
            return;
        }
        String failed = matching.failure(dest);
        if (failed != null) {
            r.failed(new PeerFailedException(dest, failed));
        } else {
            r.sequence = sequences.nextSent(dest); // numbered as handed over: the transport keeps this order
            routes[dest].send(dest, context, tag, payload, offset, length, r);
        }
    }

    /** A nonblocking receive into {@code userBuffer} from its position, which it moves (null: a message of any length). */
    public AbstractRequest receive(int context, int source, int tag, ByteBuffer userBuffer) {
        return userBuffer == null ? receive(context, source, tag, null, 0, 0, false)
                : receive(context, source, tag, userBuffer, userBuffer.position(), userBuffer.remaining(), true);
    }

    /**
     * A nonblocking receive of at most {@code capacity} bytes into {@code userBuffer} from index
     * {@code offset}; {@code advance}: then move its position past them.
     */
    public AbstractRequest receive(int context, int source, int tag, ByteBuffer userBuffer, int offset, int capacity,
                                   boolean advance) {
        checkSource(source);
        checkUsable();
        RecvRequest r = new RecvRequest(this).start(context, source, tag, userBuffer, offset, capacity, advance);
        r.soleThread = Thread.currentThread();
        matching.post(r);
        r.soleThread = null;
        return r;
    }

    /** A blocking receive into {@code userBuffer}; like {@link #sendAndWait}, it allocates only the status. */
    public Status receiveInto(int context, int source, int tag, ByteBuffer userBuffer) {
        return receiveInto(context, source, tag, userBuffer, null);
    }

    /** As {@link #receiveInto(int, int, int, ByteBuffer)}; tells {@code event} (if not null) what matched. */
    public Status receiveInto(int context, int source, int tag, ByteBuffer userBuffer, ReceiveSpan event) {
        return receiveInto(context, source, tag, userBuffer, userBuffer.position(), userBuffer.remaining(), true, event);
    }

    /**
     * A blocking receive of at most {@code capacity} bytes into {@code userBuffer} from index
     * {@code offset} ({@code advance}: then move its position past them); tells {@code event} (if
     * not null) what matched. Allocates nothing while source, tag and length repeat.
     */
    public Status receiveInto(int context, int source, int tag, ByteBuffer userBuffer, int offset, int capacity,
                              boolean advance, ReceiveSpan event) {
        Waiter w = waiters.get();
        RecvRequest r = blockingReceive(w, context, source, tag, userBuffer, offset, capacity, advance);
        Status s = r.await(); // a failure throws: the request is then dropped, not kept
        if (event != null) {
            event.matched(s.source(), s.tag(), s.length(), r.sequence);
        }
        r.recycle();
        w.spareRecv = r;
        return s;
    }

    /** A blocking receive of a message of any length. */
    public Message receiveMessage(int context, int source, int tag) {
        return receiveMessage(context, source, tag, null);
    }

    /** As {@link #receiveMessage(int, int, int)}; tells {@code event} (if not null) what matched. */
    public Message receiveMessage(int context, int source, int tag, ReceiveSpan event) {
        Waiter w = waiters.get();
        RecvRequest r = blockingReceive(w, context, source, tag, null, 0, 0, false);
        r.await();
        Message m = r.message();
        if (event != null) {
            Status s = m.status();
            event.matched(s.source(), s.tag(), s.length(), r.sequence);
        }
        r.recycle();
        w.spareRecv = r;
        return m;
    }

    private RecvRequest blockingReceive(Waiter w, int context, int source, int tag, ByteBuffer userBuffer, int offset,
                                        int capacity, boolean advance) {
        checkSource(source);
        checkUsable();
        RecvRequest r = w.spareRecv;
        if (r == null) {
            r = new RecvRequest(this);
            r.soleThread = Thread.currentThread();
        } else {
            w.spareRecv = null;
        }
        r.start(context, source, tag, userBuffer, offset, capacity, advance);
        matching.post(r);
        return r;
    }

    private void checkSource(int source) {
        if (source != io.cohort.Communicator.ANY_SOURCE) {
            checkPeer(source);
        }
    }

    public Optional<Status> probe(int context, int source, int tag, boolean block) {
        if (source != io.cohort.Communicator.ANY_SOURCE) {
            checkPeer(source); // an impossible source would never match: a blocking probe would hang
        }
        checkUsable();
        Optional<Status> s = matching.probe(context, source, tag);
        if (s.isPresent()) {
            return s;
        }
        progressOnce();
        s = probeOrThrow(context, source, tag, block);
        if (s.isPresent() || !block) {
            return s;
        }
        Optional<Status>[] found = new Optional[] {Optional.empty()};
        waitUntil(new BooleanSupplier() {
            @Override
            public boolean getAsBoolean() {
                found[0] = probeOrThrow(context, source, tag, true);
                return found[0].isPresent();
            }
        }, null, Long.MAX_VALUE);
        return found[0];
    }

    /**
     * One look for a match. Nothing found from a peer that failed throws, as a receive would fail.
     * So does nothing found from the named peer after it said goodbye, if the probe blocks: it would
     * wait forever. An iprobe answers "nothing" then, which is true (a program may ask whether a peer
     * that ended left anything more).
     */
    private Optional<Status> probeOrThrow(int context, int source, int tag, boolean block) {
        boolean goneBefore = block && source >= 0 && matching.closed(source); // first: see MatchingEngine.closed
        Optional<Status> s = matching.probe(context, source, tag);
        if (s.isEmpty()) {
            throwIfHopeless(source);
            if (goneBefore) {
                throw closedFailure(source);
            }
        }
        return s;
    }

    private void throwIfHopeless(int source) {
        int peer = source;
        if (source < 0) {
            for (int i = 0; i < size && peer < 0; i++) {
                if (matching.failure(i) != null) {
                    peer = i;
                }
            }
            if (peer < 0) {
                return;
            }
        }
        String why = matching.failure(peer);
        if (why != null) {
            throw new PeerFailedException(peer, why);
        }
    }

    // ---- waiting ---------------------------------------------------------------------------------

    void waitFor(AbstractRequest r) {
        waitUntil(r.doneCondition(), r, Long.MAX_VALUE);
    }

    boolean waitFor(AbstractRequest r, long deadlineNanos) {
        return waitUntil(r.doneCondition(), r, deadlineNanos);
    }

    /** Waits until any of the requests is done. */
    void waitAny(List<? extends Request> requests) {
        waitUntil(new BooleanSupplier() {
            @Override
            public boolean getAsBoolean() {
                for (Request q : requests) {
                    if (q.isDone()) {
                        return true;
                    }
                }
                return false;
            }
        }, null, requests, Long.MAX_VALUE, null);
    }

    boolean waitUntil(BooleanSupplier done, AbstractRequest request, long deadlineNanos) {
        return waitUntil(done, request, null, deadlineNanos, null);
    }

    /**
     * The wait loop: become the progress owner if nobody is, and poll; otherwise park until the owner
     * completes our request or leaves. Returns false if the deadline passed first.
     */
    private boolean waitUntil(BooleanSupplier done, AbstractRequest request, List<? extends Request> anyOf,
                              long deadlineNanos, IdleStrategy override) {
        if (done.getAsBoolean()) {
            return true;
        }
        Thread me = Thread.currentThread();
        if (me.isInterrupted()) {
            // Channel I/O on an interrupted thread closes the channel; refuse before touching one.
            throw new CohortException("interrupted while waiting for communication; clear the interrupt and retry");
        }
        Waiter w = waiters.get();
        if (w.thread != null || override != null) {
            // A wait inside a wait on the same thread (a completion callback that waits), or a wait
            // with its own strategy: a fresh waiter.
            w = new Waiter(override != null ? override : w.strategy);
        }
        IdleStrategy strategy = w.strategy;
        strategy.reset();
        boolean sleepFirst = strategy.blocksAtOnce();
        w.thread = me;
        w.request = request;
        w.anyOf = anyOf;
        w.done = done;
        try {
            while (!done.getAsBoolean()) {
                if (deadlineNanos != Long.MAX_VALUE && System.nanoTime() - deadlineNanos >= 0) {
                    return false;
                }
                if (tryAcquireProgress(me)) {
                    w.owning = true;
                    try {
                        while (!done.getAsBoolean()) {
                            if (deadlineNanos != Long.MAX_VALUE && System.nanoTime() - deadlineNanos >= 0) {
                                return false;
                            }
                            if (me.isInterrupted()) {
                                throw new CohortException("interrupted while waiting for communication");
                            }
                            if (closed) {
                                throw new CohortException("this peer's communication was shut down while waiting");
                            }
                            if (sleepFirst && sleepInsteadOfPoll) {
                                if (!goneNotices.isEmpty()) {
                                    applyGoneNotices();
                                }
                                strategy.idle(w); // returns at once, having read it, if something is there
                            } else if (pollTransports() > 0) {
                                strategy.reset();
                            } else if (!done.getAsBoolean()) {
                                strategy.idle(w);
                            }
                        }
                        return true;
                    } finally {
                        w.owning = false;
                        releaseProgress();
                    }
                }
                parked.add(me);
                try {
                    // The owner may have left between our failed CAS and the add, and found nobody
                    // to hand over to: with the role free and nobody polling, we would sleep a
                    // whole park period (10 ms under park) while our message waited in the socket.
                    if (owner == null) {
                        continue;
                    }
                    if (!done.getAsBoolean()) {
                        strategy.idle(w);
                    }
                } finally {
                    parked.remove(me);
                }
                if (me.isInterrupted()) {
                    throw new CohortException("interrupted while waiting for communication");
                }
            }
            return true;
        } finally {
            w.thread = null;
            w.request = null;
            w.anyOf = null;
            w.done = null;
        }
    }

    private boolean tryAcquireProgress(Thread me) {
        // CAS: acquire semantics; whatever the last owner did under the role is visible to us.
        return OWNER.compareAndSet(this, null, me);
    }

    /** Gives the progress role up and lets a parked thread take it over. */
    private void releaseProgress() {
        // Release: everything done under the role is visible to the next owner's CAS.
        OWNER.lazySet(this, null);
        handOver();
    }

    /** Lets a parked thread take over the progress role we just gave up. */
    private void handOver() {
        if (!parked.isEmpty()) {
            for (Thread t : parked) {
                LockSupport.unpark(t);
            }
        }
    }

    /** One round of progress if the role is free (request tests, probes). */
    public void progressOnce() {
        if (tryAcquireProgress(Thread.currentThread())) {
            try {
                if (closed) {
                    return;
                }
                pollTransports();
            } finally {
                releaseProgress();
            }
        }
    }

    /** Called by the progress agent: drain the network if no user thread is doing it. */
    void backgroundPoll() {
        if (!closed) {
            progressOnce();
        }
    }

    /**
     * The launcher says {@code peer}'s process has ended. Any thread may call this; the transport
     * that reaches the peer hears of it from the next progress owner, since only the owner may read.
     */
    public void notePeerGone(int peer, String reason) {
        if (peer >= 0 && peer < size && peer != rank) {
            goneNotices.add(new Object[] {peer, reason});
        }
    }

    private void applyGoneNotices() {
        Object[] n;
        while ((n = goneNotices.poll()) != null) {
            int peer = (Integer) n[0];
            Transport t = routes[peer];
            if (t != null) {
                t.peerGone(peer, (String) n[1]);
            }
        }
    }

    private int pollTransports() {
        if (!goneNotices.isEmpty()) {
            applyGoneNotices();
        }
        int work = 0;
        for (int i = 0, n = transports.size(); i < n; i++) {
            work += transports.get(i).poll();
        }
        return work;
    }

    void wakeOwnerIfBlocked(Thread waiter) {
        Transport t = blockingTransport;
        // Acquire: pairs with the release in waitUntil; the caller read the waiter (volatile) just before.
        if (t != null && owner == waiter) {
            t.wakeup();
        }
    }

    // ---- shutdown --------------------------------------------------------------------------------

    /**
     * Graceful close: say goodbye on every transport, behind the frames still queued there (so
     * pending sends finish first), and wait until every peer has said goodbye to us or is gone.
     * Idempotent.
     */
    public void shutdown() {
        if (closed) {
            return;
        }
        for (Transport t : transports) {
            t.startClose();
        }
        // The goodbye wait lasts until the slowest peer is done; spinning through it would only take
        // the CPU from peers that still work (8 peers on 2 cores), so it yields and parks instead.
        waitUntil(new BooleanSupplier() {
            @Override
            public boolean getAsBoolean() {
                for (Transport t : transports) {
                    if (!t.isCloseComplete()) {
                        return false;
                    }
                }
                return true;
            }
        }, null, null, Long.MAX_VALUE, new BackoffIdleStrategy(0, CLOSE_YIELDS, IdleStrategies.BACKOFF_MIN_BLOCK_NANOS,
                CLOSE_MAX_BLOCK_NANOS));
        closeTransports();
    }

    /** Whether {@code peer} closed its world (said goodbye): it will send nothing more. */
    public boolean peerHasClosed(int peer) {
        return matching.closed(peer);
    }

    /** Takes a receive no message has matched out of the posted queue; false if it is not there (matched). */
    boolean cancelPosted(RecvRequest r) {
        return matching.cancel(r);
    }

    /** Drops everything at once (failed start-up, abort). */
    public void abort() {
        closeTransports();
    }

    /**
     * Marks the engine closed, wakes a blocked owner (which then gives up the progress lock with an
     * error), and closes the transports under the lock, so the agent never polls a closing transport.
     */
    private void closeTransports() {
        closed = true;
        Transport b = blockingTransport;
        if (b != null) {
            b.wakeup();
        }
        Thread me = Thread.currentThread();
        // A transport callback on the owner's own thread may get here: the role is already ours.
        boolean reentrant = owner == me;
        boolean locked = reentrant;
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(1);
        while (!locked && System.nanoTime() - deadline < 0) {
            locked = tryAcquireProgress(me);
            if (!locked) {
                LockSupport.parkNanos(100_000);
            }
        }
        try {
            if (!transportsClosed) {
                transportsClosed = true;
                for (Transport t : transports) {
                    t.close();
                }
            }
        } finally {
            if (locked && !reentrant) {
                releaseProgress();
            }
        }
    }

    public boolean isClosed() {
        return closed;
    }

    private void checkPeer(int peer) {
        if (peer < 0 || peer >= size) {
            throw new IllegalArgumentException("rank " + peer + " does not exist; ranks are 0 to " + (size - 1));
        }
    }

    private void checkUsable() {
        if (closed) {
            throw new IllegalStateException("this communicator is closed");
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new CohortException("interrupted; clear the thread's interrupt before communicating");
        }
    }
}
