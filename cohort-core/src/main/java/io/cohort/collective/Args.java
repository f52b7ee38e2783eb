package io.cohort.collective;

/**
 * Argument checks shared by the collectives, each failing with one sentence that names the bad
 * value. They run before any message is sent, so a bad call fails at once instead of hanging.
 *
 * <p>Threads: stateless; any thread.
 */
final class Args {
    private Args() {
    }

    static void root(int root, int size) {
        if (root < 0 || root >= size) {
            throw new IllegalArgumentException("root " + root + " does not exist; ranks are 0 to " + (size - 1));
        }
    }

    /** {@code buffer} must be a supported buffer holding at least {@code needed} elements. */
    static void holds(Object buffer, String what, long needed) {
        Buffers.check(buffer, what);
        if (Buffers.count(buffer) < needed) {
            throw new IllegalArgumentException(what + " holds " + Buffers.count(buffer) + " elements but needs "
                    + needed);
        }
    }

    static void sameType(Object send, Object recv, String operation) {
        if (!Buffers.sameType(send, recv) || unrelatedObjects(send, recv)) {
            throw new IllegalArgumentException(operation + " needs send and recv buffers of one element type, not "
                    + Buffers.typeName(send) + " and " + Buffers.typeName(recv));
        }
    }

    /**
     * Object arrays whose element types exclude each other ({@code String[]} and {@code Integer[]}): no
     * element of one fits the other. An {@code Object[]} of strings may still go into a {@code String[]}.
     */
    private static boolean unrelatedObjects(Object send, Object recv) {
        if (!(send instanceof Object[]) || !(recv instanceof Object[])) {
            return false;
        }
        Class<?> s = send.getClass().getComponentType();
        Class<?> r = recv.getClass().getComponentType();
        return !r.isAssignableFrom(s) && !s.isAssignableFrom(r) && !r.isInterface() && !s.isInterface();
    }

    /** Counts and displacements of N blocks in a buffer of {@code capacity} elements. */
    static void blocks(String what, int[] counts, int[] displs, int size, int capacity) {
        if (counts == null || counts.length != size) {
            throw new IllegalArgumentException(what + " counts must have one entry per rank (" + size + "), not "
                    + (counts == null ? "null" : counts.length));
        }
        if (displs == null || displs.length != size) {
            throw new IllegalArgumentException(what + " displacements must have one entry per rank (" + size
                    + "), not " + (displs == null ? "null" : displs.length));
        }
        for (int r = 0; r < size; r++) {
            if (counts[r] < 0 || displs[r] < 0 || (long) displs[r] + counts[r] > capacity) {
                throw new IllegalArgumentException(what + " block of rank " + r + " (count " + counts[r]
                        + " at displacement " + displs[r] + ") does not fit in a buffer of " + capacity + " elements");
            }
        }
    }

    /**
     * As {@link #blocks}, for blocks that are received into: no two non-empty ones may overlap, or the
     * buffer would hold whichever block arrived last.
     */
    static void receiveBlocks(String what, int[] counts, int[] displs, int size, int capacity) {
        blocks(what, counts, displs, size, capacity);
        int[] pair = BlockOverlap.find(counts, displs);
        if (pair != null) {
            int a = pair[0];
            int b = pair[1];
            throw new IllegalArgumentException(what + " blocks of ranks " + a + " and " + b + " overlap (" + counts[a]
                    + " at " + displs[a] + ", " + counts[b] + " at " + displs[b] + "); give each rank its own part of the buffer");
        }
    }

    /** Counts of N blocks, each non-negative; returns their sum. */
    static long counts(String what, int[] counts, int size) {
        if (counts == null || counts.length != size) {
            throw new IllegalArgumentException(what + " counts must have one entry per rank (" + size + "), not "
                    + (counts == null ? "null" : counts.length));
        }
        long total = 0;
        for (int r = 0; r < size; r++) {
            if (counts[r] < 0) {
                throw new IllegalArgumentException(what + " count of rank " + r + " is negative: " + counts[r]);
            }
            total += counts[r];
        }
        return total;
    }

    /** Equal blocks of {@code count} elements, one per rank, back to back. */
    static int[] uniform(int count, int size) {
        int[] c = new int[size];
        java.util.Arrays.fill(c, count);
        return c;
    }

    /** Displacements of blocks placed back to back. */
    static int[] packed(int[] counts) {
        int[] d = new int[counts.length];
        for (int r = 1; r < counts.length; r++) {
            d[r] = Math.addExact(d[r - 1], counts[r - 1]);
        }
        return d;
    }
}
