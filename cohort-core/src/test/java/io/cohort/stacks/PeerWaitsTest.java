package io.cohort.stacks;

import io.cohort.LocalCohort;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Which message a thread waits for: as the progress engine's waiter keeps it and a capture reads it. */
@Timeout(30)
class PeerWaitsTest {
    @Test
    void aCaptureShowsTheReceiveAThreadWaitsInAndNothingOnceItIsDone() {
        AtomicLong receiver = new AtomicLong(-1);
        LocalCohort.builder().size(2).timeout(Duration.ofSeconds(25)).run(world -> {
            if (world.rank() == 1) {
                receiver.set(Thread.currentThread().getId());
                world.recv(0, 99); // until rank 0 has seen it waiting
                receiver.set(-2);
                world.barrier();
                world.recv(io.cohort.Communicator.ANY_SOURCE, io.cohort.Communicator.ANY_TAG);
            } else {
                ThreadStack t = awaitWait(receiver);
                assertEquals(new PeerWait(PeerWait.RECEIVE, 0, 0, 99), t.peerWait());
                assertEquals("waiting to receive from rank 0 (tag 99)", t.peerWait().describe(false));
                assertNull(t.call(), "not in a collective");
                world.send(1, 99, new byte[1]);
                world.barrier();
                long id = t.id();
                ThreadStack any = awaitWait(new AtomicLong(id));
                assertEquals(new PeerWait(PeerWait.RECEIVE, PeerWait.ANY, 0, -1), any.peerWait());
                assertEquals("waiting to receive from any rank (any tag)", any.peerWait().describe(false));
                world.send(1, 5, new byte[1]);
            }
        });
    }

    /** A barrier through shared memory (AUTO's, all peers on one host) waits for a rank's phase, not a message. */
    @Test
    void aCaptureShowsTheRankASharedMemoryCollectiveWaitsFor() {
        AtomicLong waiter = new AtomicLong(-1);
        LocalCohort.builder().size(2).transport("shm").timeout(Duration.ofSeconds(25)).run(world -> {
            world.barrier(); // sets the communicator's segment up
            if (world.rank() == 0) {
                waiter.set(Thread.currentThread().getId());
                world.barrier(); // until rank 1 has seen it waiting
            } else {
                ThreadStack t = awaitWait(waiter);
                assertEquals(new PeerWait(PeerWait.PHASE, 1, -1, -1), t.peerWait());
                assertEquals("waiting for rank 1 to finish its part of the step (shared memory)", t.peerWait().describe(true));
                assertEquals("barrier", t.call().operation());
                world.barrier();
            }
        });
    }

    /** Captures until the thread with id {@code thread} (once known) waits for a message. */
    private static ThreadStack awaitWait(AtomicLong thread) {
        while (true) { // each capture is the wait; the class's time-out ends a test that never sees it
            for (ThreadStack t : StackCapture.threads(Thread.currentThread())) {
                if (t.id() == thread.get() && t.peerWait() != null) {
                    return t;
                }
            }
            Thread.yield();
        }
    }
}
