package io.cohort.daemon;

/**
 * The kinds of daemon message, by the code carried in {@link DaemonFrame#TYPE_OFFSET}. Codes are part of
 * the wire format: never renumber, only add. A new request (say a later {@code SCHEDULE} that renices a
 * job's peers) is a new constant here plus a {@link RequestHandler} registered with the
 * {@link RequestServer}; nothing else changes.
 */
public enum MessageType {
    /** UDP, a member's daemon to every load server: its dynamic information, time-stamped. */
    UPDATE(1),
    /** Ring, first frame on a connection to the successor; the successor answers with one too. */
    RING_HELLO(2),
    /** Ring, both ways every {@code daemon.heartbeat}: the predecessor sends, the successor echoes. */
    HEARTBEAT(3),
    /** Ring, before an orderly close: {@code reason=moved} (a closer successor came back) or {@code stopping}. */
    RING_BYE(4),
    /** Request to a load server: the ring saw {@code member} go {@code down} or come back {@code up}. */
    REPORT(5),
    /** Request to a load server: the cluster table. */
    STATUS(6),
    /** Request to a member's daemon and to the load servers: slots 0 with a reason. */
    DRAIN(7),
    /** Request: undo {@link #DRAIN}. */
    RESUME(8),
    /** Request: override the member's job slots at run time. */
    SLOTS(9),
    /** Request to a member's daemon: count a job as active while this connection stays open. */
    JOB_REGISTER(10),
    /** Request: the job is over (also implied when the registering connection closes). */
    JOB_RELEASE(11),
    /**
     * Request on a job's registering connection: apply the partition's scheduling (policy, nice value or
     * real-time priority, capped by the partition's maximum) to one of the job's peer processes.
     */
    SCHEDULE(12),
    /** Response: the request was done; the body carries its answer. */
    OK(64),
    /** Response: the request was refused; {@code message} says why in one sentence. */
    ERROR(65);

    // Code 66 is taken by the unauthenticated RefusalNotice, which is never a sealed message.

    private static final MessageType[] BY_CODE = new MessageType[256];

    static {
        for (MessageType t : values()) {
            BY_CODE[t.code] = t;
        }
    }

    private final int code;

    MessageType(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The type with this code, or null for a code this version does not know. */
    public static MessageType of(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
