package io.cohort.mpi.support.buffers;

import io.cohort.mpi.support.BaseType;
import io.cohort.mpi.support.Layout;

import java.nio.ByteBuffer;

/**
 * The blocks of a v-collective's buffer as Cohort's v-collectives take them: a carrier with, per
 * process, a count and a displacement in base elements. Block r holds {@code itemCounts[r]} items of
 * the layout starting at item {@code itemDispls[r]} of the program's buffer, counted from element
 * {@code base} (item i at {@code base + i * extent}).
 *
 * <p>With a contiguous layout over an array of the base type (or a {@link ByteBuffer} of bytes) the
 * buffer is the carrier: the counts and displacements are scaled to elements, {@code base} added,
 * and nothing is copied. Otherwise the blocks are packed one after another into a new carrier
 * (loaded for an input), and {@link #store()} copies each back to its place, leaving what lies
 * between and around the blocks as it was.
 *
 * <p>The caller checks the counts, the displacements and that the buffer holds the blocks first.
 * Not thread-safe; one per call. What storing back needs is kept lean (the item counts are the
 * element counts over the item size, the base type the carrier's own): both layers make one per
 * v-collective call.
 */
public final class Blocks {
    /** What Cohort's v-collective takes as the buffer. */
    public final Object carrier;
    /** Base elements of each process's block. */
    public final int[] counts;
    /** Where each block starts in the carrier, in base elements. */
    public final int[] displs;
    /** Where the blocks go back to; null when the carrier is the buffer. */
    private final Object buf;
    private final int base;
    private final int[] itemDispls;
    private final Layout layout;

    public Blocks(Object buf, int base, int[] itemCounts, int[] itemDispls, Layout layout, int baseType, boolean load) {
        this.base = base;
        this.itemDispls = itemDispls;
        this.layout = layout;
        int n = itemCounts.length;
        int size = layout.size;
        boolean bytes = buf instanceof ByteBuffer && baseType == BaseType.BYTE;
        boolean own = layout.contiguous && (bytes || BaseType.isCarrier(buf, baseType));
        this.buf = own ? null : buf;
        this.counts = new int[n];
        this.displs = new int[n];
        int total = 0;
        int end = 0;
        for (int r = 0; r < n; r++) {
            counts[r] = itemCounts[r] * size;
            displs[r] = own ? base + itemDispls[r] * size : total;
            total += counts[r];
            end = Math.max(end, displs[r] + counts[r]);
        }
        if (!own) {
            this.carrier = BaseType.newCarrier(baseType, total);
            if (load && buf != null) {
                for (int r = 0; r < n; r++) {
                    Carriers.copyOut(buf, start(r), itemCounts[r], layout, baseType, carrier, displs[r]);
                }
            }
        } else if (bytes) {
            ByteBuffer w = ((ByteBuffer) buf).duplicate();
            w.clear();
            w.limit(end);
            this.carrier = w;
        } else {
            this.carrier = buf;
        }
    }

    /** The element of the program's buffer where block r starts. */
    private int start(int r) {
        return base + itemDispls[r] * layout.extent;
    }

    /** Whether the carrier is the program's own storage (nothing is copied back). */
    public boolean own() {
        return buf == null;
    }

    /** Copies every block of the carrier back into its place in the program's buffer; nothing when the carrier is the buffer. */
    public void store() {
        if (buf == null || layout.size == 0) {
            return;
        }
        int baseType = BaseType.ofArray(carrier);
        for (int r = 0; r < counts.length; r++) {
            Carriers.scatter(carrier, displs[r], buf, start(r), counts[r] / layout.size, layout, baseType);
        }
    }
}
