package io.cohort.engine;

import io.cohort.BroadcastDomain;
import io.cohort.CohortException;
import io.cohort.Communicator;
import io.cohort.Message;
import io.cohort.Request;
import io.cohort.Status;
import io.cohort.transport.bcast.DomainFactory;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The communicator over a {@link ProgressEngine}. Point-to-point traffic uses context
 * {@code context}; the collectives built here use {@code context + 1}, so a program's messages
 * can never match a collective's, whatever tags it picks.
 */
public class EngineCommunicator implements Communicator {
    static final int TAG_BCAST = 1;
    static final int TAG_BARRIER = 2;
    static final int TAG_DOMAIN = 3;

    protected final ProgressEngine engine;
    private final int context;
    private final int collectiveContext;
    private final Runnable onClose;
    private volatile boolean closed;
    private DomainFactory domainFactory;
    private DomainPolling domainPolling;
    /** The job's broadcast domain once some call opened it; guarded by this. */
    private BroadcastDomain domain;

    public EngineCommunicator(ProgressEngine engine, int context, Runnable onClose) {
        this.engine = engine;
        this.context = context;
        this.collectiveContext = context + 1;
        this.onClose = onClose;
    }

    public ProgressEngine engine() {
        return engine;
    }

    @Override
    public int rank() {
        return engine.rank();
    }

    @Override
    public int size() {
        return engine.size();
    }

    private static void checkTag(int tag) {
        if (tag < 0) {
            throw new IllegalArgumentException("tag " + tag + " is negative; tags are 0 to " + MAX_TAG
                    + " (ANY_TAG is only for receives)");
        }
    }

    /** Receives and probes take a tag from 0 to MAX_TAG or ANY_TAG; any other negative tag is a mistake, not a wildcard. */
    private static void checkRecvTag(int tag) {
        if (tag < 0 && tag != ANY_TAG) {
            throw new IllegalArgumentException("tag " + tag + " is negative; receives take a tag from 0 to " + MAX_TAG
                    + " or ANY_TAG (" + ANY_TAG + ")");
        }
    }

    private Request receive(int source, int tag, ByteBuffer buffer) {
        checkRecvTag(tag);
        return engine.receive(context, source, tag, buffer);
    }

    private Request post(int dest, int tag, ByteBuffer payload) {
        checkTag(tag);
        return engine.send(dest, context, tag, payload);
    }

    private void sendAndWait(int dest, int tag, ByteBuffer payload) {
        checkTag(tag);
        engine.sendAndWait(dest, context, tag, payload);
    }

    private Status receiveInto(int source, int tag, ByteBuffer buffer) {
        checkRecvTag(tag);
        return engine.receiveInto(context, source, tag, buffer);
    }

    // ---- sends -----------------------------------------------------------------------------------

    @Override
    public void send(int dest, int tag, byte[] data) {
        sendAndWait(dest, tag, ByteBuffer.wrap(data));
    }

    @Override
    public void send(int dest, int tag, byte[] data, int offset, int length) {
        sendAndWait(dest, tag, ByteBuffer.wrap(data, offset, length));
    }

    @Override
    public void send(int dest, int tag, ByteBuffer data) {
        sendAndWait(dest, tag, data);
    }

    @Override
    public void send(int dest, int tag, int[] data) {
        sendAndWait(dest, tag, ByteBuffer.wrap(Payloads.of(data)));
    }

    @Override
    public void send(int dest, int tag, long[] data) {
        sendAndWait(dest, tag, ByteBuffer.wrap(Payloads.of(data)));
    }

    @Override
    public void send(int dest, int tag, double[] data) {
        sendAndWait(dest, tag, ByteBuffer.wrap(Payloads.of(data)));
    }

    @Override
    public void send(int dest, int tag, float[] data) {
        sendAndWait(dest, tag, ByteBuffer.wrap(Payloads.of(data)));
    }

    @Override
    public void send(int dest, int tag, short[] data) {
        sendAndWait(dest, tag, ByteBuffer.wrap(Payloads.of(data)));
    }

    @Override
    public void send(int dest, int tag, char[] data) {
        sendAndWait(dest, tag, ByteBuffer.wrap(Payloads.of(data)));
    }

    @Override
    public void sendObject(int dest, int tag, Object object) {
        sendAndWait(dest, tag, ByteBuffer.wrap(Payloads.ofObject(object)));
    }

    @Override
    public Request isend(int dest, int tag, byte[] data) {
        return post(dest, tag, ByteBuffer.wrap(data));
    }

    @Override
    public Request isend(int dest, int tag, byte[] data, int offset, int length) {
        return post(dest, tag, ByteBuffer.wrap(data, offset, length));
    }

    @Override
    public Request isend(int dest, int tag, ByteBuffer data) {
        return post(dest, tag, data);
    }

    @Override
    public Request isend(int dest, int tag, int[] data) {
        return post(dest, tag, ByteBuffer.wrap(Payloads.of(data)));
    }

    @Override
    public Request isend(int dest, int tag, long[] data) {
        return post(dest, tag, ByteBuffer.wrap(Payloads.of(data)));
    }

    @Override
    public Request isend(int dest, int tag, double[] data) {
        return post(dest, tag, ByteBuffer.wrap(Payloads.of(data)));
    }

    // ---- receives --------------------------------------------------------------------------------

    @Override
    public Message recv(int source, int tag) {
        checkRecvTag(tag);
        return engine.receiveMessage(context, source, tag);
    }

    @Override
    public Status recv(int source, int tag, byte[] buffer) {
        return receiveInto(source, tag, ByteBuffer.wrap(buffer));
    }

    @Override
    public Status recv(int source, int tag, ByteBuffer buffer) {
        return receiveInto(source, tag, buffer);
    }

    @Override
    public Status recv(int source, int tag, int[] buffer) {
        Message m = recv(source, tag);
        Payloads.into(m.bytes(), m.status(), buffer, Integer.BYTES, buffer.length, "int");
        return m.status();
    }

    @Override
    public Status recv(int source, int tag, long[] buffer) {
        Message m = recv(source, tag);
        Payloads.into(m.bytes(), m.status(), buffer, Long.BYTES, buffer.length, "long");
        return m.status();
    }

    @Override
    public Status recv(int source, int tag, double[] buffer) {
        Message m = recv(source, tag);
        Payloads.into(m.bytes(), m.status(), buffer, Double.BYTES, buffer.length, "double");
        return m.status();
    }

    @Override
    public <T> T recvObject(int source, int tag) {
        return recv(source, tag).asObject();
    }

    @Override
    public Request irecv(int source, int tag) {
        return receive(source, tag, null);
    }

    @Override
    public Request irecv(int source, int tag, ByteBuffer buffer) {
        return receive(source, tag, buffer);
    }

    @Override
    public Status probe(int source, int tag) {
        checkRecvTag(tag);
        return engine.probe(context, source, tag, true).orElseThrow();
    }

    @Override
    public Optional<Status> iprobe(int source, int tag) {
        checkRecvTag(tag);
        return engine.probe(context, source, tag, false);
    }

    // ---- collectives over point-to-point ---------------------------------------------------------

    /** Binomial tree rooted at {@code root}: log2(size) rounds, each peer receives once. */
    @Override
    public byte[] bcast(int root, byte[] data) {
        int size = size();
        int rank = rank();
        if (root < 0 || root >= size) {
            throw new IllegalArgumentException("root " + root + " does not exist; ranks are 0 to " + (size - 1));
        }
        if (rank == root && data == null) {
            throw new IllegalArgumentException("the root of a bcast must supply data");
        }
        int relative = (rank - root + size) % size;
        byte[] payload = data;
        int mask = 1;
        while (mask < size) {
            if ((relative & mask) != 0) {
                int parent = (relative - mask + root) % size;
                Request r = engine.receive(collectiveContext, parent, TAG_BCAST, null);
                r.await();
                payload = r.message().bytes();
                break;
            }
            mask <<= 1;
        }
        mask >>= 1;
        while (mask > 0) {
            if (relative + mask < size) {
                int child = (relative + mask + root) % size;
                engine.send(child, collectiveContext, TAG_BCAST, ByteBuffer.wrap(payload)).await();
            }
            mask >>= 1;
        }
        return payload;
    }

    @Override
    public <T> T bcastObject(int root, T object) {
        byte[] bytes = bcast(root, rank() == root ? Payloads.ofObject(object) : null);
        return Payloads.toObject(bytes, new Status(root, TAG_BCAST, bytes.length));
    }

    /** Dissemination barrier: ceil(log2(size)) rounds of one send and one receive. */
    @Override
    public void barrier() {
        int size = size();
        int rank = rank();
        ByteBuffer empty = ByteBuffer.allocate(0);
        for (int k = 1; k < size; k <<= 1) {
            Request s = engine.send((rank + k) % size, collectiveContext, TAG_BARRIER, empty);
            engine.receive(collectiveContext, (rank - k + size) % size, TAG_BARRIER, empty).await();
            s.await();
        }
    }

    // ---- the broadcast domain ------------------------------------------------------------------

    /** Lets {@link #broadcastDomain()} open the job's domain with {@code factory}, polled by {@code polling}. */
    public synchronized void enableBroadcastDomain(DomainFactory factory, DomainPolling polling) {
        this.domainFactory = factory;
        this.domainPolling = polling;
    }

    /**
     * Opens the domain on first use, collectively: every peer binds its sockets and sends every
     * other its unicast address (or the reason it could not bind, so that no peer waits for an
     * address that never comes), over the collective context.
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
        DomainFactory.Binding binding = null;
        String mine;
        CohortException localFailure = null;
        try {
            binding = domainFactory.bind();
            mine = "ok " + binding.address();
        } catch (CohortException e) {
            localFailure = e;
            mine = "failed " + e.getMessage();
        }
        String[] addresses = new String[size()];
        String remoteFailure = null;
        try {
            byte[] payload = mine.getBytes(StandardCharsets.UTF_8);
            Request[] sends = new Request[size()];
            for (int p = 0; p < size(); p++) {
                if (p != rank()) {
                    sends[p] = engine.send(p, collectiveContext, TAG_DOMAIN, ByteBuffer.wrap(payload));
                }
            }
            for (int p = 0; p < size(); p++) {
                String s = p == rank() ? mine : new String(receiveCollective(p, TAG_DOMAIN),
                        StandardCharsets.UTF_8);
                if (s.startsWith("ok ")) {
                    addresses[p] = s.substring(3);
                } else if (remoteFailure == null && p != rank()) {
                    remoteFailure = "rank " + p + " could not open it: " + s.substring(s.indexOf(' ') + 1);
                }
            }
            for (Request r : sends) {
                if (r != null) {
                    r.await();
                }
            }
        } catch (RuntimeException e) {
            if (binding != null) {
                binding.abort();
            }
            throw e;
        }
        if (localFailure != null) {
            throw localFailure;
        }
        if (remoteFailure != null) {
            binding.abort();
            throw new CohortException("cannot open the broadcast domain: " + remoteFailure);
        }
        BroadcastDomain d = binding.complete(addresses);
        domainPolling.startPolling(d);
        domain = d;
        return d;
    }

    private byte[] receiveCollective(int source, int tag) {
        Request r = engine.receive(collectiveContext, source, tag, null);
        r.await();
        return r.message().bytes();
    }

    /** Closes the broadcast domain first (it lingers until the others confirmed our frames), then the rest. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
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
        return "Communicator[rank " + rank() + " of " + size() + "]";
    }
}
