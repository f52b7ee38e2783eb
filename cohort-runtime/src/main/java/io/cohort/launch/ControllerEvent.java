package io.cohort.launch;

import io.cohort.stacks.JobStacks;
import io.cohort.stacks.PeerStacks;
import io.cohort.wireup.PeerRecord;

import java.util.concurrent.CompletableFuture;

/**
 * What the {@link Controller}'s event thread is told: by the connection threads
 * ({@link ControlListener}), by the exits of the io-managers' agent processes, and by the
 * controller's public methods, which any thread may call. Each is one element of the controller's
 * event queue, so every question of ordering between these threads is a question of the queue's
 * order; the event thread alone acts on them, and only it touches the job's state.
 */
interface ControllerEvent {

    /** A control connection was accepted: it is pending until it identifies itself. */
    record Accepted() implements ControllerEvent {
    }

    /** A pending connection ended without identifying itself (or proving it holds the job's secret). */
    record Unidentified(ControlConnection conn) implements ControllerEvent {
    }

    record IoManagerHello(ControlConnection conn, String jobId, String host, long pid,
                          StdinWindow stdinWindow) implements ControllerEvent {
    }

    /** An io-manager's connection ended: at end of stream ({@code failure} null), or failed (its host unreachable). */
    record IoManagerClosed(ControlConnection conn, String failure) implements ControllerEvent {
    }

    /** The agent process of the io-manager of link {@code link} (its host's index) exited. */
    record IoManagerExited(int link, int status) implements ControllerEvent {
    }

    record Started(ControlConnection from, int rank, long pid) implements ControllerEvent {
    }

    record StartFailed(ControlConnection from, int rank, String reason) implements ControllerEvent {
    }

    record Exited(ControlConnection from, ExitReport report) implements ControllerEvent {
    }

    /** A debugged rank's JDWP agent listens on {@code port}. */
    record DebuggerWaiting(ControlConnection from, int rank, int port) implements ControllerEvent {
    }

    record PeerHello(ControlConnection conn, PeerRecord.Hello hello) implements ControllerEvent {
    }

    /** A receive or probe of the peer failed because {@code closedPeer} had closed its world. */
    record PeerAwaitedClosed(ControlConnection conn, int closedPeer) implements ControllerEvent {
    }

    record PeerFailure(ControlConnection conn, int lostPeer, String reason) implements ControllerEvent {
    }

    record PeerClosed(ControlConnection conn) implements ControllerEvent {
    }

    record Interrupt() implements ControllerEvent {
    }

    record Suspend(CompletableFuture<Void> told) implements ControllerEvent {
    }

    record Resume() implements ControllerEvent {
    }

    /** The job's output could not be written (OutputRouter#failure). */
    record OutputFailed() implements ControllerEvent {
    }

    record CollectStacks(long timeoutMillis, CompletableFuture<JobStacks> future) implements ControllerEvent {
    }

    /** The stacks of a job past its --timeout were printed (or could not be): stop it now. */
    record TimeoutStacksShown() implements ControllerEvent {
    }

    /** A rank's answer: its stacks, or why they could not be read (stacks null). */
    record StacksAnswer(ControlConnection conn, int requestId, PeerStacks stacks, String malformed)
            implements ControllerEvent {
    }

    /** A stacks query identified itself: its connection is no longer pending. */
    record StacksQueryOpened() implements ControllerEvent {
    }
}
