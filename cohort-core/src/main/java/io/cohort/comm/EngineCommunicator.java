package io.cohort.comm;

import io.cohort.BroadcastDomain;
import io.cohort.Communicator;
import io.cohort.Group;
import io.cohort.Message;
import io.cohort.MessageTruncatedException;
import io.cohort.Op;
import io.cohort.collective.Collectives;
import io.cohort.collective.CollectiveMode;
import io.cohort.collective.CollectivePolicy;
import io.cohort.collective.EngineChannel;
import io.cohort.Request;
import io.cohort.Status;
import io.cohort.engine.AbstractRequest;
import io.cohort.engine.DomainPolling;
import io.cohort.engine.Payloads;
import io.cohort.engine.ProgressEngine;
import io.cohort.engine.TranslatedRequest;
import io.cohort.profile.JobSpan;
import io.cohort.profile.ProbeSpan;
import io.cohort.profile.Profiling;
import io.cohort.profile.ReceiveSpan;
import io.cohort.profile.SendSpan;
import io.cohort.broadcast.pcode.DomainFactory;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.Optional;

/**
 * The communicator over a {@link ProgressEngine}. It owns three contexts: point-to-point traffic
 * uses {@code context}, its own housekeeping (opening the broadcast domain, making communicators)
 * {@code context + 1}, and the collectives ({@link Collectives}) {@code context + 2}, so a
 * program's messages can never match a collective's, whatever tags it picks.
 *
 * <p>The world (made with the public constructor) has contexts 0 and 1 and ranks that are the
 * engine's. A communicator made by {@link #dup}, {@link #split} or {@link #create} has its own
 * contexts ({@link ContextAllocator}) and a rank map: its ranks are translated to the engine's on
 * the way out and back in every {@link Status}, {@link Message} and {@link Request} it returns. It
 * shares the world's engine; closing it closes only its broadcast domain, and closing the world
 * closes every communicator made from it first.
 *
 * <p>The profiler's message events ({@code io.cohort.profile}) are recorded here, at the API the
 * program calls, and nowhere below: the collectives and the housekeeping talk to the engine
 * directly, so their messages never show as the program's (they still count in the sequence
 * numbers, which the engine keeps). An event names the communicator by its point-to-point context
 * and the peer by its world rank.
 */
public class EngineCommunicator implements Communicator {
    /** The housekeeping context's tag for opening the domain; {@link CommunicatorCreation} has the others. */
    static final int TAG_DOMAIN = 3;

    protected final ProgressEngine engine;
    final int context;
    final int collectiveContext;
    private final Collectives collectives;
    private final Runnable onClose;
    private volatile boolean closed;
    final ContextAllocator contexts;
    /** Communicator rank to engine rank, and back (-1: not a member); null for the world, whose ranks are the engine's. */
    final int[] worldRanks;
    final int[] commRanks;
    private final int rank;
    private final int size;
    private final EngineCommunicator world;
    private DomainFactory domainFactory;
    private DomainPolling domainPolling;
    /** This communicator's broadcast domain once some call opened it; guarded by this. */
    private BroadcastDomain domain;
    /** The world's Job event while a recording wants it: begun at {@link #recordJobStart}, finished at close. */
    private volatile JobSpan job;

    public EngineCommunicator(ProgressEngine engine, int context, Runnable onClose) {
        this.engine = engine;
        this.context = context;
        this.collectiveContext = context + 1;
        this.onClose = onClose;
        this.contexts = new ContextAllocator();
        this.worldRanks = null;
        this.commRanks = null;
        this.rank = engine.rank();
        this.size = engine.size();
        this.world = this;
        this.collectives = new Collectives(EngineChannel.world(engine, context + 2, this::broadcastDomain),
                collectiveMode(), verboseLog(rank), context);
        forceAlgorithms(collectives);
    }

    /**
     * Records, for the profiler, who this peer is ({@code io.cohort.PeerInfo}) and begins the job's
     * {@code io.cohort.Job} event, if a recording wants them. Called once on the world, at init.
     */
    public void recordJobStart(String jobId, String host) {
        Profiling.refresh(); // a recording started before init (a test's, -XX:StartFlightRecording) counts from here
        Profiling.peerInfo(engine.rank(), engine.size(), jobId, host);
        job = Profiling.startJob(engine.rank());
    }

    /** A communicator made from {@code parent}: contexts {@code context} and {@code context + 1}, members {@code worldRanks}. */
    EngineCommunicator(EngineCommunicator parent, int context, int[] worldRanks) {
        this.engine = parent.engine;
        this.context = context;
        this.collectiveContext = context + 1;
        this.onClose = null;
        this.contexts = parent.contexts;
        this.world = parent.world;
        this.worldRanks = worldRanks;
        this.commRanks = new int[engine.size()];
        java.util.Arrays.fill(commRanks, -1);
        for (int r = 0; r < worldRanks.length; r++) {
            commRanks[worldRanks[r]] = r;
        }
        this.rank = commRanks[engine.rank()];
        this.size = worldRanks.length;
        synchronized (world) {
            if (world.domainFactory != null) {
                this.domainFactory = world.domainFactory.forCommunicator(context, worldRanks, rank);
                this.domainPolling = world.domainPolling;
            }
        }
        this.collectives = new Collectives(new EngineChannel(engine, context + 2, worldRanks, rank, this::broadcastDomain),
                collectiveMode(), verboseLog(rank), context, io.cohort.stacks.CollectiveCall.members(worldRanks));
        forceAlgorithms(collectives);
        contexts.made(this);
    }

    /**
     * {@code cohort.collectives}, else {@code COHORT_COLLECTIVES} ({@code cohort run --collectives}),
     * else auto ({@link CollectivePolicy}'s measured thresholds). A peer waiting in a domain call
     * drives only the domain; its progress agent (launched peers and {@code LocalCohort}'s alike)
     * keeps point-to-point traffic to it moving meanwhile.
     */
    private static CollectiveMode collectiveMode() {
        String v = System.getProperty(CollectiveMode.MODE_PROP_NAME);
        return CollectiveMode.parse(v != null ? v : System.getenv("COHORT_COLLECTIVES"));
    }

    /**
     * {@code cohort.collectives.algorithms} ({@link CollectivePolicy#parseForced}): algorithms to use
     * in place of the mode's choice, as Open MPI's {@code coll_tuned_*_algorithm} settings do; every
     * peer gets the same JVM options from {@code cohort run --jvm-opt}, so all force alike.
     */
    static void forceAlgorithms(Collectives collectives) {
        for (io.cohort.collective.Algorithm a
                : CollectivePolicy.parseForced(System.getProperty(CollectivePolicy.FORCE_PROP_NAME))) {
            collectives.force(a);
        }
    }

    /** With {@code cohort run --verbose}, each communicator's rank 0 prints each of its collective algorithm choices once. */
    private static java.util.function.Consumer<String> verboseLog(int commRank) {
        boolean verbose = "1".equals(System.getenv("COHORT_VERBOSE")) || Boolean.getBoolean("cohort.verbose");
        return verbose && commRank == 0 ? System.err::println : null;
    }

    /** This communicator's collectives, for choosing an algorithm by hand (tests, benchmarks). */
    public Collectives collectives() {
        return collectives;
    }

    public ProgressEngine engine() {
        return engine;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    // ---- rank translation ------------------------------------------------------------------------

    /** The engine's rank of this communicator's {@code r} ({@code ANY_SOURCE} stays). */
    int toEngine(int r) {
        if (worldRanks == null || r == ANY_SOURCE) {
            return r;
        }
        if (r < 0 || r >= size) {
            throw new IllegalArgumentException("rank " + r + " is not in this communicator of " + size
                    + " (ranks 0 to " + (size - 1) + ")");
        }
        return worldRanks[r];
    }

    private Status fromEngine(Status s) {
        return worldRanks == null ? s : TranslatedRequest.translate(s, this::commRank);
    }

    private Message fromEngine(Message m) {
        return worldRanks == null ? m : TranslatedRequest.translate(m, this::commRank);
    }

    private MessageTruncatedException fromEngine(MessageTruncatedException t) {
        return worldRanks == null ? t : TranslatedRequest.translate(t, this::commRank);
    }

    private Request fromEngine(Request r) {
        return worldRanks == null ? r : new TranslatedRequest(r, this::commRank);
    }

    private int commRank(int engineRank) {
        return commRanks[engineRank];
    }

    /** Sends check their tag first: and that the communicator is still open (a closed world's engine refuses on its own). */
    private void checkTag(int tag) {
        checkOpen();
        if (tag < 0) {
            throw new IllegalArgumentException("tag " + tag + " is negative; tags are 0 to " + MAX_TAG
                    + " (ANY_TAG is only for receives)");
        }
    }

    /** Receives and probes take a tag from 0 to MAX_TAG or ANY_TAG; any other negative tag is a mistake, not a wildcard. */
    private void checkRecvTag(int tag) {
        checkOpen();
        if (tag < 0 && tag != ANY_TAG) {
            throw new IllegalArgumentException("tag " + tag + " is negative; receives take a tag from 0 to " + MAX_TAG
                    + " or ANY_TAG (" + ANY_TAG + ")");
        }
    }

    private void checkOpen() {
        if (closed && world != this) {
            throw new IllegalStateException(this + " is closed");
        }
    }

    /** A send's destination: a rank of this communicator, never the receive wildcard. */
    private int toDest(int dest) {
        if (dest == ANY_SOURCE) {
            throw new IllegalArgumentException("destination rank " + dest + " (ANY_SOURCE) is only for receives; ranks are 0 to "
                    + (size - 1));
        }
        return toEngine(dest);
    }

    private Request receive(int source, int tag, ByteBuffer buffer) {
        checkRecvTag(tag);
        if (buffer != null) {
            checkWritable(buffer);
        }
        AbstractRequest r = engine.receive(context, toEngine(source), tag, buffer);
        r.userOperation("irecv"); // the program's: its waits record the message's Receive event
        return fromEngine(r);
    }

    /** A nonblocking receive into {@code buffer} at [offset, offset + length), position and limit untouched. */
    private Request receive(int source, int tag, ByteBuffer buffer, int offset, int length) {
        checkRecvTag(tag);
        checkWindow(buffer, offset, length);
        checkWritable(buffer);
        AbstractRequest r = engine.receive(context, toEngine(source), tag, buffer, offset, length, false);
        r.userOperation("irecv"); // the program's: its waits record the message's Receive event
        return fromEngine(r);
    }

    /** An isend; {@code event} (null unless recorded) began before the payload was encoded. */
    private Request post(int dest, int tag, ByteBuffer payload, SendSpan event) {
        return post(dest, tag, payload, payload.position(), payload.remaining(), event);
    }

    /** An isend of {@code bytes} bytes of {@code payload} from index {@code offset}. */
    private Request post(int dest, int tag, ByteBuffer payload, int offset, int bytes, SendSpan event) {
        checkTag(tag);
        int peer = toDest(dest);
        AbstractRequest r = engine.send(peer, context, tag, payload, offset, bytes);
        r.userOperation("isend");
        if (event != null) {
            event.finish(context, peer, tag, bytes, r.sequence(), "isend");
        }
        return fromEngine(r);
    }

    /** A blocking send; {@code event} (null unless recorded) began before the payload was encoded. */
    private void sendAndWait(int dest, int tag, ByteBuffer payload, SendSpan event, String operation) {
        sendAndWait(dest, tag, payload, payload.position(), payload.remaining(), event, operation);
    }

    /** A blocking send of {@code bytes} bytes of {@code payload} from index {@code offset}. */
    private void sendAndWait(int dest, int tag, ByteBuffer payload, int offset, int bytes, SendSpan event,
                             String operation) {
        checkTag(tag);
        int peer = toDest(dest);
        long sequence = engine.sendAndWait(peer, context, tag, payload, offset, bytes);
        if (event != null) {
            event.finish(context, peer, tag, bytes, sequence, operation);
        }
    }

    private Status receiveInto(int source, int tag, ByteBuffer buffer) {
        return receiveInto(source, tag, buffer, buffer.position(), buffer.remaining(), true);
    }

    /** A blocking receive into {@code buffer} at [offset, offset + length); {@code advance}: then move its position. */
    private Status receiveInto(int source, int tag, ByteBuffer buffer, int offset, int length, boolean advance) {
        checkRecvTag(tag);
        checkWritable(buffer);
        ReceiveSpan e = Profiling.startReceive();
        Status s;
        try {
            s = engine.receiveInto(context, toEngine(source), tag, buffer, offset, length, advance, e);
        } catch (MessageTruncatedException t) {
            throw fromEngine(t);
        }
        if (e != null) {
            e.finish(context, "recv");
        }
        return fromEngine(s);
    }

    /** A blocking receive of any length; tells {@code event} (null unless recorded) what matched, the caller finishes it. */
    private Message receiveMessage(int source, int tag, ReceiveSpan event) {
        checkRecvTag(tag);
        try {
            return fromEngine(engine.receiveMessage(context, toEngine(source), tag, event));
        } catch (MessageTruncatedException t) {
            throw fromEngine(t);
        }
    }

    /** An offset-and-length window must lie within the buffer's limit, as for the JDK's absolute bulk get and put. */
    private static void checkWindow(ByteBuffer buffer, int offset, int length) {
        if (offset < 0 || length < 0 || offset > buffer.limit() - length) {
            throw new IndexOutOfBoundsException("bytes " + offset + " to " + ((long) offset + length)
                    + " are not within the buffer's limit of " + buffer.limit());
        }
    }

    /** {@code length} bytes of {@code data} from {@code offset}, refused in one sentence when they are not all in it. */
    private static ByteBuffer wrap(byte[] data, int offset, int length) {
        sending(data);
        if (offset < 0 || length < 0 || offset > data.length - length) {
            throw new IndexOutOfBoundsException("bytes " + offset + " to " + ((long) offset + length)
                    + " are not within the array of " + data.length);
        }
        return ByteBuffer.wrap(data, offset, length);
    }

    /** {@code data}, refused in one sentence if null (not a JDK message about Cohort's own variables). */
    private static <T> T sending(T data) {
        if (data == null) {
            throw new IllegalArgumentException("the send buffer is null; pass an array or buffer (an empty one sends"
                    + " a message of no data)");
        }
        return data;
    }

    /** {@code buffer}, refused in one sentence if null. */
    private static <T> T receiving(T buffer) {
        if (buffer == null) {
            throw new IllegalArgumentException("the receive buffer is null");
        }
        return buffer;
    }

    /** A read-only buffer would fail only when a message is copied in, on whichever thread moves it: refuse it here. */
    private static void checkWritable(ByteBuffer buffer) {
        if (buffer.isReadOnly()) {
            throw new IllegalArgumentException("the receive buffer is read-only");
        }
    }

    // ---- sends -----------------------------------------------------------------------------------

    @Override
    public void send(int dest, int tag, byte[] data) {
        sendAndWait(dest, tag, ByteBuffer.wrap(sending(data)), Profiling.startSend(), "send");
    }

    @Override
    public void send(int dest, int tag, byte[] data, int offset, int length) {
        sendAndWait(dest, tag, wrap(data, offset, length), Profiling.startSend(), "send");
    }

    @Override
    public void send(int dest, int tag, ByteBuffer data) {
        sendAndWait(dest, tag, sending(data), Profiling.startSend(), "send");
    }

    @Override
    public void send(int dest, int tag, ByteBuffer data, int offset, int length) {
        checkWindow(sending(data), offset, length);
        sendAndWait(dest, tag, data, offset, length, Profiling.startSend(), "send");
    }

    @Override
    public void send(int dest, int tag, int[] data) {
        SendSpan e = Profiling.startSend();
        sendAndWait(dest, tag, ByteBuffer.wrap(Payloads.of(sending(data))), e, "send");
    }

    @Override
    public void send(int dest, int tag, long[] data) {
        SendSpan e = Profiling.startSend();
        sendAndWait(dest, tag, ByteBuffer.wrap(Payloads.of(sending(data))), e, "send");
    }

    @Override
    public void send(int dest, int tag, double[] data) {
        SendSpan e = Profiling.startSend();
        sendAndWait(dest, tag, ByteBuffer.wrap(Payloads.of(sending(data))), e, "send");
    }

    @Override
    public void send(int dest, int tag, float[] data) {
        SendSpan e = Profiling.startSend();
        sendAndWait(dest, tag, ByteBuffer.wrap(Payloads.of(sending(data))), e, "send");
    }

    @Override
    public void send(int dest, int tag, short[] data) {
        SendSpan e = Profiling.startSend();
        sendAndWait(dest, tag, ByteBuffer.wrap(Payloads.of(sending(data))), e, "send");
    }

    @Override
    public void send(int dest, int tag, char[] data) {
        SendSpan e = Profiling.startSend();
        sendAndWait(dest, tag, ByteBuffer.wrap(Payloads.of(sending(data))), e, "send");
    }

    @Override
    public void sendObject(int dest, int tag, Object object) {
        SendSpan e = Profiling.startSend();
        sendAndWait(dest, tag, ByteBuffer.wrap(Payloads.ofObject(object)), e, "sendObject");
    }

    @Override
    public Request isend(int dest, int tag, byte[] data) {
        return post(dest, tag, ByteBuffer.wrap(sending(data)), Profiling.startSend());
    }

    @Override
    public Request isend(int dest, int tag, byte[] data, int offset, int length) {
        return post(dest, tag, wrap(data, offset, length), Profiling.startSend());
    }

    @Override
    public Request isend(int dest, int tag, ByteBuffer data) {
        return post(dest, tag, sending(data), Profiling.startSend());
    }

    @Override
    public Request isend(int dest, int tag, ByteBuffer data, int offset, int length) {
        checkWindow(sending(data), offset, length);
        return post(dest, tag, data, offset, length, Profiling.startSend());
    }

    @Override
    public Request isend(int dest, int tag, int[] data) {
        SendSpan e = Profiling.startSend();
        return post(dest, tag, ByteBuffer.wrap(Payloads.of(sending(data))), e);
    }

    @Override
    public Request isend(int dest, int tag, long[] data) {
        SendSpan e = Profiling.startSend();
        return post(dest, tag, ByteBuffer.wrap(Payloads.of(sending(data))), e);
    }

    @Override
    public Request isend(int dest, int tag, double[] data) {
        SendSpan e = Profiling.startSend();
        return post(dest, tag, ByteBuffer.wrap(Payloads.of(sending(data))), e);
    }

    // ---- receives --------------------------------------------------------------------------------

    @Override
    public Message recv(int source, int tag) {
        ReceiveSpan e = Profiling.startReceive();
        Message m = receiveMessage(source, tag, e);
        if (e != null) {
            e.finish(context, "recv");
        }
        return m;
    }

    @Override
    public Status recv(int source, int tag, byte[] buffer) {
        return receiveInto(source, tag, ByteBuffer.wrap(receiving(buffer)));
    }

    @Override
    public Status recv(int source, int tag, ByteBuffer buffer) {
        return receiveInto(source, tag, receiving(buffer));
    }

    @Override
    public Status recv(int source, int tag, byte[] buffer, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, receiving(buffer).length);
        return receiveInto(source, tag, ByteBuffer.wrap(receiving(buffer)), offset, length, false);
    }

    @Override
    public Status recv(int source, int tag, ByteBuffer buffer, int offset, int length) {
        checkWindow(receiving(buffer), offset, length);
        return receiveInto(source, tag, buffer, offset, length, false);
    }

    @Override
    public Status recv(int source, int tag, int[] buffer) {
        receiving(buffer); // before a message is taken for it, or the message would be lost
        ReceiveSpan e = Profiling.startReceive();
        Message m = receiveMessage(source, tag, e);
        Payloads.into(m.bytes(), m.status(), buffer, Integer.BYTES, buffer.length, "int");
        if (e != null) {
            e.finish(context, "recv");
        }
        return m.status();
    }

    @Override
    public Status recv(int source, int tag, long[] buffer) {
        receiving(buffer); // before a message is taken for it, or the message would be lost
        ReceiveSpan e = Profiling.startReceive();
        Message m = receiveMessage(source, tag, e);
        Payloads.into(m.bytes(), m.status(), buffer, Long.BYTES, buffer.length, "long");
        if (e != null) {
            e.finish(context, "recv");
        }
        return m.status();
    }

    @Override
    public Status recv(int source, int tag, double[] buffer) {
        receiving(buffer); // before a message is taken for it, or the message would be lost
        ReceiveSpan e = Profiling.startReceive();
        Message m = receiveMessage(source, tag, e);
        Payloads.into(m.bytes(), m.status(), buffer, Double.BYTES, buffer.length, "double");
        if (e != null) {
            e.finish(context, "recv");
        }
        return m.status();
    }

    @Override
    public <T> T recvObject(int source, int tag) {
        ReceiveSpan e = Profiling.startReceive();
        T object = receiveMessage(source, tag, e).asObject();
        if (e != null) {
            e.finish(context, "recvObject");
        }
        return object;
    }

    @Override
    public Request irecv(int source, int tag) {
        return receive(source, tag, null);
    }

    @Override
    public Request irecv(int source, int tag, ByteBuffer buffer) {
        return receive(source, tag, receiving(buffer));
    }

    @Override
    public Request irecv(int source, int tag, ByteBuffer buffer, int offset, int length) {
        return receive(source, tag, receiving(buffer), offset, length);
    }

    @Override
    public Status probe(int source, int tag) {
        checkRecvTag(tag);
        ProbeSpan e = Profiling.startProbe();
        int peer = toEngine(source); // ANY_SOURCE stays -1, as the event wants it
        Status s = fromEngine(engine.probe(context, peer, tag, true).orElseThrow());
        if (e != null) {
            e.finish(context, peer, tag, true);
        }
        return s;
    }

    @Override
    public Optional<Status> iprobe(int source, int tag) {
        checkRecvTag(tag);
        ProbeSpan e = Profiling.startProbe();
        int peer = toEngine(source);
        Optional<Status> s = engine.probe(context, peer, tag, false);
        if (e != null) {
            e.finish(context, peer, tag, s.isPresent());
        }
        return s.map(this::fromEngine);
    }

    // ---- collectives over point-to-point ---------------------------------------------------------

    // ---- collectives (io.cohort.collective) ----------------------------------------------------

    /**
     * The root's bytes at every peer, whose length only the root needs to know. A non-root's
     * {@code data} of the same length is filled and returned; otherwise a new array is.
     */
    @Override
    public byte[] bcast(int root, byte[] data) {
        if (rank == root && data == null) {
            throw new IllegalArgumentException("the root of a bcast must supply data");
        }
        byte[] got = collectives.bcastBytes(root, data);
        if (rank != root && data != null && data.length == got.length) {
            System.arraycopy(got, 0, data, 0, got.length);
            return data;
        }
        return got;
    }

    @Override
    public <T> T bcastObject(int root, T object) {
        return collectives.bcastObject(root, object);
    }

    @Override
    public void barrier() {
        collectives.barrier();
    }

    @Override
    public Request ibarrier() {
        return collectives.ibarrier();
    }

    @Override
    public void bcast(int root, Object buffer) {
        collectives.bcast(root, buffer);
    }

    @Override
    public Request ibcast(int root, Object buffer) {
        return collectives.ibcast(root, buffer);
    }

    @Override
    public void gather(int root, Object send, Object recv) {
        collectives.gather(root, send, recv);
    }

    @Override
    public void gatherv(int root, Object send, Object recv, int[] counts, int[] displs) {
        collectives.gatherv(root, send, recv, counts, displs);
    }

    @Override
    public void scatter(int root, Object send, Object recv) {
        collectives.scatter(root, send, recv);
    }

    @Override
    public void scatterv(int root, Object send, int[] counts, int[] displs, Object recv) {
        collectives.scatterv(root, send, counts, displs, recv);
    }

    @Override
    public void allgather(Object send, Object recv) {
        collectives.allgather(send, recv);
    }

    @Override
    public void allgatherv(Object send, Object recv, int[] counts, int[] displs) {
        collectives.allgatherv(send, recv, counts, displs);
    }

    @Override
    public void alltoall(Object send, Object recv) {
        collectives.alltoall(send, recv);
    }

    @Override
    public void alltoallv(Object send, int[] sendCounts, int[] sendDispls, Object recv, int[] recvCounts,
                          int[] recvDispls) {
        collectives.alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls);
    }

    @Override
    public void reduce(int root, Object send, Object recv, Op op) {
        collectives.reduce(root, send, recv, op);
    }

    @Override
    public void allreduce(Object send, Object recv, Op op) {
        collectives.allreduce(send, recv, op);
    }

    @Override
    public Request iallreduce(Object send, Object recv, Op op) {
        return collectives.iallreduce(send, recv, op);
    }

    @Override
    public void reduceScatter(Object send, Object recv, int[] counts, Op op) {
        collectives.reduceScatter(send, recv, counts, op);
    }

    @Override
    public void scan(Object send, Object recv, Op op) {
        collectives.scan(send, recv, op);
    }

    @Override
    public void exscan(Object send, Object recv, Op op) {
        collectives.exscan(send, recv, op);
    }

    // ---- groups and new communicators ----------------------------------------------------------

    /** This communicator's first context (point-to-point); the next two are its housekeeping and collectives. */
    int context() {
        return context;
    }

    @Override
    public Group group() {
        int[] members = worldRanks;
        if (members == null) {
            members = new int[size];
            java.util.Arrays.setAll(members, i -> i);
        }
        return new Group(members, engine.rank());
    }

    @Override
    public Communicator dup() {
        return create(group());
    }

    @Override
    public Communicator split(int color, int key) {
        return new CommunicatorCreation(this).split(color, key);
    }

    @Override
    public Communicator create(Group group) {
        return new CommunicatorCreation(this).create(group);
    }

    @Override
    public Communicator createGroup(Group group, int tag) {
        return new CommunicatorCreation(this).createGroup(group, tag);
    }

    // ---- the broadcast domain ------------------------------------------------------------------

    /** Lets {@link #broadcastDomain()} open the job's domain with {@code factory}, polled by {@code polling}. */
    public synchronized void enableBroadcastDomain(DomainFactory factory, DomainPolling polling) {
        this.domainFactory = factory;
        this.domainPolling = polling;
    }

    /**
     * Opens the domain on first use, collectively ({@link DomainOpening}: every peer at the same
     * call), of the job's protocol, PCODE or EQA.
     */
    @Override
    public synchronized BroadcastDomain broadcastDomain() {
        if (domain != null) {
            return domain;
        }
        if (closed) {
            throw new IllegalStateException(this + " is closed");
        }
        if (domainFactory == null) {
            throw new UnsupportedOperationException("this job has no broadcast domain");
        }
        java.util.function.Consumer<String> log = verboseLog(rank);
        domain = new DomainOpening(this, domainFactory, domainPolling, log == null ? s -> { } : log).open();
        return domain;
    }

    byte[] receiveCollective(int source, int tag) {
        Request r = engine.receive(collectiveContext, toEngine(source), tag, null);
        r.await();
        return r.message().bytes();
    }

    /**
     * Closes the broadcast domain first (it lingers until the others confirmed our frames), then the
     * rest. The world first closes every communicator made from it that is still open.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        JobSpan j = job;
        if (j != null) {
            job = null;
            j.finish(); // the program's time with the world ends when it asks to close
        }
        if (world == this) {
            engine.programClosing();
            for (EngineCommunicator c : contexts.open()) {
                c.close();
            }
        } else {
            contexts.closed(this);
        }
        collectives.close(); // waits for nonblocking collectives, which may still use the domain
        BroadcastDomain d;
        synchronized (this) {
            d = domain;
        }
        try {
            if (d != null) {
                try {
                    d.close();
                } finally {
                    domainPolling.stopPolling(d);
                }
            }
        } finally {
            if (d != null && d.failed() && world == this) {
                // The domain gave up on a peer (frozen, cut off, or out of step): the goodbye wait of a
                // graceful close would wait for that peer for ever, after the error was already thrown.
                engine.abort();
            }
            if (onClose != null) {
                onClose.run();
            }
        }
    }

    public boolean isClosed() {
        return closed;
    }

    @Override
    public String toString() {
        return worldRanks == null ? "Communicator[rank " + rank + " of " + size + "]"
                : "Communicator[rank " + rank + " of " + size + ", context " + context + "]";
    }
}
