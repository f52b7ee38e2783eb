package io.cohort.tools.prof;

import java.util.List;

/**
 * The names of the events and fields a profiled peer records: the contract between the capture side
 * in cohort-core and this reader. Kept in one place so that a rename shows up as one diff.
 */
public final class ProfileEvents {
    public static final String SEND = "io.cohort.Send";
    public static final String RECEIVE = "io.cohort.Receive";
    public static final String PROBE = "io.cohort.Probe";
    public static final String WAIT = "io.cohort.Wait";
    public static final String COLLECTIVE = "io.cohort.Collective";
    public static final String REGION = "io.cohort.Region";
    public static final String PEER_INFO = "io.cohort.PeerInfo";
    public static final String JOB = "io.cohort.Job";
    public static final String NACK = "io.cohort.Nack";
    public static final String RETRANSMISSION = "io.cohort.Retransmission";
    public static final String FLOW_CONTROL_STALL = "io.cohort.FlowControlStall";
    public static final String DROPPED_TRAFFIC = "io.cohort.DroppedTraffic";
    /** The JDK's method sampler: one stack per sampled running thread and period. */
    public static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";

    public static final String COMMUNICATOR = "communicator";
    public static final String PEER = "peer";
    public static final String TAG = "tag";
    public static final String BYTES = "bytes";
    public static final String SEQUENCE = "sequence";
    public static final String OPERATION = "operation";
    public static final String NAME = "name";
    public static final String RANK = "rank";
    public static final String SIZE = "size";
    public static final String JOB_ID = "jobId";
    public static final String HOST = "host";
    public static final String APPLICATION = "application";
    public static final String PID = "pid";
    public static final String TRANSPORT = "transport";
    public static final String COUNT = "count";
    public static final String REASON = "reason";
    public static final String UNIT = "unit";

    /** Fields every JFR event has; the rest of a Cohort event's fields are its own. */
    static final List<String> STANDARD_FIELDS = List.of("startTime", "duration", "eventThread", "stackTrace");

    private ProfileEvents() {
    }
}
