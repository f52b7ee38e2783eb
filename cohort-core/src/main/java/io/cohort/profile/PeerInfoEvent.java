package io.cohort.profile;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** Who recorded the file: committed once, when the peer's world communicator is made. */
@Name(PeerInfoEvent.NAME)
@Label("Peer Info")
@Category({"Cohort", "Job"})
@Enabled(false) // on only where a recording asks (cohort.jfc): an unrelated recording pays nothing
@Description("The peer that recorded this file: rank, job, host, program")
@StackTrace(false)
public final class PeerInfoEvent extends Event {
    public static final String NAME = "io.cohort.PeerInfo";
    private static final PeerInfoEvent PROBE = new PeerInfoEvent();

    @Label("Rank")
    @Description("World rank")
    public int rank;

    @Label("Size")
    @Description("Number of peers in the job")
    public int size;

    @Label("Job Id")
    public String jobId;

    @Label("Host")
    @Description("The host the launcher placed the peer on")
    public String host;

    @Label("Application")
    @Description("The program's main class")
    public String application;

    @Label("Process Id")
    public long pid;

    /** Commits the event if a recording wants it. */
    public static void emit(int rank, int size, String jobId, String host) {
        if (PROBE.isEnabled()) {
            PeerInfoEvent e = new PeerInfoEvent();
            e.rank = rank;
            e.size = size;
            e.jobId = jobId;
            e.host = host;
            e.application = Profiling.application();
            e.pid = ProcessHandle.current().pid();
            e.commit();
        }
    }
}
