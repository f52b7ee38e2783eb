package io.cohort.engine;

import io.cohort.MessageTruncatedException;
import io.cohort.idle.IdleStrategies;
import io.cohort.transport.InboundTarget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Messages longer than a Java array can hold (2 GiB - 9 bytes and up) must still be receivable into
 * a ByteBuffer, and a receive that asks for a byte[] must fail with a clear sentence. The array
 * limit is lowered to 1000 bytes here so the paths run without gigabytes of memory.
 */
@Timeout(10)
class HugeArrivalTest {
    private final ProgressEngine engine = new ProgressEngine(0, 2, IdleStrategies.factory("backoff"));
    private final MatchingEngine matching = new MatchingEngine(engine, 2, 1000);

    private static void fill(InboundTarget t, int length) {
        ByteBuffer b = t.buffer();
        for (int i = 0; i < length; i++) {
            b.put((byte) i);
        }
        t.complete();
    }

    @Test
    void unexpectedHugeMessageGoesToDirectMemoryAndIntoAByteBuffer() {
        InboundTarget t = matching.begin(1, 0, 7, 2000);
        assertTrue(t.buffer().isDirect(), "a message too long for an array is kept in direct memory");
        fill(t, 2000);
        ByteBuffer into = ByteBuffer.allocate(2000);
        RecvRequest r = new RecvRequest(engine).start(0, 1, 7, into);
        matching.post(r);
        assertEquals(2000, r.await().length());
        assertEquals(2000, into.position());
        assertEquals((byte) 1999, into.get(1999));
    }

    @Test
    void unexpectedHugeMessageRefusesAByteArrayReceive() {
        fill(matching.begin(1, 0, 7, 2000), 2000);
        RecvRequest r = new RecvRequest(engine).start(0, 1, 7, null);
        matching.post(r);
        MessageTruncatedException e = assertThrows(MessageTruncatedException.class, r::await);
        assertTrue(e.getMessage().contains("longer than a Java array"), e.getMessage());
    }

    @Test
    void postedByteArrayReceiveOfHugeMessageFailsAfterTheBytesAreConsumed() {
        RecvRequest r = new RecvRequest(engine).start(0, 1, 7, null);
        matching.post(r);
        InboundTarget t = matching.begin(1, 0, 7, 2000);
        assertEquals(2000, t.buffer().remaining());
        fill(t, 2000);
        assertThrows(MessageTruncatedException.class, r::await);
        // The next message from the same peer still matches normally.
        RecvRequest next = new RecvRequest(engine).start(0, 1, 8, null);
        matching.post(next);
        fill(matching.begin(1, 0, 8, 10), 10);
        assertEquals(10, next.await().length());
    }
}
