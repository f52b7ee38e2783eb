package mpi;

import io.cohort.mpi.support.BaseType;
import io.cohort.mpi.support.Carriers;

/**
 * One buffer argument of a collective as Cohort's collectives take it: a carrier array of the base
 * type with the items packed back to back. When the program's array already is that (a contiguous
 * type, offset 0, exactly the items' length) it is the carrier itself and nothing is copied;
 * otherwise the items are copied into a new carrier, and results are copied back by {@link #store()}.
 *
 * <p>Not thread-safe; one per call.
 */
final class Operand {
    final Object carrier;
    private final Object buf;
    private final int offset;
    private final int items;
    private final Datatype type;
    private final boolean own;

    private Operand(Object buf, int offset, int items, Datatype type, boolean load) {
        this.buf = buf;
        this.offset = offset;
        this.items = items;
        this.type = type;
        this.own = Comm.whole(buf, offset, items, type);
        this.carrier = own ? buf : Carriers.gather(buf, offset, items, type.layout, type.element, load);
    }

    /** {@code items} items of {@code buf} from {@code offset}, as an input. */
    static Operand in(Object buf, int offset, int items, Datatype type) {
        return new Operand(buf, offset, items, type, true);
    }

    /** Room for {@code items} items of {@code buf} from {@code offset}, as an output. */
    static Operand out(Object buf, int offset, int items, Datatype type) {
        return new Operand(buf, offset, items, type, false);
    }

    /** Both: loaded, and stored back. */
    static Operand inOut(Object buf, int offset, int items, Datatype type) {
        return new Operand(buf, offset, items, type, true);
    }

    /** Base elements in the carrier. */
    int elements() {
        return items * type.layout.size;
    }

    /** Copies the carrier's items back into the program's array (nothing when the array is the carrier). */
    void store() {
        if (!own) {
            Carriers.scatter(carrier, 0, buf, offset, items, type.layout, type.element);
        }
    }

    /**
     * For the v-forms: a carrier of blocks, block r holding {@code counts[r]} items that sit at item
     * {@code displs[r]} of the program's array (from {@code offset}). With a contiguous type the
     * array is the carrier (element counts and displacements scaled, offset added); otherwise the
     * blocks are packed one after another.
     */
    static final class Blocks {
        final Object carrier;
        final int[] counts;
        final int[] displs;
        private final Object buf;
        private final int offset;
        private final int[] itemCounts;
        private final int[] itemDispls;
        private final Datatype type;
        private final boolean own;

        Blocks(Object buf, int offset, int[] itemCounts, int[] itemDispls, Datatype type, boolean load) {
            this.buf = buf;
            this.offset = offset;
            this.itemCounts = itemCounts;
            this.itemDispls = itemDispls;
            this.type = type;
            int n = itemCounts.length;
            int size = type.layout.size;
            this.own = type.layout.contiguous && BaseType.isCarrier(buf, type.element);
            this.counts = new int[n];
            this.displs = new int[n];
            int total = 0;
            for (int r = 0; r < n; r++) {
                counts[r] = itemCounts[r] * size;
                displs[r] = own ? offset + itemDispls[r] * size : total;
                total += counts[r];
            }
            if (own) {
                this.carrier = buf;
            } else {
                this.carrier = BaseType.newCarrier(type.element, total);
                if (load && buf != null) {
                    for (int r = 0; r < n; r++) {
                        Carriers.copyOut(buf, offset + itemDispls[r] * type.layout.extent, itemCounts[r], type.layout,
                                type.element, carrier, displs[r]);
                    }
                }
            }
        }

        void store() {
            if (own) {
                return;
            }
            for (int r = 0; r < counts.length; r++) {
                Carriers.scatter(carrier, displs[r], buf, offset + itemDispls[r] * type.layout.extent, itemCounts[r],
                        type.layout, type.element);
            }
        }
    }
}
