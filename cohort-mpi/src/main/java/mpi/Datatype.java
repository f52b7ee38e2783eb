package mpi;

import io.cohort.mpi.support.BaseType;
import io.cohort.mpi.support.Layout;

/**
 * An MPI datatype: which elements of a buffer one item covers. As in the Open MPI Java bindings,
 * sizes, extents, lower bounds and displacements are counted in <em>buffer elements</em> of the
 * type's base type (ints in an {@code int[]}), except where a method says bytes
 * ({@link #createHVector}, {@link #createHIndexed}, {@link #createStruct}, {@link #createResized}).
 *
 * <p>A type is a type map of runs: (offset, length) pairs of consecutive base elements, relative
 * to the item's start, plus the item's lower bound and extent. Derived types must have one base
 * type, except {@link #createStruct}, whose base type is {@link MPI#BYTE} (a struct item is laid out
 * in bytes; use it with {@code byte[]} or a {@link java.nio.ByteBuffer}, or through {@link Struct}).
 *
 * <p>Immutable once made, apart from commit, name and free; any thread.
 */
public final class Datatype implements Freeable {
    // Base types, numbered as the bindings number them.
    static final int NULL = 0;
    static final int BYTE = 1;
    static final int CHAR = 2;
    static final int SHORT = 3;
    static final int BOOLEAN = 4;
    static final int INT = 5;
    static final int LONG = 6;
    static final int FLOAT = 7;
    static final int DOUBLE = 8;
    static final int PACKED = 9;
    static final int INT2 = 10;
    static final int SHORT_INT = 11;
    static final int LONG_INT = 12;
    static final int FLOAT_INT = 13;
    static final int DOUBLE_INT = 14;
    static final int FLOAT_COMPLEX = 15;
    static final int DOUBLE_COMPLEX = 16;

    /** The base type of buffer elements: BYTE, CHAR, SHORT, BOOLEAN, INT, LONG, FLOAT or DOUBLE. */
    final int baseType;
    /** Bytes per buffer element (1 for BOOLEAN, as it travels). */
    final int baseSize;
    /** For the (value, index) pair types of MINLOC and MAXLOC: INT2 ... DOUBLE_INT; else NULL. */
    final int pair;
    /** The type map, in base elements relative to the item's start; runs do not touch. */
    final int[] runOffset;
    final int[] runLength;
    /** Base elements one item carries. */
    final int size;
    final int lb;
    final int extent;
    final int trueLb;
    final int trueExtent;
    /** The type map as the shared engine reads it (the runs above, with lb and extent). */
    final Layout layout;
    /** One run from 0 covering the whole extent: items lie back to back with no gaps. */
    final boolean contiguous;
    private final boolean predefined;
    /**
     * Basic elements (MPI_GET_ELEMENTS's unit) one item carries: {@link #size} where every base
     * element is one, fewer for types over bytes built of wider elements (structs, the pair types).
     */
    long elements;
    /**
     * Where {@link #elements} differs from {@link #size}: one item's basic elements in order, as
     * (bytes, count) pairs, to count those of a partly received item; null where that list would be
     * longer than {@value #MAX_ELEMENT_RUNS} pairs.
     */
    int[] elementRuns;
    private static final int MAX_ELEMENT_RUNS = 1024;
    private volatile boolean committed;
    private volatile boolean freed;
    private volatile String name;

    private Datatype(int baseType, int pair, int[] runOffset, int[] runLength, int lb, int extent, boolean predefined,
                     String name) {
        this.baseType = baseType;
        this.baseSize = bytesOf(baseType);
        this.pair = pair;
        this.runOffset = runOffset;
        this.runLength = runLength;
        this.layout = new Layout(runOffset, runLength, lb, extent);
        this.size = layout.size;
        this.lb = lb;
        this.extent = extent;
        this.trueLb = layout.trueLb;
        this.trueExtent = layout.trueExtent;
        this.contiguous = layout.contiguous;
        this.predefined = predefined;
        this.committed = predefined;
        this.name = name;
        this.elements = size;
    }

    /** Whether every base element is one basic element (MPI_GET_ELEMENTS counts base elements). */
    boolean homogeneous() {
        return elements == size;
    }

    /** This type's elements: those of {@code repeat} copies of each of {@code parts} in turn. */
    private Datatype elementsOf(Datatype[] parts, int[] repeat) {
        long n = 0;
        int[] runs = new int[16];
        int used = 0;
        boolean listed = true;
        for (int i = 0; i < parts.length; i++) {
            Datatype t = parts[i];
            n += t.elements * repeat[i];
            if (!listed) {
                continue; // the count goes on; the list of runs is given up
            }
            if (t.homogeneous()) {
                // One run of the repeated base elements, however long the block.
                long count = (long) t.size * repeat[i];
                if (count > Integer.MAX_VALUE) {
                    listed = false;
                    continue;
                }
                used = addRun(runs = room(runs, used), used, t.baseSize, (int) count);
            } else if (t.elementRuns == null) {
                listed = false;
            } else {
                for (int k = 0; k < repeat[i] && listed; k++) {
                    for (int j = 0; j < t.elementRuns.length; j += 2) {
                        used = addRun(runs = room(runs, used), used, t.elementRuns[j], t.elementRuns[j + 1]);
                    }
                    listed = used / 2 <= MAX_ELEMENT_RUNS;
                }
            }
            listed &= used / 2 <= MAX_ELEMENT_RUNS;
        }
        elements = n;
        elementRuns = n == size || !listed ? null : java.util.Arrays.copyOf(runs, used);
        return this;
    }

    /** {@code runs} with room for one more (bytes, count) pair after {@code used} ints. */
    private static int[] room(int[] runs, int used) {
        return used + 2 > runs.length ? java.util.Arrays.copyOf(runs, runs.length * 2) : runs;
    }

    /** Appends a run of {@code count} elements of {@code bytes} each, merged with the last if as wide; the new length. */
    private static int addRun(int[] runs, int used, int bytes, int count) {
        if (used >= 2 && runs[used - 2] == bytes && (long) runs[used - 1] + count <= Integer.MAX_VALUE) {
            runs[used - 1] += count;
            return used;
        }
        runs[used] = bytes;
        runs[used + 1] = count;
        return used + 2;
    }

    /**
     * The basic elements in {@code bytes} of a message of this type, or {@link MPI#UNDEFINED} if they
     * do not end on an element's end.
     */
    long elementsIn(long bytes) {
        if (homogeneous()) {
            return bytes % baseSize == 0 ? bytes / baseSize : MPI.UNDEFINED;
        }
        long item = (long) size * baseSize;
        long n = bytes / item * elements;
        long rest = bytes % item;
        if (rest != 0 && elementRuns == null) {
            return MPI.UNDEFINED;
        }
        for (int k = 0; rest > 0 && k < elementRuns.length; k += 2) {
            long take = Math.min(elementRuns[k + 1], rest / elementRuns[k]);
            n += take;
            rest -= take * elementRuns[k];
            if (take < elementRuns[k + 1]) {
                break;
            }
        }
        return rest == 0 ? n : MPI.UNDEFINED;
    }

    /** A predefined type of one base element. */
    static Datatype basic(int baseType, String name) {
        return new Datatype(baseType, NULL, new int[] {0}, new int[] {1}, 0, 1, true, name);
    }

    /** A predefined type of {@code count} consecutive base elements (the complex types), one basic element. */
    static Datatype basicPair(int baseType, int count, String name) {
        Datatype d = new Datatype(baseType, NULL, new int[] {0}, new int[] {count}, 0, count, true, name);
        d.elements = 1; // MPI counts a complex number as one element
        d.elementRuns = new int[] {count * d.baseSize, 1};
        return d;
    }

    /** A (value, index) pair over bytes, laid out as C lays the struct out on a 64-bit machine. */
    static Datatype valueIndex(int pair, int valueBytes, int indexOffset, int extent, String name) {
        Layout.Builder b = new Layout.Builder();
        b.add(0, valueBytes);
        b.add(indexOffset, 4);
        Datatype d = new Datatype(BYTE, pair, b.offsets(), b.lengths(), 0, extent, true, name);
        d.elements = 2;
        d.elementRuns = valueBytes == 4 ? new int[] {4, 2} : new int[] {valueBytes, 1, 4, 1};
        return d;
    }

    static Datatype nullType() {
        return new Datatype(NULL, NULL, new int[0], new int[0], 0, 0, true, "MPI_DATATYPE_NULL");
    }

    static int bytesOf(int baseType) {
        return BaseType.bytes(baseType);
    }

    static String baseName(int baseType) {
        return BaseType.name(baseType);
    }

    // ---- queries ---------------------------------------------------------------------------

    /** The lower bound, in buffer elements. */
    public int getLb() throws MPIException {
        check();
        return lb;
    }

    /** The extent (span of one item, the stride between consecutive items), in buffer elements. */
    public int getExtent() throws MPIException {
        check();
        return extent;
    }

    /** The lower bound of the elements actually carried, in buffer elements. */
    public int getTrueLb() throws MPIException {
        check();
        return trueLb;
    }

    /** The span of the elements actually carried, in buffer elements. */
    public int getTrueExtent() throws MPIException {
        check();
        return trueExtent;
    }

    /** The number of buffer elements one item carries. */
    public int getSize() throws MPIException {
        check();
        return size;
    }

    /** Makes a derived type usable in communication (predefined types always are). */
    public void commit() throws MPIException {
        check();
        committed = true;
    }

    /** Releases a derived type; freeing a predefined type is an error. */
    @Override
    public void free() throws MPIException {
        MPI.check();
        if (predefined) {
            throw Errors.handle(MPI.worldErrhandler(), Errors.error(MPI.ERR_TYPE,
                    "a predefined datatype (" + name + ") cannot be freed"));
        }
        freed = true;
    }

    /** Whether this is {@link MPI#DATATYPE_NULL} or a freed type. */
    public boolean isNull() {
        return baseType == NULL || freed;
    }

    /** A copy of this type (committed if this one is). */
    public Datatype dup() throws MPIException {
        check();
        Datatype d = new Datatype(baseType, pair, runOffset, runLength, lb, extent, false, name);
        d.elements = elements;
        d.elementRuns = elementRuns;
        d.committed = committed;
        return d;
    }

    /** As {@link #dup()}, for callers that cannot take a checked exception. */
    @Override
    public Datatype clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    public void setName(String name) throws MPIException {
        check();
        this.name = name;
    }

    public String getName() throws MPIException {
        check();
        return name == null ? "" : name;
    }

    @Override
    public String toString() {
        return name != null ? name : "Datatype[" + baseName(baseType) + ", size " + size + ", extent " + extent + "]";
    }

    // ---- constructors --------------------------------------------------------------------------

    /** {@code count} copies of {@code oldType}, one after another. */
    public static Datatype createContiguous(int count, Datatype oldType) throws MPIException {
        checkOld(oldType, "createContiguous");
        checkCount(count, "createContiguous count");
        return derived(oldType, Layout.contiguous(count, oldType.layout));
    }

    /**
     * {@code count} blocks of {@code blockLength} copies of {@code oldType}, the blocks
     * {@code stride} old extents apart.
     */
    public static Datatype createVector(int count, int blockLength, int stride, Datatype oldType) throws MPIException {
        checkOld(oldType, "createVector");
        checkCount(count, "createVector count");
        checkCount(blockLength, "createVector block length");
        return strided(count, blockLength, stride * oldType.extent, oldType);
    }

    /** As {@link #createVector}, with the stride between blocks in bytes (a multiple of the base element size). */
    public static Datatype createHVector(int count, int blockLength, int stride, Datatype oldType) throws MPIException {
        checkOld(oldType, "createHVector");
        checkCount(count, "createHVector count");
        checkCount(blockLength, "createHVector block length");
        return strided(count, blockLength, bytesToElements(stride, oldType, "createHVector stride"), oldType);
    }

    private static Datatype strided(int count, int blockLength, int strideElements, Datatype oldType) {
        return derived(oldType, Layout.strided(count, blockLength, strideElements, oldType.layout));
    }

    /** Blocks of {@code blockLengths[i]} copies of {@code oldType} at {@code displacements[i]} old extents. */
    public static Datatype createIndexed(int[] blockLengths, int[] displacements, Datatype oldType) throws MPIException {
        checkOld(oldType, "createIndexed");
        return indexed(blockLengths, scaled(displacements, oldType.extent), oldType, "createIndexed");
    }

    /** As {@link #createIndexed}, with displacements in bytes (multiples of the base element size). */
    public static Datatype createHIndexed(int[] blockLengths, int[] displacements, Datatype oldType) throws MPIException {
        checkOld(oldType, "createHIndexed");
        if (displacements == null) {
            return indexed(blockLengths, null, oldType, "createHIndexed"); // says what is missing
        }
        int[] d = new int[displacements.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = bytesToElements(displacements[i], oldType, "createHIndexed displacement");
        }
        return indexed(blockLengths, d, oldType, "createHIndexed");
    }

    private static Datatype indexed(int[] blockLengths, int[] displs, Datatype oldType, String what) throws MPIException {
        if (blockLengths == null || displs == null || blockLengths.length != displs.length) {
            throw Errors.handle(MPI.worldErrhandler(), Errors.error(MPI.ERR_ARG,
                    what + " needs as many displacements as block lengths"));
        }
        for (int n : blockLengths) {
            checkCount(n, what + " block length");
        }
        return derived(oldType, Layout.indexed(blockLengths, displs, oldType.layout));
    }

    /**
     * The general constructor: block i holds {@code blockLengths[i]} items of {@code types[i]} at
     * byte displacement {@code displacements[i]}. The result's base type is {@link MPI#BYTE}.
     */
    public static Datatype createStruct(int[] blockLengths, int[] displacements, Datatype[] types) throws MPIException {
        MPI.check();
        if (blockLengths == null || displacements == null || types == null || blockLengths.length != displacements.length
                || blockLengths.length != types.length) {
            throw Errors.handle(MPI.worldErrhandler(), Errors.error(MPI.ERR_ARG,
                    "createStruct needs as many displacements and types as block lengths"));
        }
        Layout.Builder b = new Layout.Builder();
        int lo = Integer.MAX_VALUE;
        int hi = Integer.MIN_VALUE;
        for (int i = 0; i < types.length; i++) {
            checkOld(types[i], "createStruct");
            checkCount(blockLengths[i], "createStruct block length");
            Datatype t = types[i];
            int bs = t.baseSize;
            for (int j = 0; j < blockLengths[i]; j++) {
                int at = displacements[i] + j * t.extent * bs;
                for (int r = 0; r < t.runOffset.length; r++) {
                    b.add(at + t.runOffset[r] * bs, t.runLength[r] * bs);
                }
            }
            if (blockLengths[i] > 0) {
                lo = Math.min(lo, displacements[i] + t.lb * bs);
                hi = Math.max(hi, displacements[i] + t.lb * bs + blockLengths[i] * t.extent * bs);
            }
        }
        if (lo == Integer.MAX_VALUE) {
            lo = 0;
            hi = 0;
        }
        return new Datatype(BYTE, NULL, b.offsets(), b.lengths(), lo, hi - lo, false, null).elementsOf(types.clone(), blockLengths.clone());
    }

    /** {@code oldType} with lower bound {@code lb} and extent {@code extent}, both in bytes. */
    public static Datatype createResized(Datatype oldType, int lb, int extent) throws MPIException {
        checkOld(oldType, "createResized");
        int l = bytesToElements(lb, oldType, "createResized lower bound");
        int e = bytesToElements(extent, oldType, "createResized extent");
        if (e < 0) {
            throw Errors.handle(MPI.worldErrhandler(), Errors.error(MPI.ERR_ARG, "createResized extent is negative: " + extent));
        }
        Datatype d = new Datatype(oldType.baseType, oldType.pair, oldType.runOffset, oldType.runLength, l, e, false, null);
        d.elements = oldType.elements;
        d.elementRuns = oldType.elementRuns;
        return d;
    }

    // ---- helpers -------------------------------------------------------------------------------

    private void check() throws MPIException {
        MPI.check();
        if (freed) {
            throw Errors.handle(MPI.worldErrhandler(), Errors.error(MPI.ERR_TYPE, "the datatype was freed"));
        }
    }

    boolean isCommitted() {
        return committed && !freed && baseType != NULL;
    }

    private static void checkOld(Datatype t, String what) throws MPIException {
        MPI.check();
        if (t == null || t.isNull()) {
            throw Errors.handle(MPI.worldErrhandler(), Errors.error(MPI.ERR_TYPE,
                    what + " needs an old type, not " + (t == null ? "null" : t)));
        }
        if (t.baseType == PACKED) {
            throw Errors.handle(MPI.worldErrhandler(), Errors.error(MPI.ERR_TYPE, what + " cannot build on MPI.PACKED"));
        }
    }

    private static void checkCount(int n, String what) throws MPIException {
        if (n < 0) {
            throw Errors.handle(MPI.worldErrhandler(), Errors.error(MPI.ERR_COUNT, what + " is negative: " + n));
        }
    }

    private static int bytesToElements(int bytes, Datatype t, String what) throws MPIException {
        if (bytes % t.baseSize != 0) {
            throw Errors.handle(MPI.worldErrhandler(), Errors.error(MPI.ERR_ARG, what + " of " + bytes
                    + " bytes is not a whole number of " + baseName(t.baseType) + " elements (" + t.baseSize + " bytes)"));
        }
        return bytes / t.baseSize;
    }

    private static int[] scaled(int[] displacements, int by) {
        if (displacements == null) {
            return null;
        }
        int[] d = new int[displacements.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = displacements[i] * by;
        }
        return d;
    }

    private static Datatype derived(Datatype oldType, Layout l) {
        Datatype d = new Datatype(oldType.baseType, oldType.pair, l.offsets(), l.lengths(), l.lb, l.extent, false, null);
        if (!oldType.homogeneous() && oldType.size > 0) {
            d.elementsOf(new Datatype[] {oldType}, new int[] {d.size / oldType.size}); // copies of the old item
        }
        return d;
    }
}
