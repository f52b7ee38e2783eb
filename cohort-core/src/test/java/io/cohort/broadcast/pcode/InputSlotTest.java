package io.cohort.broadcast.pcode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The input slot allocates with the bytes that arrive, not with the length a first frame claims. */
@Timeout(10)
class InputSlotTest {
    private static final int N = 2;
    private static final long[] TARGETS = {1};

    private static ByteBuffer fragment(int total, int offset, byte[] bytes) {
        int payload = DataFrameDescriptor.payloadOffset(N);
        ByteBuffer f = ByteBuffer.allocate(payload + bytes.length).order(ByteOrder.LITTLE_ENDIAN);
        BcastHeaderDescriptor.write(f, BcastHeaderDescriptor.TYPE_DATA, 0, 1, 1, N, 1);
        DataFrameDescriptor.write(f, 1, 1, total, offset, bytes.length, TARGETS);
        f.put(payload, bytes);
        return f;
    }

    @Test
    void aFirstFrameClaimingTwoGigabytesAllocatesNoMoreThanTheFirstAllocation() {
        InputSlot slot = new InputSlot();
        int total = 0x7ff00000;
        assertTrue(slot.accepts(0, total, 1));
        slot.put(fragment(total, 0, new byte[1000]), DataFrameDescriptor.payloadOffset(N), TARGETS);
        assertTrue(slot.capacity() <= InputSlot.FIRST_ALLOCATION, "allocated " + slot.capacity());
        assertFalse(slot.isReady());
    }

    @Test
    void aMessageOfManyFragmentsGrowsToExactlyItsLengthAndIsIntact() {
        InputSlot slot = new InputSlot();
        int total = 300_000;
        byte[] message = new byte[total];
        for (int i = 0; i < total; i++) {
            message[i] = (byte) (i * 31 + 7);
        }
        int step = 1300;
        for (int offset = 0; offset < total; offset += step) {
            int n = Math.min(step, total - offset);
            assertTrue(slot.accepts(offset, total, 1));
            byte[] part = java.util.Arrays.copyOfRange(message, offset, offset + n);
            slot.put(fragment(total, offset, part), DataFrameDescriptor.payloadOffset(N), TARGETS);
            assertTrue(slot.capacity() <= Math.max(InputSlot.FIRST_ALLOCATION, 2 * (offset + n)),
                    "capacity " + slot.capacity() + " after " + (offset + n) + " bytes");
        }
        assertTrue(slot.isReady());
        assertArrayEquals(message, slot.take());
        assertTrue(slot.isFree());
    }
}
