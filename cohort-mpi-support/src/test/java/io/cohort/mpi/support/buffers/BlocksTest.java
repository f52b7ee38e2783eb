package io.cohort.mpi.support.buffers;

import io.cohort.mpi.support.BaseType;
import io.cohort.mpi.support.Layout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The blocks of a v-collective: the array itself with scaled counts and displacements, or packed blocks stored back. */
@Timeout(10)
class BlocksTest {
    @Test
    void aContiguousArrayIsTheCarrierWithElementCountsAndTheBaseAdded() {
        long[] a = new long[20];
        Layout pair = Layout.contiguous(2, Layout.ONE);
        Blocks b = new Blocks(a, 3, new int[] {1, 0, 2}, new int[] {4, 0, 1}, pair, BaseType.LONG, false);
        assertTrue(b.own());
        assertSame(a, b.carrier);
        assertArrayEquals(new int[] {2, 0, 4}, b.counts);
        assertArrayEquals(new int[] {3 + 8, 3, 3 + 2}, b.displs);
        b.store(); // nothing to copy
    }

    @Test
    void aGappedLayoutPacksTheBlocksOneAfterAnotherAndStoresEachBack() {
        Layout gapped = Layout.strided(2, 1, 2, Layout.ONE); // x.x, extent 3
        int[] a = new int[16];
        for (int i = 0; i < a.length; i++) {
            a[i] = i;
        }
        // Block 0: 1 item at item 2 (elements 1+6, 1+8); block 1: 2 items at item 0 (elements 1, 3, 4, 6).
        Blocks in = new Blocks(a, 1, new int[] {1, 2}, new int[] {2, 0}, gapped, BaseType.INT, true);
        assertFalse(in.own());
        assertArrayEquals(new int[] {7, 9, 1, 3, 4, 6}, (int[]) in.carrier);
        assertArrayEquals(new int[] {2, 4}, in.counts);
        assertArrayEquals(new int[] {0, 2}, in.displs);

        int[] b = new int[16];
        java.util.Arrays.fill(b, -1);
        Blocks out = new Blocks(b, 1, new int[] {1, 2}, new int[] {2, 0}, gapped, BaseType.INT, false);
        assertArrayEquals(new int[6], (int[]) out.carrier); // an output is not loaded
        System.arraycopy(in.carrier, 0, out.carrier, 0, 6);
        out.store();
        for (int i = 0; i < b.length; i++) {
            boolean carried = i == 1 || i == 3 || i == 4 || i == 6 || i == 7 || i == 9;
            assertEquals(carried ? i : -1, b[i], "element " + i);
        }
    }

    @Test
    void blocksThatShareElementsAreEachPackedWhole() {
        // A scatterv's send blocks may overlap: each block gets its own copy.
        double[] a = {0, 1, 2, 3};
        Layout two = Layout.strided(2, 1, 2, Layout.ONE); // x.x
        Blocks b = new Blocks(a, 0, new int[] {1, 1}, new int[] {0, 0}, two, BaseType.DOUBLE, true);
        assertArrayEquals(new double[] {0, 2, 0, 2}, (double[]) b.carrier);
    }

    @Test
    void aByteBufferOfBytesIsAWindowAndATypedOneIsPacked() {
        ByteBuffer bytes = ByteBuffer.allocate(16);
        bytes.position(9);
        Blocks b = new Blocks(bytes, 0, new int[] {2, 3}, new int[] {5, 0}, Layout.ONE, BaseType.BYTE, false);
        assertTrue(b.own());
        ByteBuffer w = assertInstanceOf(ByteBuffer.class, b.carrier);
        assertEquals(0, w.position());
        assertEquals(7, w.limit());
        assertEquals(9, bytes.position());

        java.nio.IntBuffer ints = java.nio.IntBuffer.wrap(new int[] {1, 2, 3, 4});
        Blocks t = new Blocks(ints, 0, new int[] {1, 1}, new int[] {3, 1}, Layout.ONE, BaseType.INT, true);
        assertFalse(t.own());
        assertArrayEquals(new int[] {4, 2}, (int[]) t.carrier);
    }

    @Test
    void noBufferAndNoItemsMakeAnEmptyCarrier() {
        Blocks b = new Blocks(null, 0, new int[] {0, 0}, new int[] {0, 0}, Layout.ONE, BaseType.FLOAT, false);
        assertEquals(0, ((float[]) b.carrier).length);
        b.store();
    }
}
