package io.cohort.engine;

import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Set;

/** What an attacker puts in an object message, for the tests of the serial filter and of the API's refusals. */
public final class HostilePayloads {
    private HostilePayloads() {
    }

    /**
     * The nested-HashSet bomb: {@code levels} levels of two sets, each holding both sets of the next
     * level, so that {@code hashCode} work doubles per level and an unfiltered {@code readObject} of 100
     * levels never returns (a few kilobytes serialized).
     */
    public static Set<Object> bomb(int levels) {
        Set<Object> root = new HashSet<>();
        Set<Object> s1 = root;
        Set<Object> s2 = new HashSet<>();
        for (int i = 0; i < levels; i++) {
            Set<Object> t1 = new HashSet<>();
            Set<Object> t2 = new HashSet<>();
            t1.add("foo"); // t1 and t2 must differ
            s1.add(t1);
            s1.add(t2);
            s2.add(t1);
            s2.add(t2);
            s1 = t1;
            s2 = t2;
        }
        return root;
    }

    /** A serialized int[4] whose length field claims {@code length} elements: 16 bytes follow it, no more. */
    public static byte[] forgedIntArray(int length) {
        byte[] b = Payloads.ofObject(new int[] {1, 2, 3, 4});
        ByteBuffer.wrap(b).putInt(b.length - 4 * Integer.BYTES - Integer.BYTES, length); // big-endian, as Java writes it
        return b;
    }
}
