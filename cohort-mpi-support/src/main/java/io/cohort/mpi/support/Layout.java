package io.cohort.mpi.support;

import java.util.ArrayList;
import java.util.List;

/**
 * A datatype's type map in buffer elements: runs of consecutive base elements, each an (offset,
 * length) pair relative to the item's start, in the order the items' elements travel, plus the
 * item's lower bound and extent (the stride between consecutive items). Both MPI APIs count these
 * in elements of the buffer's array, not bytes; an API that speaks bytes converts first.
 *
 * <pre>
 *   item k starts at element  base + k * extent
 *   its elements are          start + runOffset[r] ... start + runOffset[r] + runLength[r] - 1, for each run r
 * </pre>
 *
 * <p>Immutable; any thread.
 */
public final class Layout {
    /** One element at offset 0, extent 1: every predefined type. */
    public static final Layout ONE = new Layout(new int[] {0}, new int[] {1}, 0, 1);
    /** No elements, extent 0. */
    public static final Layout EMPTY = new Layout(new int[0], new int[0], 0, 0);

    private final int[] runOffset;
    private final int[] runLength;
    /** Elements one item carries. */
    public final int size;
    public final int lb;
    public final int extent;
    /** The lowest offset of an element actually carried (0 with no runs). */
    public final int trueLb;
    /** From the lowest to past the highest element actually carried. */
    public final int trueExtent;
    /** One run from 0 that fills the extent: items lie back to back with no gaps, so a range of items is a range of elements. */
    public final boolean contiguous;

    public Layout(int[] runOffset, int[] runLength, int lb, int extent) {
        if (runOffset.length != runLength.length) {
            throw new IllegalArgumentException("a layout needs as many run lengths as offsets");
        }
        this.runOffset = runOffset.clone();
        this.runLength = runLength.clone();
        int s = 0;
        int lo = Integer.MAX_VALUE;
        int hi = Integer.MIN_VALUE;
        for (int i = 0; i < runOffset.length; i++) {
            s += runLength[i];
            lo = Math.min(lo, runOffset[i]);
            hi = Math.max(hi, runOffset[i] + runLength[i]);
        }
        this.size = s;
        this.lb = lb;
        this.extent = extent;
        this.trueLb = runOffset.length == 0 ? 0 : lo;
        this.trueExtent = runOffset.length == 0 ? 0 : hi - lo;
        this.contiguous = lb == 0 && (runOffset.length == 0 ? extent == 0
                : runOffset.length == 1 && runOffset[0] == 0 && runLength[0] == extent);
    }

    /** The runs' count. */
    public int runs() {
        return runOffset.length;
    }

    public int runOffset(int r) {
        return runOffset[r];
    }

    public int runLength(int r) {
        return runLength[r];
    }

    /** The same runs with another lower bound and extent. */
    public Layout resized(int newLb, int newExtent) {
        return new Layout(runOffset, runLength, newLb, newExtent);
    }

    /** Elements {@code count} items touch from the first item's start: the highest element offset touched, plus one (0 for none). */
    public long span(int count) {
        if (count == 0 || size == 0) {
            return 0;
        }
        return (long) (count - 1) * extent + trueLb + trueExtent;
    }

    /** Sees each run of consecutive elements. */
    @FunctionalInterface
    public interface RunVisitor {
        void run(int at, int n);
    }

    /**
     * Calls {@code visitor} for each run of {@code count} items starting at element {@code base},
     * in type-map order; with a contiguous layout, once for the whole range.
     */
    public void forEachRun(int base, int count, RunVisitor visitor) {
        if (count == 0 || size == 0) {
            return;
        }
        if (contiguous) {
            visitor.run(base, count * size);
            return;
        }
        for (int k = 0; k < count; k++) {
            int start = base + k * extent;
            for (int r = 0; r < runOffset.length; r++) {
                visitor.run(start + runOffset[r], runLength[r]);
            }
        }
    }

    /** The runs' offsets (a copy). */
    public int[] offsets() {
        return runOffset.clone();
    }

    /** The runs' lengths (a copy). */
    public int[] lengths() {
        return runLength.clone();
    }

    // ---- the type constructors both APIs have, in elements ---------------------------------------

    /** {@code count} items of {@code old}, one after another. */
    public static Layout contiguous(int count, Layout old) {
        Builder b = new Builder();
        for (int i = 0; i < count; i++) {
            b.add(old, i * old.extent);
        }
        return b.build(old.lb, count * old.extent);
    }

    /**
     * {@code count} blocks of {@code blockLength} items of {@code old}, block i starting at element
     * {@code i * stride} (a vector's stride already multiplied by the old extent).
     */
    public static Layout strided(int count, int blockLength, int stride, Layout old) {
        Builder b = new Builder();
        int lo = 0;
        int hi = 0;
        for (int i = 0; i < count; i++) {
            int start = i * stride;
            for (int j = 0; j < blockLength; j++) {
                b.add(old, start + j * old.extent);
            }
            lo = Math.min(lo, start);
            hi = Math.max(hi, start + blockLength * old.extent);
        }
        if (count == 0 || blockLength == 0) {
            return b.build(0, 0);
        }
        return b.build(lo + old.lb, hi - lo);
    }

    /** Blocks of {@code blockLengths[i]} items of {@code old} starting at element {@code displs[i]}. */
    public static Layout indexed(int[] blockLengths, int[] displs, Layout old) {
        Builder b = new Builder();
        int lo = Integer.MAX_VALUE;
        int hi = Integer.MIN_VALUE;
        for (int i = 0; i < blockLengths.length; i++) {
            for (int j = 0; j < blockLengths[i]; j++) {
                b.add(old, displs[i] + j * old.extent);
            }
            if (blockLengths[i] > 0) {
                lo = Math.min(lo, displs[i]);
                hi = Math.max(hi, displs[i] + blockLengths[i] * old.extent);
            }
        }
        if (lo == Integer.MAX_VALUE) {
            return b.build(0, 0);
        }
        return b.build(lo + old.lb, hi - lo);
    }

    @Override
    public String toString() {
        return "Layout[size " + size + ", lb " + lb + ", extent " + extent + ", " + runOffset.length + " runs]";
    }

    /** Collects runs in order, joining a run to the previous one when they touch. */
    public static final class Builder {
        private final List<int[]> runs = new ArrayList<>();

        /** Adds every run of {@code t}, shifted to start at element {@code at}. */
        public Builder add(Layout t, int at) {
            for (int r = 0; r < t.runOffset.length; r++) {
                add(at + t.runOffset[r], t.runLength[r]);
            }
            return this;
        }

        /** Adds {@code length} consecutive elements at {@code offset}. */
        public Builder add(int offset, int length) {
            if (length == 0) {
                return this;
            }
            if (!runs.isEmpty()) {
                int[] last = runs.get(runs.size() - 1);
                if (last[0] + last[1] == offset) {
                    last[1] += length;
                    return this;
                }
            }
            runs.add(new int[] {offset, length});
            return this;
        }

        public int[] offsets() {
            return runs.stream().mapToInt(r -> r[0]).toArray();
        }

        public int[] lengths() {
            return runs.stream().mapToInt(r -> r[1]).toArray();
        }

        public Layout build(int lb, int extent) {
            return new Layout(offsets(), lengths(), lb, extent);
        }
    }
}
