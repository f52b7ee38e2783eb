package io.cohort.collective;

import io.cohort.Op;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The predefined ops against scalar formulas, which op applies to which array, and user-defined ops. */
@Timeout(10)
class OpTest {
    @Test
    void arithmeticOnEveryNumericType() {
        int[] i = {3, -4, 7};
        Op.SUM.apply(new int[] {1, 2, 3}, i, 3);
        assertArrayEquals(new int[] {4, -2, 10}, i);
        long[] l = {Long.MAX_VALUE, 5};
        Op.SUM.apply(new long[] {1, 2}, l, 2);
        assertArrayEquals(new long[] {Long.MIN_VALUE, 7}, l, "integer arithmetic wraps");
        double[] d = {2.5, -1};
        Op.PROD.apply(new double[] {4, 3}, d, 2);
        assertArrayEquals(new double[] {10, -3}, d);
        float[] f = {1f, 9f};
        Op.MIN.apply(new float[] {2f, -3f}, f, 2);
        assertArrayEquals(new float[] {1f, -3f}, f);
        short[] s = {100, -100};
        Op.MAX.apply(new short[] {-5, 5}, s, 2);
        assertArrayEquals(new short[] {100, 5}, s);
        byte[] b = {100};
        Op.SUM.apply(new byte[] {100}, b, 1);
        assertArrayEquals(new byte[] {(byte) 200}, b);
        char[] c = {'a', 65535};
        Op.MAX.apply(new char[] {'b', 1}, c, 2);
        assertArrayEquals(new char[] {'b', 65535}, c, "char compares unsigned");
    }

    @Test
    void logicalAndBitwise() {
        boolean[] z = {true, true, false, false};
        Op.LXOR.apply(new boolean[] {true, false, true, false}, z, 4);
        assertArrayEquals(new boolean[] {false, true, true, false}, z);
        int[] i = {0, 5, 0, 6};
        Op.LAND.apply(new int[] {3, 0, 0, 2}, i, 4);
        assertArrayEquals(new int[] {0, 0, 0, 1}, i, "nonzero is true, the result is 1 or 0");
        long[] l = {0b1100};
        Op.BXOR.apply(new long[] {0b1010}, l, 1);
        assertArrayEquals(new long[] {0b0110}, l);
        boolean[] band = {true, false};
        Op.BAND.apply(new boolean[] {true, true}, band, 2);
        assertArrayEquals(new boolean[] {true, false}, band);
        char[] c = {0x0F};
        Op.BOR.apply(new char[] {0xF0}, c, 1);
        assertArrayEquals(new char[] {0xFF}, c);
    }

    @Test
    void minlocAndMaxlocKeepTheSmallerIndexOnTies() {
        int[] m = {5, 3, 7, 9, 4, 0};
        Op.MINLOC.apply(new int[] {5, 1, 8, 2, 4, 6}, m, 6);
        assertArrayEquals(new int[] {5, 1, 7, 9, 4, 0}, m);
        double[] x = {2.0, 4, 1.0, 0};
        Op.MAXLOC.apply(new double[] {2.0, 3, 0.5, 9}, x, 4);
        assertArrayEquals(new double[] {2.0, 3, 1.0, 0}, x);
        long[] y = {1, 8};
        Op.MAXLOC.apply(new long[] {2, 9}, y, 2);
        assertArrayEquals(new long[] {2, 9}, y);
    }

    @Test
    void offsetsCombineRanges() {
        int[] inout = {0, 0, 10, 20, 0};
        Op.SUM.apply(new int[] {9, 1, 2}, 1, inout, 2, 2);
        assertArrayEquals(new int[] {0, 0, 11, 22, 0}, inout);
        long[] user = {1, 1, 5, 5};
        Op.ofLongs((a, b) -> a * 10 + b, false).apply(new long[] {7, 3, 4}, 1, user, 2, 2);
        assertArrayEquals(new long[] {1, 1, 35, 45}, user);
    }

    @Test
    void anOpGivenTheWrongArraySaysSoInOneSentence() {
        List<Object[]> cases = List.of(
                new Object[] {Op.BAND, new double[1], "BAND does not apply to double[]"},
                new Object[] {Op.SUM, new boolean[1], "SUM does not apply to boolean[]"},
                new Object[] {Op.LOR, new float[1], "LOR does not apply to float[]"},
                new Object[] {Op.MINLOC, new char[2], "MINLOC does not apply to char[]"},
                new Object[] {Op.MAX, new Object[1], "MAX does not apply to Object[]"},
                new Object[] {Op.MAXLOC, new int[3], "MAXLOC needs an even number of elements, read as (value, index)"
                        + " pairs, not 3"});
        for (Object[] c : cases) {
            Op op = (Op) c[0];
            Object a = c[1];
            int n = java.lang.reflect.Array.getLength(a);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> op.check(a, n));
            assertEquals(c[2], e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Op.SUM.apply(new int[1], new long[1], 1));
        assertEquals("SUM combines arrays of one type, not int[] and long[]", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Op.ofInts(Integer::sum, true).check(new long[1], 1));
        assertEquals("user int op does not apply to long[]; it combines int[]", e.getMessage());
    }

    @Test
    void userOpsCarryTheirCommutativityAndUnit() {
        assertTrue(Op.SUM.isCommutative());
        assertTrue(Op.SUM.isPredefined());
        assertEquals(2, Op.MINLOC.unit());
        Op concat = Op.<String>ofObjects((a, b) -> a + b, false);
        assertFalse(concat.isCommutative());
        String[] inout = {"b", "y"};
        concat.apply(new String[] {"a", "x"}, inout, 2);
        assertArrayEquals(new String[] {"ab", "xy"}, inout, "in is the left operand");
        assertEquals(0, Op.create("whole", true, (in, io, n) -> { }).unit());
        assertEquals(4, Fixtures.MATMUL.unit());
        assertThrows(IllegalArgumentException.class, () -> Op.create("bad", true, -1, (in, io, n) -> { }));
    }
}
