package io.cohort.mpi.support.buffers;

import io.cohort.mpi.support.BaseType;
import io.cohort.mpi.support.Layout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One buffer argument of a collective: the program's array where it is the carrier, else a packed copy stored back. */
@Timeout(10)
class OperandTest {
    /** Two ints, one apart: x.x, extent 3. */
    static final Layout GAPPED = Layout.strided(2, 1, 2, Layout.ONE);

    @Test
    void anArrayOfExactlyTheItemsIsTheCarrier() {
        int[] a = {1, 2, 3, 4};
        assertSame(a, Operand.direct(a, 0, 4, Layout.ONE, BaseType.INT, true));
        assertSame(a, Operand.input(a, 0, 4, Layout.ONE, BaseType.INT).carrier);
        assertTrue(Operand.whole(a, 0, 4, Layout.ONE, BaseType.INT));
        Layout pairs = Layout.contiguous(2, Layout.ONE);
        assertSame(a, Operand.input(a, 0, 2, pairs, BaseType.INT).carrier); // 2 items of 2 elements
        assertEquals(4, Operand.input(a, 0, 2, pairs, BaseType.INT).elements());
    }

    @Test
    void aLongerArrayIsTheCarrierOnlyWhereTheCallAllowsRoom() {
        int[] a = new int[6];
        assertNull(Operand.direct(a, 0, 4, Layout.ONE, BaseType.INT, true));
        assertSame(a, Operand.direct(a, 0, 4, Layout.ONE, BaseType.INT, false));
        assertSame(a, Operand.output(a, 0, 4, Layout.ONE, BaseType.INT, false, false).carrier);
        assertFalse(Operand.whole(a, 0, 4, Layout.ONE, BaseType.INT));
        Operand exact = Operand.output(a, 0, 4, Layout.ONE, BaseType.INT, true, false);
        assertNotSame(a, exact.carrier);
        assertFalse(exact.own());
    }

    @Test
    void anOffsetAGappedLayoutOrAnotherTypeIsPackedAndStoredBack() {
        int[] a = {0, 1, 2, 3, 4, 5, 6, 7};
        assertNull(Operand.direct(a, 1, 2, Layout.ONE, BaseType.INT, false));
        assertNull(Operand.direct(a, 0, 4, GAPPED, BaseType.INT, false));
        assertNull(Operand.direct(a, 0, 8, Layout.ONE, BaseType.LONG, false));
        assertFalse(Operand.whole(a, 0, 8, Layout.ONE, BaseType.LONG));

        Operand in = Operand.input(a, 1, 2, GAPPED, BaseType.INT);
        assertArrayEquals(new int[] {1, 3, 4, 6}, (int[]) in.carrier);
        assertFalse(in.own());

        int[] b = {9, 9, 9, 9, 9, 9, 9, 9};
        Operand out = Operand.output(b, 1, 2, GAPPED, BaseType.INT, false, false);
        assertArrayEquals(new int[4], (int[]) out.carrier); // an output is not loaded
        System.arraycopy(new int[] {10, 30, 40, 60}, 0, out.carrier, 0, 4);
        out.store();
        assertArrayEquals(new int[] {9, 10, 9, 30, 40, 9, 60, 9}, b); // the gaps and the rest untouched

        int[] c = {0, 1, 2, 3, 4, 5, 6, 7};
        Operand both = Operand.output(c, 1, 2, GAPPED, BaseType.INT, true, true);
        assertArrayEquals(new int[] {1, 3, 4, 6}, (int[]) both.carrier); // loaded, as a bcast's root needs
    }

    @Test
    void storingBackTheBufferItselfCopiesNothing() {
        int[] a = {1, 2, 3};
        Operand out = Operand.output(a, 0, 3, Layout.ONE, BaseType.INT, true, false);
        assertTrue(out.own());
        ((int[]) out.carrier)[1] = 20;
        out.store();
        assertArrayEquals(new int[] {1, 20, 3}, a);
    }

    @Test
    void aTypedBufferOrAByteArrayOfWiderValuesIsPackedIntoTheTypesArray() {
        IntBuffer ib = IntBuffer.wrap(new int[] {5, 6, 7});
        Operand in = Operand.input(ib, 0, 3, Layout.ONE, BaseType.INT);
        assertArrayEquals(new int[] {5, 6, 7}, (int[]) in.carrier);

        byte[] raw = new byte[12];
        ByteBuffer.wrap(raw).order(java.nio.ByteOrder.nativeOrder()).asIntBuffer().put(new int[] {1, 2, 3});
        Operand out = Operand.output(raw, 0, 3, Layout.ONE, BaseType.INT, false, true);
        assertArrayEquals(new int[] {1, 2, 3}, (int[]) out.carrier);
        ((int[]) out.carrier)[2] = 30;
        out.store();
        assertEquals(30, ByteBuffer.wrap(raw).order(java.nio.ByteOrder.nativeOrder()).getInt(8));
    }

    @Test
    void aByteBufferOfBytesIsAWindowFromIndexZero() {
        ByteBuffer b = ByteBuffer.allocateDirect(8);
        b.position(5); // ignored: element 0 is index 0
        Object w = Operand.direct(b, 0, 6, Layout.ONE, BaseType.BYTE, true);
        ByteBuffer window = assertInstanceOf(ByteBuffer.class, w);
        assertEquals(0, window.position());
        assertEquals(6, window.limit());
        assertEquals(5, b.position());
        Operand out = Operand.output(b, 0, 6, Layout.ONE, BaseType.BYTE, false, false);
        assertTrue(out.own());
        ((ByteBuffer) out.carrier).put(2, (byte) 7);
        out.store();
        assertEquals(7, b.get(2));
        assertNull(Operand.direct(b, 0, 2, Layout.ONE, BaseType.INT, false)); // ints in bytes: packed
    }

    @Test
    void anInPlaceResultStoresItsFirstItemsAndScratchStoresNothing() {
        int[] a = {0, 1, 2, 3, 4, 5, 6, 7};
        assertArrayEquals(new int[] {0, 2, 3, 5}, (int[]) Operand.inputCarrier(a, 0, 2, GAPPED, BaseType.INT));
        Operand result = Operand.inPlace(a, 0, 2, 1, GAPPED, BaseType.INT);
        assertArrayEquals(new int[] {0, 2, 3, 5}, (int[]) result.carrier); // loaded
        ((int[]) result.carrier)[0] = 100;
        ((int[]) result.carrier)[1] = 200;
        ((int[]) result.carrier)[2] = 300;
        result.store();
        assertArrayEquals(new int[] {100, 1, 200, 3, 4, 5, 6, 7}, a); // item 0 only

        int[] whole = {1, 2, 3};
        Operand own = Operand.inPlace(whole, 0, 3, 3, Layout.ONE, BaseType.INT);
        assertSame(whole, own.carrier);
        assertSame(whole, Operand.inputCarrier(whole, 0, 3, Layout.ONE, BaseType.INT));

        Operand scratch = Operand.scratch(BaseType.DOUBLE, 3);
        assertEquals(3, ((double[]) scratch.carrier).length);
        scratch.store();
    }
}
