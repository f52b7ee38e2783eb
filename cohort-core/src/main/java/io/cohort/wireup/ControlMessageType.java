package io.cohort.wireup;

/**
 * Every message of the control protocol between the controlling process ("controller"), the
 * io-managers and the peers. Bodies are written with {@link ControlFrame.BodyWriter}: ints and
 * longs big-endian, strings as int32 length + UTF-8, byte blocks as int32 length + bytes.
 *
 * <pre>
 *  controller ◄──── IOM_HELLO, STARTED, START_FAILED, OUTPUT, EXITED, STDIN_ACK ── io-manager
 *             ────► LAUNCH, STDIN, STDIN_CLOSE, STOP ──────────────────►
 *  controller ◄──── PEER_HELLO, PEER_FAILURE, PEER_AWAITED_CLOSED,
 *                   PEER_FINALIZED, STACKS ──────────────────────────────── peer
 *             ────► PEER_TABLE, PEER_GONE, ABORT, REJECTED, STACKS_REQUEST ►
 *  controller ◄──── STACKS_QUERY (first frame of its connection) ───────── cohort stacks, same user
 *             ────► STACKS_JOB, size × STACKS_RANK, or REJECTED ─────────►
 * </pre>
 *
 * <p><b>Evolving a frame.</b> A body only ever grows at its end: a new field is appended, a reader
 * takes it only if {@link ControlFrame.BodyReader#hasMore} says the sender wrote it, and ignores
 * bytes after the fields it knows. So an io-manager and a controller of neighbouring versions still
 * understand each other; a field is never removed or reordered (a new type number is added instead).
 */
public final class ControlMessageType {
    private ControlMessageType() {
    }

    // ---- peer <-> controller ---------------------------------------------------------------------

    /**
     * peer→ctl: jobId str, nonce str (the client nonce of {@link ControlAuth} in hex; this field
     * carried the job's key before the key stopped travelling), rank int, pid long, host str, n int,
     * n × (name str, address str).
     */
    public static final int PEER_HELLO = 1;
    /** ctl→peer: size int, then size × {@link PeerRecord} without its rank (records are in rank order). */
    public static final int PEER_TABLE = 2;
    /** peer→ctl: failedRank int, reason str. The sender is collateral damage of that failure. */
    public static final int PEER_FAILURE = 3;
    /** peer→ctl: empty. The peer closed its communicator cleanly. */
    public static final int PEER_FINALIZED = 4;
    /** ctl→peer: reason str. The job is being stopped; the peer exits at once. */
    public static final int ABORT = 5;
    /** ctl→peer: reason str. The hello was refused (wrong key, duplicate or unknown rank); also ctl→query for a refused stacks query. */
    public static final int REJECTED = 6;
    /**
     * ctl→peer: rank int, status int, reason str. That peer's process has ended (also cleanly). Peers
     * whose transport cannot see a death by itself (shared memory) act on it.
     */
    public static final int PEER_GONE = 7;
    /**
     * ctl→peer: requestId int. Asks for the stacks of every thread; the peer answers with
     * {@link #STACKS} from a short-lived thread of its own, whatever its program's threads are doing.
     * Also answered during wire-up, while the peer waits for the table.
     */
    public static final int STACKS_REQUEST = 8;
    /**
     * peer→ctl: requestId int, stacks bytes block ({@link io.cohort.stacks.StacksCodec}'s peer stacks,
     * at most {@link io.cohort.stacks.PeerStacks#MAX_BYTES}).
     */
    public static final int STACKS = 9;
    /**
     * peer→ctl: closedRank int. The sender waited for a message from that peer after it had closed its
     * world, and its receive or probe failed: should the sender fail now while that peer failed too,
     * it failed because of it (a program that fails inside try-with-resources closes its world first).
     */
    public static final int PEER_AWAITED_CLOSED = 10;

    // ---- authentication, on every connection of a peer or an io-manager --------------------------------

    /** ctl→client, the answer to a hello: server nonce bytes, server proof bytes ({@link ControlAuth}). */
    public static final int AUTH_CHALLENGE = 11;
    /** client→ctl: client proof bytes. Nothing else is believed of a connection before it verifies. */
    public static final int AUTH_PROOF = 12;

    // ---- io-manager <-> controller ---------------------------------------------------------------

    /**
     * iom→ctl: jobId str, nonce str (as in {@link #PEER_HELLO}), host str, pid long, then (appended; absent from io-managers that
     * predate it) stdinAcks byte: 1 if it answers {@link #STDIN} with {@link #STDIN_ACK}, so that the
     * controller may hold back standard input the peers have not taken yet.
     */
    public static final int IOM_HELLO = 16;
    /** ctl→iom: cwd str, n int, n × (rank int, argc int, argc × str, envc int, envc × (key str, value str)). */
    public static final int LAUNCH = 17;
    /** iom→ctl: rank int, pid long. */
    public static final int STARTED = 18;
    /** iom→ctl: rank int, reason str. */
    public static final int START_FAILED = 19;
    /** iom→ctl: rank int, stream byte (1 stdout, 2 stderr), bytes block: whole lines, or a final partial line. */
    public static final int OUTPUT = 20;
    /**
     * iom→ctl: rank int, status int (128+S for signal S), stoppedByManager bool, then (appended for
     * {@code --core-dir}; absent means none) n int, n × path str: the files the peer left in its
     * crash-file directory, absolute paths on its host. Sent after the peer's output is drained.
     */
    public static final int EXITED = 21;
    /** ctl→iom: rank int, bytes block, for the peer's standard input. */
    public static final int STDIN = 22;
    /** ctl→iom: rank int; closes the peer's standard input. */
    public static final int STDIN_CLOSE = 23;
    /** ctl→iom: graceMillis int; TERM every peer, KILL those left after the grace period. */
    public static final int STOP = 24;
    /**
     * iom→ctl: rank int, bytes int. That many bytes of the rank's {@link #STDIN} frames have left the
     * io-manager: written to the peer's standard input, or dropped because the peer closed it or ended.
     * The controller keeps at most a window of unacknowledged bytes per rank, so standard input that a
     * peer does not read waits in the launcher's input (back-pressure), not in the io-manager's memory.
     */
    public static final int STDIN_ACK = 25;
    /**
     * ctl→iom, empty: job control (Ctrl-Z). SIGSTOP to every peer's process group, and to peers
     * started later, until {@link #RESUME}. A {@link #STOP} continues them after the TERM.
     */
    public static final int SUSPEND = 26;
    /** ctl→iom, empty: SIGCONT to every peer's process group that {@link #SUSPEND} stopped. */
    public static final int RESUME = 27;

    // ---- stacks query <-> controller -------------------------------------------------------------

    /**
     * query→ctl, the first frame of a connection to the rendezvous port: token str (the job's stacks
     * token from its registry file), timeoutMillis int (how long the peers have to answer). A wrong
     * token is answered with {@link #REJECTED} and the connection is closed.
     */
    public static final int STACKS_QUERY = 32;
    /** ctl→query: jobId str, size int, application str; then size × {@link #STACKS_RANK} in rank order. */
    public static final int STACKS_JOB = 33;
    /** ctl→query: one rank, laid out by {@link io.cohort.stacks.StacksCodec} (rank, answer, detail, host, pid, stacks). */
    public static final int STACKS_RANK = 34;

    public static String name(int type) {
        switch (type) {
            case PEER_HELLO: return "PEER_HELLO";
            case PEER_TABLE: return "PEER_TABLE";
            case PEER_FAILURE: return "PEER_FAILURE";
            case PEER_FINALIZED: return "PEER_FINALIZED";
            case ABORT: return "ABORT";
            case REJECTED: return "REJECTED";
            case PEER_GONE: return "PEER_GONE";
            case STACKS_REQUEST: return "STACKS_REQUEST";
            case STACKS: return "STACKS";
            case PEER_AWAITED_CLOSED: return "PEER_AWAITED_CLOSED";
            case IOM_HELLO: return "IOM_HELLO";
            case LAUNCH: return "LAUNCH";
            case STARTED: return "STARTED";
            case START_FAILED: return "START_FAILED";
            case OUTPUT: return "OUTPUT";
            case EXITED: return "EXITED";
            case STDIN: return "STDIN";
            case STDIN_CLOSE: return "STDIN_CLOSE";
            case STOP: return "STOP";
            case STDIN_ACK: return "STDIN_ACK";
            case SUSPEND: return "SUSPEND";
            case RESUME: return "RESUME";
            case STACKS_QUERY: return "STACKS_QUERY";
            case STACKS_JOB: return "STACKS_JOB";
            case STACKS_RANK: return "STACKS_RANK";
            default: return "UNKNOWN(" + type + ")";
        }
    }
}
