package io.cohort.launch;

import io.cohort.stacks.JobStacks;
import io.cohort.stacks.RankStacks;
import io.cohort.stacks.StacksCodec;
import io.cohort.wireup.ControlFrame;
import io.cohort.wireup.ControlMessageType;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Asks a running job's controller for the stacks of its peers (the client side of {@code cohort
 * stacks}): one connection to the rendezvous port, {@code STACKS_QUERY(token, timeout)} as its first
 * frame, then {@code STACKS_JOB} and one {@code STACKS_RANK} per rank, or {@code REJECTED}.
 */
public final class StacksQuery {
    /** How much longer than the peers' time-out the controller may take to send everything. */
    static final Duration SLACK = Duration.ofSeconds(5);
    private static final int CONNECT_MILLIS = 2000;

    private StacksQuery() {
    }

    /** The controller refused the query (a wrong token: a registry file that is not this job's). */
    public static final class RefusedException extends IOException {
        private static final long serialVersionUID = 1L;

        RefusedException(String message) {
            super(message);
        }
    }

    /** The controller did not answer in time, or not in a form we can read. */
    public static final class NoAnswerException extends IOException {
        private static final long serialVersionUID = 1L;

        NoAnswerException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Nobody listens on the job's port any more: the job ended after its registry file was read. */
    public static final class JobEndedException extends IOException {
        private static final long serialVersionUID = 1L;

        JobEndedException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * @param timeout how long the peers have to answer; ranks that do not are reported as silent
     * @throws JobEndedException if the job's port is closed
     * @throws RefusedException  if the controller refused the token
     * @throws NoAnswerException if the controller did not answer in time or the answer was malformed
     */
    public static JobStacks ask(JobRegistry.Entry job, Duration timeout) throws IOException {
        if (isStopped(job.pid())) {
            throw suspended(job, null); // it cannot answer: say why at once instead of after the time-out
        }
        try {
            return exchange(job, timeout);
        } catch (NoAnswerException e) {
            throw isStopped(job.pid()) ? suspended(job, e) : e;
        } catch (RefusedException | JobEndedException e) {
            throw e;
        } catch (IOException e) {
            throw new NoAnswerException("the launcher of job " + job.jobId() + " (pid " + job.pid() + ") did not answer: "
                    + e.getMessage(), e);
        }
    }

    private static NoAnswerException suspended(JobRegistry.Entry job, Throwable cause) {
        return new NoAnswerException("job " + job.jobId() + " is suspended: its launcher (pid " + job.pid()
                + ") is stopped (Ctrl-Z or SIGSTOP); continue it with fg or kill -CONT " + job.pid()
                + " to see its stacks", cause);
    }

    /** Whether process {@code pid} of this host is stopped by a signal (state T in /proc); false if gone or unknown. */
    static boolean isStopped(long pid) {
        String[] f = ProcStat.of(Long.toString(pid));
        return f != null && f[ProcStat.STATE].equals("T");
    }

    private static JobStacks exchange(JobRegistry.Entry job, Duration timeout) throws IOException {
        try (Socket s = new Socket()) {
            try {
                s.connect(new InetSocketAddress(job.address(), job.port()), CONNECT_MILLIS);
            } catch (ConnectException e) {
                throw new JobEndedException("job " + job.jobId() + " has ended (its launcher no longer listens)", e);
            }
            s.setSoTimeout((int) Math.min(Integer.MAX_VALUE, timeout.plus(SLACK).toMillis()));
            ControlConnection conn = new ControlConnection(s);
            conn.send(ControlFrame.build(ControlMessageType.STACKS_QUERY).putString(job.token())
                    .putInt((int) Math.min(Integer.MAX_VALUE, timeout.toMillis())).frame());
            try {
                return read(job, conn);
            } catch (SocketTimeoutException e) {
                throw new NoAnswerException("the launcher of job " + job.jobId() + " (pid " + job.pid() + ") did not answer within "
                        + timeout.plus(SLACK).toMillis() + " ms", e);
            }
        }
    }

    private static JobStacks read(JobRegistry.Entry job, ControlConnection conn) throws IOException {
        ControlFrame head = conn.read();
        if (head == null) {
            throw new JobEndedException("job " + job.jobId() + " ended before it answered", null);
        }
        if (head.type() == ControlMessageType.REJECTED) {
            throw new RefusedException("the launcher of job " + job.jobId() + " refused the query: " + head.reader().getString());
        }
        if (head.type() != ControlMessageType.STACKS_JOB) {
            throw new IOException("the launcher of job " + job.jobId() + " sent " + head + " instead of its stacks");
        }
        ControlFrame.BodyReader r = head.reader();
        String jobId = r.getString();
        int size = r.getInt();
        String application = r.getString();
        if (size < 0 || size > 1 << 20) {
            throw new IOException("the launcher of job " + job.jobId() + " announced " + size + " ranks");
        }
        List<RankStacks> ranks = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            ControlFrame f = conn.read();
            if (f == null) {
                throw new JobEndedException("job " + job.jobId() + " ended while it sent its stacks", null);
            }
            if (f.type() != ControlMessageType.STACKS_RANK) {
                throw new IOException("the launcher of job " + job.jobId() + " sent " + f + " among its stacks");
            }
            ranks.add(StacksCodec.decodeRank(f.body()));
        }
        try {
            return new JobStacks(jobId, size, application, ranks);
        } catch (IllegalArgumentException e) {
            throw new IOException("the launcher of job " + job.jobId() + " sent malformed stacks (" + e.getMessage() + ")", e);
        }
    }
}
