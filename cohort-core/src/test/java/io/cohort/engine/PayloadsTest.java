package io.cohort.engine;

import io.cohort.CohortException;
import io.cohort.Message;
import io.cohort.MessageTruncatedException;
import io.cohort.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class PayloadsTest {
    static Status st(byte[] b) {
        return new Status(3, 9, b.length);
    }

    @Test
    void typedRoundTrips() {
        int[] ints = {0, -1, Integer.MIN_VALUE, Integer.MAX_VALUE};
        long[] longs = {0, -1, Long.MIN_VALUE, Long.MAX_VALUE};
        double[] doubles = {-0.0, Double.NaN, Double.MAX_VALUE, 1e-300};
        float[] floats = {-0f, Float.NaN, Float.MIN_VALUE};
        short[] shorts = {Short.MIN_VALUE, 0, Short.MAX_VALUE};
        char[] chars = {'x', '\uffff', 0};
        byte[] b;
        b = Payloads.of(ints);
        assertArrayEquals(ints, new Message(st(b), b).asInts());
        b = Payloads.of(longs);
        assertArrayEquals(longs, new Message(st(b), b).asLongs());
        b = Payloads.of(doubles);
        assertArrayEquals(doubles, new Message(st(b), b).asDoubles());
        b = Payloads.of(floats);
        assertArrayEquals(floats, new Message(st(b), b).asFloats());
        b = Payloads.of(shorts);
        assertArrayEquals(shorts, new Message(st(b), b).asShorts());
        b = Payloads.of(chars);
        assertArrayEquals(chars, new Message(st(b), b).asChars());
        assertEquals(0, Payloads.of(new int[0]).length);
        assertEquals(0, new Message(new Status(0, 0, 0), new byte[0]).asDoubles().length);
    }

    @Test
    void encodingIsLittleEndian() {
        assertArrayEquals(new byte[] {4, 3, 2, 1}, Payloads.of(new int[] {0x01020304}));
        assertArrayEquals(new byte[] {2, 1}, Payloads.of(new short[] {0x0102}));
        assertArrayEquals(new byte[] {8, 7, 6, 5, 4, 3, 2, 1}, Payloads.of(new long[] {0x0102030405060708L}));
        byte[] d = Payloads.of(new double[] {1.0});
        assertEquals(Double.doubleToLongBits(1.0), ByteBuffer.wrap(d).order(ByteOrder.LITTLE_ENDIAN).getLong(0));
    }

    @Test
    void messageViewsDecodeLittleEndian() {
        byte[] b = Payloads.of(new int[] {0x01020304, 7});
        Message m = new Message(new Status(1, 2, b.length), b);
        assertArrayEquals(new int[] {0x01020304, 7}, m.asInts());
        ByteBuffer view = m.buffer();
        assertEquals(ByteOrder.LITTLE_ENDIAN, view.order(), "Message.buffer() is documented as little-endian");
        assertTrue(view.isReadOnly());
        assertEquals(0x01020304, view.getInt(0));
        assertEquals(7, view.getInt(4));
    }

    @Test
    void lengthThatIsNotAWholeNumberOfElementsIsAClearError() {
        byte[] seven = new byte[7];
        Status s = new Status(3, 9, 7);
        CohortException e = assertThrows(CohortException.class, () -> new Message(s, seven).asInts());
        assertTrue(e.getMessage().contains("7 bytes") && e.getMessage().contains("int")
                && e.getMessage().contains("rank 3") && e.getMessage().contains("tag 9"), e.getMessage());
        assertThrows(CohortException.class, () -> new Message(s, seven).asLongs());
        assertThrows(CohortException.class, () -> new Message(s, seven).asDoubles());
        assertThrows(CohortException.class, () -> new Message(s, seven).asFloats());
        assertThrows(CohortException.class, () -> new Message(s, seven).asShorts());
        assertThrows(CohortException.class, () -> new Message(s, seven).asChars());
        CohortException e2 = assertThrows(CohortException.class, () -> new Message(s, seven).asDoubles());
        assertTrue(e2.getMessage().contains("double"), e2.getMessage());
    }

    @Test
    void intoCallersArray() {
        byte[] b = Payloads.of(new long[] {5, 6});
        long[] dst = new long[3];
        Payloads.into(b, st(b), dst, Long.BYTES, dst.length, "long");
        assertArrayEquals(new long[] {5, 6, 0}, dst);
        long[] small = new long[1];
        MessageTruncatedException e = assertThrows(MessageTruncatedException.class,
                () -> Payloads.into(b, st(b), small, Long.BYTES, small.length, "long"));
        assertEquals(16, e.status().length());
    }

    record Pair(String a, List<Integer> b) implements Serializable {
    }

    static final class Holder implements Serializable {
        final Object inside = new Object(); // not serializable
    }

    @Test
    void objectsRoundTrip() {
        Pair p = new Pair("x", List.of(1, 2));
        byte[] b = Payloads.ofObject(p);
        assertEquals(p, Payloads.toObject(b, st(b)));
        byte[] n = Payloads.ofObject(null);
        assertNull(Payloads.toObject(n, st(n)));
    }

    @Test
    void nonSerializableObjectIsIllegalArgument() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Payloads.ofObject(new Object()));
        assertTrue(e.getMessage().contains("java.lang.Object") && e.getMessage().contains("Serializable"), e.getMessage());
        CohortException e2 = assertThrows(CohortException.class, () -> Payloads.ofObject(new Holder()));
        assertTrue(e2.getMessage().contains(Holder.class.getName()), e2.getMessage());
    }

    @Test
    void garbageIsNotAnObject() {
        byte[] junk = {1, 2, 3, 4, 5};
        CohortException e = assertThrows(CohortException.class, () -> Payloads.toObject(junk, new Status(4, 1, 5)));
        assertTrue(e.getMessage().contains("rank 4"), e.getMessage());
    }
}
