package io.cohort.engine;

import io.cohort.LocalCohort;
import io.cohort.Message;
import io.cohort.comm.EngineCommunicator;
import io.cohort.idle.IdleStrategies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@link ProgressEngine#onContext}: arrivals on a handled context skip matching; others do not. */
class ContextHandlerTest {
    private static final int HANDLED = Integer.MAX_VALUE - 100;

    @Test
    @Timeout(10)
    void selfSendGoesToTheHandlerAndOtherContextsStillMatch() {
        ProgressEngine engine = new ProgressEngine(0, 1, IdleStrategies.factory("backoff"));
        BlockingQueue<Message> got = new LinkedBlockingQueue<>();
        engine.onContext(HANDLED, got::add);
        engine.send(0, HANDLED, 7, ByteBuffer.wrap(new byte[] {1, 2, 3})).await();
        engine.send(0, 0, 7, ByteBuffer.wrap(new byte[] {4})).await();
        Message m = got.poll();
        assertNotNull(m);
        assertEquals(0, m.source());
        assertEquals(7, m.tag());
        assertArrayEquals(new byte[] {1, 2, 3}, m.bytes());
        assertArrayEquals(new byte[] {4}, engine.receiveMessage(0, 0, 7).bytes());
        assertNull(got.poll(), "the message on context 0 was matched, not handed over");
        assertEquals(java.util.Optional.empty(), engine.probe(HANDLED, -1, -1, false), "nothing queued as unexpected");
    }

    @Test
    void aContextTakesOneHandler() {
        ProgressEngine engine = new ProgressEngine(0, 1, IdleStrategies.factory("backoff"));
        java.util.function.Consumer<Message> h = m -> { };
        engine.onContext(HANDLED, h);
        assertSame(h, engine.contextHandler(HANDLED));
        assertNull(engine.contextHandler(HANDLED - 1));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> engine.onContext(HANDLED, m -> { }));
        assertEquals("context " + HANDLED + " already has a handler", e.getMessage());
    }

    @Test
    void aThrowingHandlerDoesNotBreakDelivery() {
        ProgressEngine engine = new ProgressEngine(0, 1, IdleStrategies.factory("backoff"));
        engine.onContext(HANDLED, m -> {
            throw new IllegalStateException("boom");
        });
        engine.send(0, HANDLED, 1, ByteBuffer.wrap(new byte[1])).await();
        engine.send(0, 0, 1, ByteBuffer.wrap(new byte[] {9})).await();
        assertArrayEquals(new byte[] {9}, engine.receiveMessage(0, 0, 1).bytes());
    }

    /** Over tcp a long message arrives in pieces (the begin path); local uses the sender's thread. */
    @ParameterizedTest
    @ValueSource(strings = {"local", "tcp", "shm"})
    @Timeout(60)
    void remoteArrivalsShortAndLongReachTheHandler(String transport) {
        byte[] big = new byte[3 << 20];
        Arrays.fill(big, (byte) 5);
        big[big.length - 1] = 9;
        LocalCohort.builder().size(2).transport(transport).run(world -> {
            ProgressEngine engine = ((EngineCommunicator) world).engine();
            if (world.rank() == 0) {
                BlockingQueue<Message> got = new LinkedBlockingQueue<>();
                engine.onContext(HANDLED, got::add);
                world.barrier();
                // Wait in a receive on another context: this thread drives progress and so the handler.
                assertArrayEquals(new byte[] {3}, world.recv(1, 3).bytes());
                Message small = take(got);
                Message large = take(got);
                assertArrayEquals(new byte[] {1}, small.bytes());
                assertEquals(1, small.source());
                assertEquals(11, small.tag());
                assertArrayEquals(big, large.bytes());
                assertEquals(12, large.tag());
            } else {
                world.barrier();
                engine.send(0, HANDLED, 11, ByteBuffer.wrap(new byte[] {1})).await();
                engine.send(0, HANDLED, 12, ByteBuffer.wrap(big)).await();
                world.send(0, 3, new byte[] {3});
            }
        });
    }

    private static Message take(BlockingQueue<Message> q) {
        try {
            Message m = q.poll(30, TimeUnit.SECONDS);
            assertNotNull(m, "the handler was never called");
            return m;
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
