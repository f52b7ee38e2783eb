package io.cohort.wireup;

import io.cohort.stacks.PeerStacks;
import io.cohort.stacks.StacksCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class StacksResponderTest {
    @Test
    void everyRequestIsAnsweredWithItsIdFromACaptureThread() throws Exception {
        BlockingQueue<ControlFrame> sent = new LinkedBlockingQueue<>();
        StacksResponder responder = new StacksResponder(sent::add);
        for (int id = 1; id <= 5; id++) {
            responder.request(id); // some arrive while a capture runs: answered by the next one
        }
        Set<Integer> ids = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            ControlFrame f = sent.take();
            assertEquals(ControlMessageType.STACKS, f.type());
            ControlFrame.BodyReader r = f.reader();
            ids.add(r.getInt());
            PeerStacks p = StacksCodec.decode(r.getBytes());
            assertTrue(p.threads().stream().anyMatch(t -> t.name().equals(Thread.currentThread().getName())), p.toString());
            assertFalse(p.threads().stream().anyMatch(t -> t.name().equals("cohort-stacks")), "the capture thread is left out");
        }
        assertEquals(Set.of(1, 2, 3, 4, 5), ids);
    }

    @Test
    void frameRoundTripThroughTheWire() throws IOException {
        byte[] stacks = StacksCodec.encode(PeerStacks.none());
        ControlFrame f = ControlFrame.build(ControlMessageType.STACKS).putInt(77).putBytes(stacks).frame();
        ControlFrame back = ControlFrame.parse(f.encode());
        assertEquals(ControlMessageType.STACKS, back.type());
        ControlFrame.BodyReader r = back.reader();
        assertEquals(77, r.getInt());
        assertEquals(PeerStacks.none(), StacksCodec.decode(r.getBytes()));
        assertEquals("STACKS_REQUEST", ControlMessageType.name(ControlMessageType.STACKS_REQUEST));
        assertEquals("STACKS_QUERY", ControlMessageType.name(ControlMessageType.STACKS_QUERY));
    }
}
