package io.cohort.mpi.support.buffers;

import io.cohort.mpi.support.BaseType;
import io.cohort.mpi.support.Layout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Packing items of a layout into carriers and wire bytes, and back. */
@Timeout(10)
class CarriersTest {

    @Test
    void carriersRoundTripThroughGapsAndOffsets() {
        Layout v = Layout.strided(2, 1, 2, Layout.ONE); // x.x, extent 3
        int[] buf = {0, 1, 2, 3, 4, 5, 6, 7};
        int[] packed = (int[]) Carriers.gather(buf, 1, 2, v, BaseType.INT, true);
        assertArrayEquals(new int[] {1, 3, 4, 6}, packed);
        int[] back = new int[8];
        Carriers.scatter(packed, 0, back, 1, 2, v, BaseType.INT);
        assertArrayEquals(new int[] {0, 1, 0, 3, 4, 0, 6, 0}, back);
        java.nio.ByteBuffer wire = Carriers.encode(buf, 1, 2, v, BaseType.INT);
        assertEquals(16, wire.remaining());
        assertEquals(3, wire.order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt(4));
        int[] decoded = new int[8];
        Carriers.decode(wire, decoded, 1, 2, v, BaseType.INT);
        assertArrayEquals(back, decoded);
        Object[] objs = {"a", "b", "c", "d"};
        assertArrayEquals(new Object[] {"b", "d"}, (Object[]) Carriers.gather(objs, 1, 1, v, BaseType.OBJECT, true));
        boolean[] z = {true, false, true};
        assertArrayEquals(new byte[] {1, 0, 1}, Carriers.encode(z, 0, 3, Layout.ONE, BaseType.BOOLEAN).array());
    }

    @Test
    void aShortMessageFillsTheFirstItemsOnly() {
        int[] into = {9, 9, 9};
        java.nio.ByteBuffer two = java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(1).putInt(2).flip();
        Carriers.decode(two, into, 0, 3, Layout.ONE, BaseType.INT);
        assertArrayEquals(new int[] {1, 2, 9}, into);
    }
}
