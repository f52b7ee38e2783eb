package io.cohort.collective;

import io.cohort.Op;
import io.cohort.Request;
import io.cohort.ObjectBytes;
import io.cohort.profile.CollectiveSpan;
import io.cohort.profile.Profiling;
import io.cohort.stacks.CollectiveCall;
import io.cohort.stacks.CollectiveCalls;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The collective operations of one communicator: MPI's collectives over any
 * {@link CollectiveChannel}, by point-to-point algorithms or over the broadcast domain, as
 * {@link CollectivePolicy} chooses (or a test {@link #force forces}).
 *
 * <p>Buffers are primitive arrays, {@link ByteBuffer}s (position to limit, never moved) or
 * {@code Object[]} of Serializable elements; counts are element counts. Every peer must call the
 * same collectives in the same order with matching arguments. Reductions combine in rank order,
 * and send and recv may be one array. Bad arguments fail with an {@link IllegalArgumentException}
 * before any message is sent.
 *
 * <p>Threads: any thread, one collective at a time per instance (a lock makes overlapping calls
 * wait, but their order must still be the same on every peer). Nonblocking collectives run in
 * order on this instance's thread {@code cohort-coll-<rank>}; every blocking collective first waits
 * for them, so the PCODE domain's single program thread is respected. {@link #close()} ends that thread.
 *
 * <p>Each public call records one {@code io.cohort.Collective} event for the profiler when a
 * recording wants it, named as the API names the call, with the algorithm {@link #pick} chose.
 */
public final class Collectives implements AutoCloseable {
    private enum DomainState { UNKNOWN, OPEN, UNAVAILABLE }

    private final CollectiveChannel channel;
    private final CollectivePolicy policy;
    private final Consumer<String> verbose;
    /** Per operation, a bit per algorithm already reported to {@code --verbose}. */
    private final java.util.concurrent.atomic.AtomicLongArray logged =
            new java.util.concurrent.atomic.AtomicLongArray(Algorithm.Operation.values().length);
    /** Held while a collective runs: one at a time touches the channel's domain. */
    private final ReentrantLock running = new ReentrantLock();
    private final NonblockingRunner runner;
    /** The shared-memory segment's collectives, set up at the first that needs it; guarded by running. */
    private final SharedMemoryCollectives sharedMemory;
    /** Memory the running collective may reuse; guarded by running. */
    private final Scratch scratch = new Scratch();
    private long sequence; // guarded by this
    private DomainState domain = DomainState.UNKNOWN; // guarded by running
    /** The open domain's one-datagram message length, which AUTO's bcast choice needs; guarded by running. */
    private long datagramBytes = CollectivePolicy.DATAGRAM_UNKNOWN;
    /** What the communicator's peers are like, asked once; guarded by running. */
    private CollectivePolicy.Peers peers;
    /** The communicator's id in the profiler's events (its point-to-point context), -1 if none. */
    private final int communicatorId;
    /** Its members in world ranks, for the stacks; empty for the world. */
    private final String members;
    /** Every call is compared with every rank's before it runs ({@link SignatureCheck}); written before calls that read it. */
    private volatile boolean checkSignatures = SignatureCheck.enabled();
    /**
     * The stacks slot of the thread that ran the last collective, kept so that a program calling
     * from one thread skips the thread-local lookup; racy by design ({@link CollectiveCalls#mine(CollectiveCalls.Slot)}).
     */
    private CollectiveCalls.Slot lastSlot;
    /** What the running blocking collective chose and received, for its event; guarded by running. */
    private Algorithm ran;
    private long received = -1;

    /**
     * @param channel the communicator's collective channel
     * @param mode    {@link CollectiveMode#fromSystemProperties()} unless the caller knows better
     * @param verbose told once per (operation, algorithm) which algorithm runs; {@code s -> {}} for silence
     */
    public Collectives(CollectiveChannel channel, CollectiveMode mode, Consumer<String> verbose) {
        this(channel, mode, verbose, -1);
    }

    /** As the three-argument constructor; {@code communicatorId} names the communicator in the profiler's events. */
    public Collectives(CollectiveChannel channel, CollectiveMode mode, Consumer<String> verbose, int communicatorId) {
        this(channel, mode, verbose, communicatorId, "");
    }

    /**
     * As above; {@code members} lists the communicator's world ranks for the stacks
     * ({@link io.cohort.stacks.CollectiveCall#members}), empty for the world.
     */
    public Collectives(CollectiveChannel channel, CollectiveMode mode, Consumer<String> verbose, int communicatorId,
                       String members) {
        this.communicatorId = communicatorId;
        this.members = Objects.requireNonNull(members, "members");
        this.channel = Objects.requireNonNull(channel, "channel");
        this.policy = new CollectivePolicy(Objects.requireNonNull(mode, "mode"));
        this.verbose = verbose == null ? s -> { } : verbose;
        this.sharedMemory = new SharedMemoryCollectives(channel, this.verbose);
        this.runner = new NonblockingRunner(channel.rank());
    }

    /** Uses {@code a} for its operation from now on (every peer must force alike, at the same point). */
    public void force(Algorithm a) {
        runner.drain();
        policy.force(a);
    }

    /** Returns to the mode's own choices. */
    public void clearForced() {
        runner.drain();
        policy.clearForced();
    }

    public int rank() {
        return channel.rank();
    }

    public int size() {
        return channel.size();
    }

    // ---- running a collective ----------------------------------------------------------------

    @FunctionalInterface
    private interface Body {
        void run(Exchange x);
    }

    /** Set by {@link #close}: no collective starts after it. Guarded by this. */
    private boolean closed;

    private synchronized Exchange next() {
        if (closed) {
            throw new IllegalStateException("a collective on a communicator that is closed");
        }
        return new Exchange(channel, sequence++, scratch);
    }

    /**
     * Runs one collective on the calling thread. {@code operation}, {@code root} and {@code bytes}
     * (this peer's send size) are for its profiler event only.
     */
    private void blocking(String operation, int root, long bytes, Body body) {
        blocking(operation, root, bytes, null, -1, null, body);
    }

    /**
     * As above; {@code buffer} (its type), {@code count} and {@code op} also say, while the call
     * runs, what it is to a capture of the stacks ({@link CollectiveCalls}): the element type and
     * count every rank must agree on (-1 for none), and the reduction's op (or null).
     */
    private void blocking(String operation, int root, long bytes, Object buffer, long count, Op op, Body body) {
        blocking(operation, operation, root, bytes, buffer, count, op, body);
    }

    /**
     * As above; {@code call} names the call for the stacks and {@link SignatureCheck} where the
     * profiler's {@code operation} does not tell it apart ({@code bcastBytes}, a bcast of its own).
     */
    private void blocking(String operation, String call, int root, long bytes, Object buffer, long count, Op op, Body body) {
        CollectiveSpan event = Profiling.startCollective();
        runner.drain();
        Exchange x = next();
        CollectiveCalls.Slot slot = CollectiveCalls.mine(lastSlot);
        lastSlot = slot;
        slot.enter(call, communicatorId, members, x.sequence, root, buffer, count, op == null ? null : op.name());
        running.lock();
        try {
            ran = null;
            received = -1;
            if (checkSignatures) {
                SignatureCheck.run(x, signature(call, x, root, buffer, count, op));
            }
            body.run(x);
            if (event != null) {
                finish(event, operation, root, bytes);
            }
        } finally {
            running.unlock();
            slot.exit();
        }
    }

    /**
     * As {@link #blocking}, on the collectives' thread. Its event is the starting call's, on the
     * caller's thread: the program's time goes to the wait on the request (a Wait event), and two
     * events counting the same time would count it twice. The algorithm is chosen when the
     * collective runs, later, so the event names none.
     */
    private Request nonblocking(String operation, int root, long bytes, Body body) {
        return nonblocking(operation, root, bytes, null, -1, null, body);
    }

    /** As {@link #blocking(String, int, long, Object, long, Op, Body)}: the collectives' thread is in the call while it runs. */
    private Request nonblocking(String operation, int root, long bytes, Object buffer, long count, Op op, Body body) {
        CollectiveSpan event = Profiling.startCollective();
        Exchange x = next();
        String opName = op == null ? null : op.name();
        Request r = runner.submit(() -> {
            CollectiveCalls.Slot call = CollectiveCalls.mine(lastSlot);
            lastSlot = call;
            call.enter(operation, communicatorId, members, x.sequence, root, buffer, count, opName);
            running.lock();
            try {
                if (checkSignatures) {
                    SignatureCheck.run(x, signature(operation, x, root, buffer, count, op));
                }
                body.run(x);
            } finally {
                running.unlock();
                call.exit();
            }
        });
        if (event != null) {
            event.finish(communicatorId, operation, "", root, bytes, channel.size());
        }
        return r;
    }

    /** This rank's call of {@code x}'s collective, as the stacks show it and {@link SignatureCheck} compares it. */
    private CollectiveCall signature(String operation, Exchange x, int root, Object buffer, long count, Op op) {
        return new CollectiveCall(operation, communicatorId, members, x.sequence, root, buffer == null ? -1 : count,
                CollectiveCall.typeOf(buffer == null ? null : buffer.getClass()), op == null ? "" : op.name());
    }

    /**
     * Turns {@code --check-collectives} on or off for this instance (every peer alike, at the same
     * point, as with {@link #force}); it starts as the job says ({@link SignatureCheck#enabled}).
     */
    public void checkSignatures(boolean on) {
        runner.drain();
        checkSignatures = on;
    }

    /** Holds the running lock. */
    private void finish(CollectiveSpan event, String operation, int root, long bytes) {
        event.finish(communicatorId, operation, ran == null ? "" : ran.label(), root, received >= 0 ? received : bytes,
                channel.size());
    }

    /** A peer that sends nothing (bcast off the root) reports what it received; the body calls this. */
    private void received(long bytes) {
        received = bytes;
    }

    /** {@code count} elements of {@code buffer}'s type, in bytes (64 per element of an Object[]). */
    private static long bytes(Object buffer, long count) {
        return count * Buffers.nominalBytes(buffer);
    }

    /** As {@link #pick(Exchange, Algorithm.Operation, long, Op, int)} for an operation that never uses shared memory. */
    private Algorithm pick(Algorithm.Operation operation, long bytes, Op op) {
        return pick(null, operation, bytes, op, 0);
    }

    /**
     * The policy's choice, with the domain or the shared-memory segment opened on first need (every
     * peer at the same call), or p2p if it cannot open; logged once. {@code width}: the bytes of
     * one element of the buffer, 0 for {@code Object[]}, which shared memory cannot carry, nor an
     * op's indivisible unit longer than a slot (every peer's buffer is of one type, and the slot
     * size the segment's, so all decide alike).
     */
    private Algorithm pick(Exchange x, Algorithm.Operation operation, long bytes, Op op, int width) {
        int n = channel.size();
        Algorithm a = policy.choose(operation, n, bytes, op, peers(), datagramBytes);
        if (a.usesSharedMemory() && (width == 0 || !sharedMemory.open(x) || !sharedMemory.fits(op, width))) {
            a = policy.withoutSharedMemory(a, n, bytes, op, peers());
        }
        if (a.usesDomain() && domain == DomainState.UNKNOWN) {
            try {
                // collective: every peer reaches this point with the same choice
                datagramBytes = channel.domain().messageBytesPerDatagram();
                domain = DomainState.OPEN;
                a = policy.choose(operation, n, bytes, op, peers(), datagramBytes);
            } catch (UnsupportedOperationException e) {
                domain = DomainState.UNAVAILABLE;
                verbose.accept("cohort: no broadcast domain (" + e.getMessage() + "); collectives use point-to-point");
            }
        }
        if (a.usesDomain() && domain == DomainState.UNAVAILABLE) {
            a = policy.withoutDomain(a, n, bytes, op, peers());
        }
        if (firstUse(operation, a)) {
            verbose.accept("cohort: " + operation.label() + " of " + bytes + " B at " + n + " peers uses " + a.label());
        }
        ran = a;
        return a;
    }

    /**
     * What the communicator's peers are like, asked of the channel once: where they run does not
     * change. Guarded by running, as every collective's choice is made under it.
     */
    private CollectivePolicy.Peers peers() {
        CollectivePolicy.Peers p = peers;
        if (p == null) {
            p = new CollectivePolicy.Peers(channel.sharedMemoryOnly(), channel.anyPeerOverNetwork(),
                    channel.peersOutnumberCores());
            peers = p;
        }
        return p;
    }

    /** True once per operation and algorithm: without building a string on every call. */
    private boolean firstUse(Algorithm.Operation operation, Algorithm a) {
        long bit = 1L << a.ordinal();
        int i = operation.ordinal();
        long seen = logged.get(i);
        while ((seen & bit) == 0) {
            if (logged.compareAndSet(i, seen, seen | bit)) {
                return true;
            }
            seen = logged.get(i);
        }
        return false;
    }

    // ---- barrier and bcast -----------------------------------------------------------------

    /** Returns once every peer has called it. */
    public void barrier() {
        blocking("barrier", -1, 0, this::runBarrier);
    }

    /** Starts a barrier; the request completes once every peer has started it. */
    public Request ibarrier() {
        return nonblocking("ibarrier", -1, 0, this::runBarrier);
    }

    private void runBarrier(Exchange x) {
        switch (pick(x, Algorithm.Operation.BARRIER, 0, null, 1)) {
            case BARRIER_DOMAIN -> DomainCollectives.barrier(channel);
            case BARRIER_SHARED_MEMORY -> sharedMemory.barrier();
            case BARRIER_BINOMIAL -> FanInBarrier.binomial(x);
            case BARRIER_LINEAR -> FanInBarrier.linear(x);
            default -> DisseminationBarrier.run(x);
        }
    }

    /**
     * Copies the root's buffer into every peer's, in place; every peer's buffer must have the same
     * element type and count as the root's.
     */
    public void bcast(int root, Object buffer) {
        checkBcast(root, buffer);
        blocking("bcast", root, bytes(buffer, Buffers.count(buffer)), buffer, Buffers.count(buffer), null,
                x -> runBcast(x, root, buffer));
    }

    /** Starts a {@link #bcast}; the buffer must stay untouched until the request completes. */
    public Request ibcast(int root, Object buffer) {
        checkBcast(root, buffer);
        return nonblocking("ibcast", root, bytes(buffer, Buffers.count(buffer)), buffer, Buffers.count(buffer), null,
                x -> runBcast(x, root, buffer));
    }

    /** Returns the root's bytes at every peer ({@code data} is ignored elsewhere); only the root knows the length. */
    public byte[] bcastBytes(int root, byte[] data) {
        Args.root(root, size());
        byte[][] out = new byte[1][];
        // Not a bcast's match: only the root passes the bytes (their length is the root's alone).
        blocking("bcast", "bcastBytes", root, rank() == root ? data.length : 0, null, -1, null, x -> {
            out[0] = bcastBytes(x, root, rank() == root ? data : null, 0);
            received(out[0].length);
        });
        return out[0];
    }

    /** Returns the root's object at every peer ({@code object} is ignored elsewhere). */
    public <T> T bcastObject(int root, T object) {
        Args.root(root, size());
        byte[] data = rank() == root ? ObjectBytes.of(object) : null;
        byte[][] out = new byte[1][];
        // The length is unknown off the root, so the choice depends on N only (bytes = 0 for all).
        blocking("bcastObject", root, 0, x -> {
            out[0] = bcastBytes(x, root, data, 0);
            received(out[0].length);
        });
        return ObjectBytes.read(out[0], "the bcastObject from root " + root);
    }

    private void checkBcast(int root, Object buffer) {
        Args.root(root, size());
        Buffers.check(buffer, "bcast buffer");
        if (rank() != root && buffer instanceof ByteBuffer b && b.isReadOnly()) {
            throw new IllegalArgumentException("bcast buffer is a read-only ByteBuffer; rank " + rank()
                    + " receives into it, so pass a writable one");
        }
    }

    private byte[] bcastBytes(Exchange x, int root, byte[] data, long bytes) {
        return bcastBytes(pick(x, Algorithm.Operation.BCAST, bytes, null, 1), x, root, data);
    }

    private byte[] bcastBytes(Algorithm a, Exchange x, int root, byte[] data) {
        if (a == Algorithm.BCAST_DOMAIN) {
            return DomainCollectives.bcast(channel, root, data);
        }
        if (a == Algorithm.BCAST_SHARED_MEMORY) {
            return sharedMemory.bcastBytes(root, data);
        }
        return a == Algorithm.BCAST_LINEAR ? LinearBcast.run(x, root, data) : BinomialBcast.run(x, root, data);
    }

    /**
     * The message starts with a header, the element type and count, so a mismatched peer fails
     * clearly. Primitive buffers over the tree travel in place: encoded once into this
     * communicator's {@link Scratch} buffer at the root, received into it and forwarded from it, decoded
     * once at the others; no array per call (a bcast of 64 KiB made six copies and four arrays).
     */
    private void runBcast(Exchange x, int root, Object buffer) {
        int count = Buffers.count(buffer);
        int width = Buffers.elementBytes(buffer);
        Algorithm a = pick(x, Algorithm.Operation.BCAST, (long) count * Buffers.nominalBytes(buffer), null, width);
        if (a == Algorithm.BCAST_SHARED_MEMORY) {
            sharedMemory.bcast(root, buffer, count);
            return;
        }
        if (width > 0 && a != Algorithm.BCAST_DOMAIN && (long) count * width <= Integer.MAX_VALUE - HEADER) {
            runBcastInPlace(x, a, root, buffer, count, width);
            return;
        }
        byte[] data = null;
        if (rank() == root) {
            byte[] body = Buffers.encode(buffer, 0, count);
            data = new byte[HEADER + body.length];
            header(ByteBuffer.wrap(data), buffer, count);
            System.arraycopy(body, 0, data, HEADER, body.length);
        }
        byte[] got = bcastBytes(a, x, root, data);
        if (rank() != root) {
            ByteBuffer in = ByteBuffer.wrap(got);
            checkHeader(in, got.length, root, buffer, count, width);
            Buffers.decode(Arrays.copyOfRange(got, HEADER, got.length), buffer, 0, count, "bcast from root " + root);
        }
    }

    private void runBcastInPlace(Exchange x, Algorithm a, int root, Object buffer, int count, int width) {
        int length = HEADER + count * width;
        ByteBuffer s = scratch.send(length);
        if (rank() == root) {
            header(s, buffer, count);
            Buffers.encodeInto(buffer, 0, count, s, HEADER);
        }
        int got = a == Algorithm.BCAST_LINEAR ? LinearBcast.runInPlace(x, root, s, length)
                : BinomialBcast.runInPlace(x, root, s, length, CUT);
        if (rank() != root) {
            checkHeader(s, got, root, buffer, count, width);
            Buffers.decodeFrom(s, HEADER, buffer, 0, count);
        }
    }

    /** Bytes of a bcast's header: the element type's letter and the count. */
    private static final int HEADER = 5;
    /**
     * Set in the type's letter (ASCII, so the bit is free) when a peer forwarded this copy cut to its
     * own, shorter, buffer; the type and count stay readable.
     */
    private static final byte CUT = (byte) 0x80;

    private static void header(ByteBuffer to, Object buffer, int count) {
        to.put(0, (byte) Buffers.family(buffer).charAt(0)).putInt(1, count);
    }

    /** For messages naming ranks: which communicator's they are, where it is not the world. */
    private String ranksOf() {
        return members.isEmpty() ? "" : " (ranks of the communicator of world ranks " + members + ")";
    }

    /** Throws one sentence unless the {@code got} bytes of {@code in} are the root's bcast of this peer's buffer. */
    private void checkHeader(ByteBuffer in, int got, int root, Object buffer, int count, int width) {
        byte first = got >= HEADER ? in.get(0) : (byte) '?';
        char family = (char) (first & ~CUT);
        int rootCount = got >= HEADER ? in.getInt(1) : -1;
        if (got < HEADER || Buffers.familyName(family).equals(Buffers.familyName('?'))) {
            // Not a bcast's message at all: another collective's, on a rank that called another one here.
            throw new IllegalArgumentException("rank " + rank() + "'s bcast from root " + root + ranksOf() + " received " + got
                    + (got == 1 ? " byte" : " bytes") + " that are no bcast's: the ranks are not in the same collective;"
                    + " every rank must make the same collective calls in the same order");
        }
        if (family != Buffers.family(buffer).charAt(0) || rootCount != count) {
            throw new IllegalArgumentException("rank " + rank() + "'s bcast buffer is " + Buffers.typeName(buffer)
                    + " of " + count + " elements but root " + root + ranksOf() + " sent " + Buffers.familyName(family) + " of "
                    + rootCount + " elements; pass buffers of one type and length");
        }
        if ((first & CUT) != 0) {
            throw new IllegalArgumentException("rank " + rank() + " received a cut copy of root " + root + "'s bcast:"
                    + " a peer that forwards it to this one passed a shorter buffer");
        }
        if (width > 0 && got != HEADER + (long) count * width) {
            throw new IllegalArgumentException("rank " + rank() + " received " + (got - HEADER) + " of the "
                    + (long) count * width + " bytes of root " + root + "'s bcast: a peer that forwards it to this"
                    + " one passed a shorter buffer");
        }
    }

    // ---- gather, scatter, allgather, alltoall -----------------------------------------------

    /** Gathers every peer's send (same count everywhere) into the root's recv, rank r's at r * count. */
    public void gather(int root, Object send, Object recv) {
        Args.root(root, size());
        Buffers.check(send, "gather send buffer");
        int[] counts = Args.uniform(Buffers.count(send), size());
        if (rank() == root) {
            Args.holds(recv, "gather recv buffer", (long) Buffers.count(send) * size());
        }
        gatherv("gather", root, send, recv, counts, Args.packed(counts));
    }

    /** Gathers every peer's send into the root's recv: rank r's counts[r] elements at displs[r] (read at the root). */
    public void gatherv(int root, Object send, Object recv, int[] counts, int[] displs) {
        gatherv("gatherv", root, send, recv, counts, displs);
    }

    private void gatherv(String operation, int root, Object send, Object recv, int[] counts, int[] displs) {
        Args.root(root, size());
        Buffers.check(send, operation + " send buffer");
        if (rank() == root) {
            Buffers.check(recv, operation + " recv buffer");
            Args.sameType(send, recv, operation);
            Args.receiveBlocks(operation, counts, displs, size(), Buffers.count(recv));
            if (Buffers.count(send) != counts[root]) {
                throw new IllegalArgumentException("root " + root + " sends " + Buffers.count(send)
                        + " elements but counts[" + root + "] is " + counts[root]);
            }
        }
        blocking(operation, root, bytes(send, Buffers.count(send)), send, Buffers.count(send), null, x -> {
            pick(Algorithm.Operation.GATHER, 0, null);
            LinearRooted.gather(x, root, send, recv, counts, displs);
        });
    }

    /** Scatters the root's send (size * count elements, count = recv's length) so rank r gets block r. */
    public void scatter(int root, Object send, Object recv) {
        Args.root(root, size());
        Buffers.check(recv, "scatter recv buffer");
        int[] counts = Args.uniform(Buffers.count(recv), size());
        if (rank() == root) {
            Args.holds(send, "scatter send buffer", (long) Buffers.count(recv) * size());
        }
        scatterv("scatter", root, send, counts, Args.packed(counts), recv);
    }

    /**
     * Scatters the root's send: rank r gets counts[r] elements from displs[r] into its recv from 0.
     * Off the root, counts[rank] (if counts is given) or else recv's length is the expected count.
     */
    public void scatterv(int root, Object send, int[] counts, int[] displs, Object recv) {
        scatterv("scatterv", root, send, counts, displs, recv);
    }

    private void scatterv(String operation, int root, Object send, int[] counts, int[] displs, Object recv) {
        Args.root(root, size());
        Buffers.check(recv, operation + " recv buffer");
        int want;
        if (rank() == root) {
            Buffers.check(send, operation + " send buffer");
            Args.sameType(send, recv, operation);
            Args.blocks(operation, counts, displs, size(), Buffers.count(send));
            want = counts[root];
        } else {
            want = counts != null && counts.length == size() ? counts[rank()] : Buffers.count(recv);
        }
        Args.holds(recv, operation + " recv buffer", want);
        long bytes = rank() == root ? bytes(send, Buffers.count(send)) : bytes(recv, want);
        blocking(operation, root, bytes, recv, want, null, x -> {
            pick(Algorithm.Operation.SCATTER, 0, null);
            LinearRooted.scatter(x, root, send, counts, displs, recv, want);
        });
    }

    /** Every peer's send (same count everywhere) into every peer's recv, rank r's at r * count. */
    public void allgather(Object send, Object recv) {
        Buffers.check(send, "allgather send buffer");
        int[] counts = Args.uniform(Buffers.count(send), size());
        Args.holds(recv, "allgather recv buffer", (long) Buffers.count(send) * size());
        allgatherv("allgather", send, recv, counts, Args.packed(counts));
    }

    /** Every peer's send into every peer's recv: rank r's counts[r] elements at displs[r]. */
    public void allgatherv(Object send, Object recv, int[] counts, int[] displs) {
        allgatherv("allgatherv", send, recv, counts, displs);
    }

    private void allgatherv(String operation, Object send, Object recv, int[] counts, int[] displs) {
        Buffers.check(send, operation + " send buffer");
        Buffers.check(recv, operation + " recv buffer");
        Args.sameType(send, recv, operation);
        Args.receiveBlocks(operation, counts, displs, size(), Buffers.count(recv));
        long total = Args.counts(operation, counts, size());
        if (Buffers.count(send) != counts[rank()]) {
            throw new IllegalArgumentException("rank " + rank() + " sends " + Buffers.count(send)
                    + " elements but counts[" + rank() + "] is " + counts[rank()]);
        }
        long bytes = total * Buffers.nominalBytes(send);
        int width = Buffers.elementBytes(send);
        blocking(operation, -1, bytes(send, Buffers.count(send)), send, Buffers.count(send), null, x -> {
            Algorithm a = pick(x, Algorithm.Operation.ALLGATHER, bytes, null, width);
            if (a == Algorithm.ALLGATHER_SHARED_MEMORY) {
                sharedMemory.allgatherv(send, recv, counts, displs);
                return;
            }
            // In place only without a network hop: over TCP in the cluster in a box it measured
            // 1.3-2.2x slower than the framed algorithms, for reasons not yet found
            // (docs/notes/benchmark-history.md, "Allgather in place").
            boolean inPlace = a == Algorithm.ALLGATHER_RING
                    || a == Algorithm.ALLGATHER_RECURSIVE_DOUBLING && Integer.bitCount(size()) == 1;
            if (inPlace && width > 0 && total * width <= Integer.MAX_VALUE && !peers().overNetwork()) {
                allgatherInPlace(x, a, send, recv, counts, displs, width, (int) (total * width));
                return;
            }
            byte[][] blocks = new byte[size()][];
            blocks[rank()] = Buffers.encode(send, 0, counts[rank()]);
            switch (a) {
                case ALLGATHER_DOMAIN -> DomainCollectives.allgather(channel, blocks);
                case ALLGATHER_RING -> RingAllgather.run(x, blocks);
                case ALLGATHER_GATHER_BCAST -> GatherBcastAllgather.run(x, blocks, false);
                case ALLGATHER_GATHER_LINEAR -> GatherBcastAllgather.run(x, blocks, true);
                default -> RecursiveDoublingAllgather.run(x, blocks);
            }
            for (int r = 0; r < size(); r++) {
                if (r == rank()) {
                    Buffers.copy(send, 0, recv, displs[r], counts[r]);
                } else {
                    Buffers.decode(blocks[r], recv, displs[r], counts[r], "allgather block from rank " + r);
                }
            }
        });
    }

    /**
     * Primitive blocks over point-to-point: laid out in rank order in this communicator's scratch
     * buffer, received and forwarded in place ({@link AllgatherInPlace}), this peer's block encoded
     * once and the others decoded once.
     */
    private void allgatherInPlace(Exchange x, Algorithm a, Object send, Object recv, int[] counts, int[] displs,
                                  int width, int totalBytes) {
        int n = size();
        int[] off = new int[n];
        int[] len = new int[n];
        for (int r = 0, at = 0; r < n; r++) {
            off[r] = at;
            len[r] = counts[r] * width;
            at += len[r];
        }
        ByteBuffer all = scratch.recv(totalBytes);
        Buffers.encodeInto(send, 0, counts[rank()], all, off[rank()]);
        if (a == Algorithm.ALLGATHER_RING) {
            AllgatherInPlace.ring(x, all, off, len);
        } else {
            AllgatherInPlace.recursiveDoubling(x, all, off, len);
        }
        for (int r = 0; r < n; r++) {
            if (r == rank()) {
                Buffers.copy(send, 0, recv, displs[r], counts[r]);
            } else {
                Buffers.decodeFrom(all, off[r], recv, displs[r], counts[r]);
            }
        }
    }

    /** Block r of every peer's send (send's length / size elements each) goes to rank r, at this rank's index. */
    public void alltoall(Object send, Object recv) {
        Buffers.check(send, "alltoall send buffer");
        int total = Buffers.count(send);
        if (total % size() != 0) {
            throw new IllegalArgumentException("alltoall send buffer holds " + total + " elements, not a multiple of "
                    + size() + " peers");
        }
        int[] counts = Args.uniform(total / size(), size());
        int[] displs = Args.packed(counts);
        Args.holds(recv, "alltoall recv buffer", total);
        alltoallv("alltoall", send, counts, displs, recv, counts, displs);
    }

    /** Like {@link #alltoall} with per-peer counts and displacements on both sides. */
    public void alltoallv(Object send, int[] sendCounts, int[] sendDispls, Object recv, int[] recvCounts,
                          int[] recvDispls) {
        alltoallv("alltoallv", send, sendCounts, sendDispls, recv, recvCounts, recvDispls);
    }

    private void alltoallv(String operation, Object send, int[] sendCounts, int[] sendDispls, Object recv,
                           int[] recvCounts, int[] recvDispls) {
        Buffers.check(send, operation + " send buffer");
        Buffers.check(recv, operation + " recv buffer");
        Args.sameType(send, recv, operation);
        Args.blocks(operation + " send", sendCounts, sendDispls, size(), Buffers.count(send));
        Args.receiveBlocks(operation + " recv", recvCounts, recvDispls, size(), Buffers.count(recv));
        blocking(operation, -1, bytes(send, Buffers.count(send)), send, Buffers.count(send), null, x -> {
            pick(Algorithm.Operation.ALLTOALL, 0, null);
            PairwiseAlltoall.run(x, send, sendCounts, sendDispls, recv, recvCounts, recvDispls);
        });
    }

    // ---- reductions ------------------------------------------------------------------------

    /** The reductions live in their own class; this instance's sequencing and policy are shared. */
    private final Reductions reductions = new Reductions(this);

    public void reduce(int root, Object send, Object recv, Op op) {
        reductions.reduce(root, send, recv, op);
    }

    public void allreduce(Object send, Object recv, Op op) {
        reductions.allreduce(send, recv, op);
    }

    /** Starts an {@link #allreduce}; both buffers must stay untouched until the request completes. */
    public Request iallreduce(Object send, Object recv, Op op) {
        return reductions.iallreduce(send, recv, op);
    }

    public void reduceScatter(Object send, Object recv, int[] counts, Op op) {
        reductions.reduceScatter(send, recv, counts, op);
    }

    public void scan(Object send, Object recv, Op op) {
        reductions.scan(send, recv, op, true);
    }

    /** Exclusive scan: rank r gets x0 op ... op x(r-1); rank 0's recv is left untouched. */
    public void exscan(Object send, Object recv, Op op) {
        reductions.scan(send, recv, op, false);
    }

    // ---- for Reductions --------------------------------------------------------------------

    interface Step extends Body {
    }

    /** A reduction of {@code count} elements of {@code send} with {@code op}. */
    void runBlocking(String operation, int root, long bytes, Object send, long count, Op op, Step step) {
        blocking(operation, root, bytes, send, count, op, step);
    }

    Request runNonblocking(String operation, int root, long bytes, Object send, long count, Op op, Step step) {
        return nonblocking(operation, root, bytes, send, count, op, step);
    }

    /** The algorithm of a reduction of {@code buffer}'s type, as {@link #pick(Exchange, Algorithm.Operation, long, Op, int)}. */
    Algorithm choose(Exchange x, Algorithm.Operation operation, long bytes, Op op, Object buffer) {
        return pick(x, operation, bytes, op, Buffers.elementBytes(buffer));
    }

    SharedMemoryCollectives sharedMemory() {
        return sharedMemory;
    }

    CollectiveChannel channel() {
        return channel;
    }

    /** Waits for the nonblocking collectives in flight, then ends their thread. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        runner.close();
        running.lock();
        try {
            scratch.release();
            sharedMemory.close();
        } finally {
            running.unlock();
        }
    }
}
