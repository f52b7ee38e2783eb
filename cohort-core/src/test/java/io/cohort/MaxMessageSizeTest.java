package io.cohort;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The largest message the API allows, 2 GiB - 1 bytes, crosses a real TCP connection, and a udp
 * pair (about 33 000 fragments at loopback's 64 KiB datagrams), intact.
 * Needs about 4.5 GiB of direct memory (the JVM's default limit equals the heap limit, a quarter
 * of RAM: 6 GiB on the 24 GiB machines this project targets).
 */
@Tag("soak") // minutes, and 4.5 GiB: mvn verify -Psoak
@Isolated // that much direct memory, with no other class beside it
class MaxMessageSizeTest {
    private static final int STRIDE = 1 << 16;

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"tcp", "udp"})
    @Timeout(240)
    void twoGibMinusOneBytes(String transport) {
        long directNeeded = 2L * Integer.MAX_VALUE + (256L << 20);
        long available = Runtime.getRuntime().maxMemory();
        org.junit.jupiter.api.Assumptions.assumeTrue(available >= directNeeded,
                "skipped: needs a " + (directNeeded >> 20) + " MiB direct-memory limit, this JVM has " + (available >> 20));
        LocalCohort.builder().size(2).transport(transport).run(world -> {
            int length = Communicator.MAX_MESSAGE_BYTES;
            if (world.rank() == 1) {
                ByteBuffer into = ByteBuffer.allocateDirect(length);
                Request r = world.irecv(0, 1, into); // posted before the sender starts: streams straight in
                world.send(0, 0, new byte[0]);
                Status s = r.await();
                assertEquals(length, s.length());
                assertEquals(length, into.position());
                for (long i = 0; i < length; i += STRIDE) {
                    assertEquals((byte) (i / STRIDE), into.get((int) i), "byte " + i);
                }
                assertEquals((byte) 0x5A, into.get(length - 1));
            } else {
                ByteBuffer big = ByteBuffer.allocateDirect(length);
                for (long i = 0; i < length; i += STRIDE) {
                    big.put((int) i, (byte) (i / STRIDE));
                }
                big.put(length - 1, (byte) 0x5A);
                world.recv(1, 0);
                world.send(1, 1, big);
            }
        });
    }
}
