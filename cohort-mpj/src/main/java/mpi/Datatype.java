package mpi;

import io.cohort.mpi.support.BaseType;
import io.cohort.mpi.support.Layout;

/**
 * A datatype of mpiJava 1.2: which elements of a buffer array one item covers. Everything is
 * counted in <em>elements of the buffer's array</em> (its base type: ints of an {@code int[]},
 * objects of an {@code Object[]}), never in bytes: {@link #Extent()}, {@link #Lb()},
 * {@link #Ub()}, {@link #Size()}, the strides of {@link #Hvector} and the displacements of
 * {@link #Hindexed} and {@link #Struct}. A derived type has the base type of the types it is built
 * from, and the buffer it describes must be an array of that type.
 *
 * <p>Immutable once made, apart from commit and free; any thread.
 */
public abstract class Datatype implements Freeable {
    // MPJ Express's type numbers (getType()).
    static final int NULL_TYPE = 0;
    static final int BYTE_TYPE = 1;
    static final int CHAR_TYPE = 2;
    static final int SHORT_TYPE = 3;
    static final int BOOLEAN_TYPE = 4;
    static final int INT_TYPE = 5;
    static final int LONG_TYPE = 6;
    static final int FLOAT_TYPE = 7;
    static final int DOUBLE_TYPE = 8;
    static final int PACKED_TYPE = 9;
    static final int LB_TYPE = 10;
    static final int UB_TYPE = 11;
    static final int OBJECT_TYPE = 12;

    /** The base type: MPJ Express's number of the element type (MPI.INT's is 5). */
    public int baseType;
    /** The type map in buffer elements. */
    final Layout layout;
    /** The element type as the shared engine numbers it (PACKED is BYTE). */
    final int element;
    /** For the pair types SHORT2 ... DOUBLE2. */
    final boolean pair;
    private final String name;
    private volatile boolean committed;

    /** A type with no elements; for MPJ Express's signature (the library's types come from its constructors). */
    public Datatype() {
        this(NULL_TYPE, Layout.EMPTY, false, null);
    }

    Datatype(int baseType, Layout layout, boolean pair, String name) {
        this.baseType = baseType;
        this.layout = layout;
        this.element = baseType == PACKED_TYPE ? BaseType.BYTE : baseType == LB_TYPE || baseType == UB_TYPE
                ? BaseType.NULL : baseType;
        this.pair = pair;
        this.name = name;
        this.committed = name != null;
    }

    static Datatype basic(int type, String name) {
        return new Made(type, type == NULL_TYPE ? Layout.EMPTY : Layout.ONE, false, name);
    }

    static Datatype marker(int type, String name) {
        return new Made(type, Layout.EMPTY, false, name);
    }

    static Datatype pair(Datatype of, String name) {
        return new Made(of.baseType, Layout.contiguous(2, of.layout), true, name);
    }

    /** The base type's number ({@link #baseType}). */
    public int getType() {
        return baseType;
    }

    /** Bytes one element of the base type takes on the wire (0 for objects, which have no fixed size). */
    public int getByteSize() {
        return BaseType.bytes(element);
    }

    /** The span of one item, the stride between consecutive items, in buffer elements. */
    public int Extent() throws MPIException {
        return layout.extent;
    }

    /** The number of buffer elements one item carries. */
    public int Size() throws MPIException {
        return layout.size;
    }

    /** The lower bound, in buffer elements. */
    public int Lb() throws MPIException {
        return layout.lb;
    }

    /** The upper bound (lower bound plus extent), in buffer elements. */
    public int Ub() throws MPIException {
        return layout.lb + layout.extent;
    }

    /** Marks the type ready for communication; Cohort accepts uncommitted types too, as MPJ Express does. */
    public void Commit() throws MPIException {
        committed = true;
    }

    /** Nothing to release: a type is garbage once unreferenced. */
    @Override
    public void free() {
    }

    /** As {@link #free()}; MPJ Express declares it public. */
    @Override
    @SuppressWarnings({"deprecation", "removal"})
    public void finalize() throws MPIException {
    }

    boolean isCommitted() {
        return committed;
    }

    @Override
    public String toString() {
        return name != null ? name : "Datatype[" + BaseType.name(element) + ", size " + layout.size + ", extent "
                + layout.extent + "]";
    }

    // ---- constructors --------------------------------------------------------------------------

    /** {@code count} items of {@code oldtype}, one after another. */
    public static Datatype Contiguous(int count, Datatype oldtype) throws MPIException {
        checkOld(oldtype, "Datatype.Contiguous");
        checkCount(count, "Datatype.Contiguous count");
        return derived(oldtype, Layout.contiguous(count, oldtype.layout));
    }

    /**
     * {@code count} blocks of {@code blocklength} items of {@code oldtype}, the blocks
     * {@code stride} extents of {@code oldtype} apart.
     */
    public static Datatype Vector(int count, int blocklength, int stride, Datatype oldtype) throws MPIException {
        checkOld(oldtype, "Datatype.Vector");
        checkCount(count, "Datatype.Vector count");
        checkCount(blocklength, "Datatype.Vector block length");
        return derived(oldtype, Layout.strided(count, blocklength, stride * oldtype.layout.extent, oldtype.layout));
    }

    /** As {@link #Vector}, with the stride in buffer elements. */
    public static Datatype Hvector(int count, int blocklength, int stride, Datatype oldtype) throws MPIException {
        checkOld(oldtype, "Datatype.Hvector");
        checkCount(count, "Datatype.Hvector count");
        checkCount(blocklength, "Datatype.Hvector block length");
        return derived(oldtype, Layout.strided(count, blocklength, stride, oldtype.layout));
    }

    /** Blocks of {@code blocklengths[i]} items of {@code oldtype} at {@code displacements[i]} extents of it. */
    public static Datatype Indexed(int[] blocklengths, int[] displacements, Datatype oldtype) throws MPIException {
        checkOld(oldtype, "Datatype.Indexed");
        checkBlocks(blocklengths, displacements, "Datatype.Indexed");
        int[] d = new int[displacements.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = displacements[i] * oldtype.layout.extent;
        }
        return derived(oldtype, Layout.indexed(blocklengths, d, oldtype.layout));
    }

    /** As {@link #Indexed}, with displacements in buffer elements. */
    public static Datatype Hindexed(int[] blocklengths, int[] displacements, Datatype oldtype) throws MPIException {
        checkOld(oldtype, "Datatype.Hindexed");
        checkBlocks(blocklengths, displacements, "Datatype.Hindexed");
        return derived(oldtype, Layout.indexed(blocklengths, displacements, oldtype.layout));
    }

    /**
     * Block i holds {@code blocklengths[i]} items of {@code types[i]} at {@code displacements[i]}
     * buffer elements. The types must share one base type (they describe one array), apart from
     * the markers {@link MPI#LB} and {@link MPI#UB}, which set the lower and upper bound at their
     * displacement.
     */
    public static Datatype Struct(int[] blocklengths, int[] displacements, Datatype[] types) throws MPIException {
        if (types == null) {
            throw Errors.error("Datatype.Struct needs an array of types, not null");
        }
        checkBlocks(blocklengths, displacements, "Datatype.Struct");
        if (types.length != blocklengths.length) {
            throw Errors.error("Datatype.Struct needs as many types as block lengths (" + types.length + " types, "
                    + blocklengths.length + " block lengths)");
        }
        Datatype base = null;
        Layout.Builder b = new Layout.Builder();
        int lo = Integer.MAX_VALUE;
        int hi = Integer.MIN_VALUE;
        int markLb = Integer.MAX_VALUE;
        int markUb = Integer.MIN_VALUE;
        for (int i = 0; i < types.length; i++) {
            Datatype t = types[i];
            if (t == null) {
                throw Errors.error("Datatype.Struct: type " + i + " is null");
            }
            if (t.baseType == LB_TYPE) {
                markLb = Math.min(markLb, displacements[i]);
                continue;
            }
            if (t.baseType == UB_TYPE) {
                markUb = Math.max(markUb, displacements[i]);
                continue;
            }
            checkOld(t, "Datatype.Struct");
            if (base == null) {
                base = t;
            } else if (t.element != base.element) {
                throw Errors.error("Datatype.Struct: type " + i + " (" + t + ") is made of " + BaseType.name(t.element)
                        + " elements but type 0 of " + BaseType.name(base.element) + "; in mpiJava a struct describes"
                        + " one array, so its types share one base type");
            }
            for (int j = 0; j < blocklengths[i]; j++) {
                b.add(t.layout, displacements[i] + j * t.layout.extent);
            }
            if (blocklengths[i] > 0) {
                lo = Math.min(lo, displacements[i] + t.layout.lb);
                hi = Math.max(hi, displacements[i] + t.layout.lb + blocklengths[i] * t.layout.extent);
            }
        }
        if (lo == Integer.MAX_VALUE) {
            lo = 0;
            hi = 0;
        }
        if (markLb != Integer.MAX_VALUE) {
            lo = markLb;
        }
        if (markUb != Integer.MIN_VALUE) {
            hi = markUb;
        }
        if (base == null) {
            base = MPI.BYTE;
        }
        return new Made(base.baseType, b.build(lo, Math.max(0, hi - lo)), false, null);
    }

    // ---- helpers -------------------------------------------------------------------------------

    private static Datatype derived(Datatype old, Layout l) {
        return new Made(old.baseType, l, false, null);
    }

    private static void checkOld(Datatype t, String what) {
        if (t == null || t.baseType == NULL_TYPE) {
            throw Errors.error(what + " needs an old type, not " + (t == null ? "null" : t));
        }
        if (t.baseType == LB_TYPE || t.baseType == UB_TYPE) {
            throw Errors.error(what + ": " + t + " is a marker for Datatype.Struct only");
        }
    }

    private static void checkCount(int n, String what) {
        if (n < 0) {
            throw Errors.error(what + " is negative: " + n);
        }
    }

    private static void checkBlocks(int[] blocklengths, int[] displacements, String what) {
        if (blocklengths == null || displacements == null || blocklengths.length != displacements.length) {
            throw Errors.error(what + " needs as many displacements as block lengths");
        }
        for (int n : blocklengths) {
            checkCount(n, what + " block length");
        }
    }

    /** The one concrete kind of datatype: a layout over a base type. */
    static final class Made extends Datatype {
        Made(int baseType, Layout layout, boolean pair, String name) {
            super(baseType, layout, pair, name);
        }
    }
}
