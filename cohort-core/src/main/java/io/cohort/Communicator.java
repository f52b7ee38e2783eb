package io.cohort;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * A set of peers that exchange tagged messages. The world communicator returned by
 * {@link Cohort#init()} holds every peer of the job, ranked 0 to {@code size() - 1}.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>Reliable delivery, FIFO per ordered pair of peers: two messages from A to B that match the
 *       same receive are received in the order A sent them.</li>
 *   <li>A receive matches on (source or {@link #ANY_SOURCE}, tag or {@link #ANY_TAG}); the earliest
 *       matching arrival wins. Messages nobody is waiting for yet are kept until received.</li>
 *   <li>Payloads are bytes from 0 to {@link #MAX_MESSAGE_BYTES}. Typed sends encode little-endian;
 *       {@link #sendObject} uses Java serialization, and every object received passes a serial
 *       filter (bounded depth, objects, arrays and bytes; {@code cohort run --serial-filter}).</li>
 *   <li>A send returns once its buffer may be reused; it does not wait for the matching receive.</li>
 *   <li>When a peer fails, operations that depend on it throw {@link PeerFailedException}
 *       naming it, instead of hanging. Receives from {@link #ANY_SOURCE} fail too, since the
 *       message they wait for might have come from the failed peer.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * Every method may be called from any thread. A waiting thread drives communication progress
 * through the peer's idle strategy; a background progress agent drains the network while no user
 * thread is inside the library.
 *
 * <pre>
 *   try (Communicator world = Cohort.init()) {
 *       if (world.rank() == 0) world.send(1, 7, "hi".getBytes());
 *       else if (world.rank() == 1) System.out.println(new String(world.recv(0, 7).bytes()));
 *   }
 * </pre>
 */
public interface Communicator extends AutoCloseable {
    /** Wildcard source for receives and probes. */
    int ANY_SOURCE = -1;
    /** Wildcard tag for receives and probes. */
    int ANY_TAG = -1;
    /** Largest tag a program may use; tags are 0 to MAX_TAG. */
    int MAX_TAG = Integer.MAX_VALUE;
    /** Largest payload, in bytes. */
    int MAX_MESSAGE_BYTES = Integer.MAX_VALUE;

    /** This peer's rank, 0 to {@code size() - 1}. */
    int rank();

    /** Number of peers. */
    int size();

    // ---- blocking sends ------------------------------------------------------------------------

    void send(int dest, int tag, byte[] data);

    void send(int dest, int tag, byte[] data, int offset, int length);

    /** Sends the bytes between position and limit; the buffer's position is not changed. */
    void send(int dest, int tag, ByteBuffer data);

    /**
     * Sends the {@code length} bytes of {@code data} from index {@code offset}. As for the JDK's
     * absolute bulk {@code get}, the buffer's position is neither read nor changed (nor its limit),
     * so several threads may send parts of one buffer at once, and a layer over Cohort (an MPI API)
     * needs no view of the buffer per call.
     *
     * @throws IndexOutOfBoundsException if the bytes are not within the buffer's limit
     */
    void send(int dest, int tag, ByteBuffer data, int offset, int length);

    void send(int dest, int tag, int[] data);

    void send(int dest, int tag, long[] data);

    void send(int dest, int tag, double[] data);

    void send(int dest, int tag, float[] data);

    void send(int dest, int tag, short[] data);

    void send(int dest, int tag, char[] data);

    /** Sends a {@link Serializable} object (or {@code null}) by Java serialization. */
    void sendObject(int dest, int tag, Object object);

    // ---- nonblocking sends ---------------------------------------------------------------------

    Request isend(int dest, int tag, byte[] data);

    Request isend(int dest, int tag, byte[] data, int offset, int length);

    /** The buffer's content between position and limit must stay untouched until the request is done. */
    Request isend(int dest, int tag, ByteBuffer data);

    /** As {@link #send(int, int, ByteBuffer, int, int)}; those bytes must stay untouched until the request is done. */
    Request isend(int dest, int tag, ByteBuffer data, int offset, int length);

    Request isend(int dest, int tag, int[] data);

    Request isend(int dest, int tag, long[] data);

    Request isend(int dest, int tag, double[] data);

    // ---- receives ------------------------------------------------------------------------------

    /** Receives the next matching message, whatever its length. */
    Message recv(int source, int tag);

    /** Receives into {@code buffer} from offset 0; throws {@link MessageTruncatedException} if it does not fit. */
    Status recv(int source, int tag, byte[] buffer);

    /**
     * Receives into the buffer from its position; on return the position has advanced past the
     * received bytes. Direct buffers are filled without an intermediate copy where the transport
     * allows it.
     */
    Status recv(int source, int tag, ByteBuffer buffer);

    /** Receives into {@code buffer} from index {@code offset}; throws {@link MessageTruncatedException} if the message is longer than {@code length}. */
    Status recv(int source, int tag, byte[] buffer, int offset, int length);

    /**
     * Receives at most {@code length} bytes into {@code buffer} from index {@code offset}; as for
     * the JDK's absolute bulk {@code put}, the buffer's position is neither read nor changed (nor
     * its limit; compare {@link #recv(int, int, ByteBuffer)}). Throws
     * {@link MessageTruncatedException} if the message is longer than {@code length},
     * {@link IndexOutOfBoundsException} if the bytes are not within the buffer's limit, and
     * {@link IllegalArgumentException} for a read-only buffer. Statuses are immutable: a thread's
     * receives may return the same object again while source, tag and length repeat.
     */
    Status recv(int source, int tag, ByteBuffer buffer, int offset, int length);

    Status recv(int source, int tag, int[] buffer);

    Status recv(int source, int tag, long[] buffer);

    Status recv(int source, int tag, double[] buffer);

    /**
     * Receives and decodes an object sent with {@link #sendObject}, through the serial filter.
     *
     * @throws ObjectRefusedException if the filter refused it (a class it rejects, or a stream
     *         past its depth, object, array or byte limits): the message is consumed and dropped,
     *         this call alone fails, and the communicator serves later receives as before
     * @throws CohortException if the bytes are no object this peer can read (a missing class)
     */
    <T> T recvObject(int source, int tag);

    /** Starts a receive of any length; the message is available from {@link Request#message()}. */
    Request irecv(int source, int tag);

    /** Starts a receive into the buffer (see {@link #recv(int, int, ByteBuffer)}). */
    Request irecv(int source, int tag, ByteBuffer buffer);

    /** Starts a receive into the buffer at [offset, offset + length) (see {@link #recv(int, int, ByteBuffer, int, int)}). */
    Request irecv(int source, int tag, ByteBuffer buffer, int offset, int length);

    // ---- probes --------------------------------------------------------------------------------

    /**
     * Blocks until a matching message is available, without receiving it. Throws
     * {@link PeerFailedException} when the source failed, and {@link PeerClosedException} when the
     * named source closed its world with no matching message left: it would otherwise wait forever.
     */
    Status probe(int source, int tag);

    /**
     * Checks once, driving progress, whether a matching message is available. Empty, not an
     * exception, for a source that closed its world with nothing more that matches.
     */
    Optional<Status> iprobe(int source, int tag);

    // ---- collectives -------------------------------------------------------------------------------
    //
    // Every peer of the communicator calls the same collectives in the same order. A buffer is any
    // primitive array (byte, short, int, long, float, double, char, boolean), a ByteBuffer (its
    // bytes from position to limit; the position does not move) or an Object[] of Serializable
    // elements; counts and displacements are in elements. The algorithm (over point-to-point or
    // over the broadcast domain) is chosen by the number of peers and the message length, or by
    // cohort run --collectives; see docs/collectives.md. Bad arguments fail with one
    // IllegalArgumentException sentence before anything is sent.

    /**
     * Returns the root's bytes at every peer; only the root needs to know the length. A non-root's
     * {@code data} of the right length is filled and returned, otherwise a new array is
     * ({@code data} may be null off the root).
     */
    byte[] bcast(int root, byte[] data);

    /**
     * Returns the root's object at every peer ({@code object} is ignored off the root); a peer
     * whose serial filter refuses it throws {@link ObjectRefusedException}, the others return it.
     */
    <T> T bcastObject(int root, T object);

    /** Copies the root's buffer into every peer's, in place; every peer gives the same type and count. */
    void bcast(int root, Object buffer);

    /** Starts a {@link #bcast(int, Object)}; the buffer must stay untouched until the request completes. */
    Request ibcast(int root, Object buffer);

    /** Returns when every peer has called it. */
    void barrier();

    /** Starts a barrier; the request completes when every peer has started it. */
    Request ibarrier();

    /** Every peer's {@code send} (the same count everywhere) into the root's {@code recv}, rank r's block at r x count. */
    void gather(int root, Object send, Object recv);

    /** Rank r's {@code send} of {@code counts[r]} elements into the root's {@code recv} at {@code displs[r]}. */
    void gatherv(int root, Object send, Object recv, int[] counts, int[] displs);

    /** Block r of the root's {@code send} into rank r's {@code recv}. */
    void scatter(int root, Object send, Object recv);

    /** {@code counts[r]} elements of the root's {@code send} from {@code displs[r]} into rank r's {@code recv}. */
    void scatterv(int root, Object send, int[] counts, int[] displs, Object recv);

    /** Every peer's {@code send} into every peer's {@code recv}, rank r's block at r x count. */
    void allgather(Object send, Object recv);

    void allgatherv(Object send, Object recv, int[] counts, int[] displs);

    /** Block r of every peer's {@code send} to rank r, which keeps rank q's at block q of {@code recv}. */
    void alltoall(Object send, Object recv);

    void alltoallv(Object send, int[] sendCounts, int[] sendDispls, Object recv, int[] recvCounts, int[] recvDispls);

    /**
     * {@code send(0) op send(1) op ... op send(N-1)}, element by element, into the root's
     * {@code recv} (in rank order, so non-commutative ops are safe); send and recv may be one array.
     */
    void reduce(int root, Object send, Object recv, Op op);

    /** {@link #reduce} with the result at every peer. */
    void allreduce(Object send, Object recv, Op op);

    Request iallreduce(Object send, Object recv, Op op);

    /** The reduction of {@code sum(counts)} elements, of which rank r keeps its {@code counts[r]}. */
    void reduceScatter(Object send, Object recv, int[] counts, Op op);

    /** Inclusive prefix reduction: rank r gets {@code send(0) op ... op send(r)}. */
    void scan(Object send, Object recv, Op op);

    /** Exclusive prefix reduction: rank r gets {@code send(0) op ... op send(r-1)}; rank 0's recv is untouched. */
    void exscan(Object send, Object recv, Op op);

    // ---- groups and new communicators -----------------------------------------------------------

    /** This communicator's peers, in rank order. */
    Group group();

    /**
     * A communicator with the same peers and ranks and its own contexts: its messages never match
     * this one's. Collective over this communicator.
     */
    Communicator dup();

    /**
     * Splits this communicator: the peers that give the same {@code color} (0 or more) form a new
     * communicator, ranked by {@code key}, then by their rank here. Collective over this
     * communicator; returns null to a peer that gives {@link Group#UNDEFINED}.
     *
     * @throws IllegalArgumentException on every peer if some peer gave a negative color other than UNDEFINED
     */
    Communicator split(int color, int key);

    /**
     * A communicator of {@code group}'s peers, ranked as in the group, which must be a subset of this
     * communicator's. Collective over this communicator: every peer gives the same group. Returns
     * null to the peers that are not in the group.
     *
     * @throws IllegalArgumentException on every peer if the groups differ or leave this communicator
     */
    Communicator create(Group group);

    /**
     * As {@link #create}, but collective over the group's peers only (MPI's
     * {@code MPI_Comm_create_group}): the others do not call it. {@code tag} (0 to
     * {@link #MAX_TAG} - 16) keeps its messages apart from other creations among overlapping
     * groups. As with every communicator creation, a peer makes one communicator at a time: two
     * threads of one peer must not create communicators at once.
     *
     * @throws IllegalArgumentException if the caller is not in the group, the group leaves this
     *                                  communicator, the tag is out of range, or (on every member) the
     *                                  members gave different groups
     */
    Communicator createGroup(Group group, int tag);

    // ---- the broadcast domain (PCODE) ------------------------------------------------------------

    /**
     * This communicator's broadcast domain: {@link BroadcastDomain#multicast} reaches every target
     * with one datagram on the job's multicast group (or subnet broadcast address, by setting
     * {@code cohort.bcast.medium=broadcast}), reliably; its ranks are this communicator's, and each
     * communicator has its own domain, so their traffic never mixes. Collective the first time: every peer must
     * call it, and it returns once every peer has opened its sockets; later calls return the same
     * domain. It is closed by {@link #close()}, after lingering until the other peers have what we sent.
     *
     * @throws CohortException if the domain cannot be opened on some peer (the message names it)
     * @throws UnsupportedOperationException on a communicator that has no domain
     */
    BroadcastDomain broadcastDomain();

    /**
     * Finishes this peer's part of the job: completes pending sends, then waits until every other
     * peer has finished sending to it (or is gone), so that no message in flight is lost. Called
     * automatically when {@code main} returns normally under {@code cohort run}.
     */
    @Override
    void close();
}
