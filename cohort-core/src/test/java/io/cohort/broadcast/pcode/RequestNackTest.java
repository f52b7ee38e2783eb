package io.cohort.broadcast.pcode;

import io.cohort.auth.JobSecret;

import io.cohort.transport.fault.DatagramPort;
import io.cohort.transport.fault.ForwardingDatagramPort;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static io.cohort.DomainCounters.Counter.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * P0's recovery, one lost datagram at a time, on one thread (no agents): the request waits the
 * initial REQUEST NACK delay, NACKs, and the sender's answer is the lost frame.
 */
@Timeout(20)
class RequestNackTest {
    /** Loses the first {@code n} DATA frames sent through it, passes everything else. */
    static final class LoseFirstData extends ForwardingDatagramPort {
        int toLose;

        LoseFirstData(DatagramPort inner, int toLose) {
            super(inner);
            this.toLose = toLose;
        }

        @Override
        public boolean send(ByteBuffer datagram, SocketAddress target) {
            ByteBuffer b = datagram.duplicate().order(ByteOrder.LITTLE_ENDIAN);
            if (toLose > 0 && b.remaining() > 5 && b.get(b.position() + 5) == BcastHeaderDescriptor.TYPE_DATA) {
                toLose--;
                datagram.position(datagram.limit());
                return true;
            }
            return inner.send(datagram, target);
        }
    }

    @Test
    void aLostMulticastIsRecoveredByARequestNackAfterTheInitialDelay() {
        long delayMicros = 20_000;
        MemoryBroadcastMedium medium = new MemoryBroadcastMedium(3);
        long key = PcodeDomainTest.key();
        JobSecret secret = JobSecret.generate();
        PcodeContext ctx = new PcodeContext().requestNackDelayMicros(delayMicros).nackIntervalMicros(50_000);
        PcodeDomain sender = new PcodeDomain(0, 3, secret, key, ctx, new DomainEndpoints(
                new LoseFirstData(medium.port(0), 2), null, medium.broadcastAddress(), medium.addresses()));
        PcodeDomain receiver = new PcodeDomain(1, 3, secret, key, ctx, new DomainEndpoints(
                medium.port(1), null, medium.broadcastAddress(), medium.addresses()));
        PcodeDomain other = new PcodeDomain(2, 3, secret, key, ctx, new DomainEndpoints(
                medium.port(2), null, medium.broadcastAddress(), medium.addresses()));
        byte[] first = {1, 2, 3};
        byte[] second = {4, 5};
        sender.multicast(first, 1, 2);   // lost on the wire
        sender.multicast(second, 1);     // lost too: point-to-point, its own stream
        // The sender answers NACKs when it polls; here a helper thread stands in for its progress agent.
        DomainAgent senderAgent = new DomainAgent(sender, 200_000).start();
        DomainAgent otherAgent = new DomainAgent(other, 200_000).start();
        try {
            long start = System.nanoTime();
            assertArrayEquals(first, receiver.request(0, 1, 2));
            long waited = System.nanoTime() - start;
            assertTrue(waited >= delayMicros * 1000, "the first REQUEST NACK must wait its delay; waited " + waited + " ns");
            assertArrayEquals(second, receiver.request(0, 1));
            assertArrayEquals(first, other.request(0, 1, 2));
        } finally {
            senderAgent.stop();
            otherAgent.stop();
        }
        // One per lost message, or more if the sender's agent thread was starved past the NACK interval.
        assertTrue(receiver.counters().get(REQUEST_NACKS_SENT) >= 2, receiver.toString());
        assertTrue(sender.counters().get(RETRANSMISSIONS) >= 2, sender.toString());
        receiver.close();
        sender.close();
        other.close();
    }
}
