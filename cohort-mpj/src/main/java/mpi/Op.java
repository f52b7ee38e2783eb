package mpi;

import io.cohort.mpi.support.BaseType;

/**
 * A reduction operation: one of the predefined {@code MPI.SUM} ... {@code MPI.MINLOC}, run by
 * Cohort's own loops ({@code io.cohort.Op}), or a {@link User_function}. MINLOC and MAXLOC take
 * the pair types {@link MPI#INT2} ... {@link MPI#DOUBLE2}: (value, index) pairs in an array of the
 * value's type.
 *
 * <p>Immutable; any thread. A user function runs on the thread that runs the collective.
 */
public class Op {
    /** An op's number, as MPJ Express keeps it; Cohort does not read it. */
    public int opCode;
    /** The Cohort op of a predefined op; null for a user op. */
    final io.cohort.Op predefined;
    private final User_function function;
    private final boolean commute;
    private final String name;
    /** Element types (bits) a predefined op other than MINLOC and MAXLOC was found to apply to. */
    private int appliesTo;

    /** A predefined op. */
    static Op predefined(io.cohort.Op op, String name) {
        return new Op(name, op);
    }

    /**
     * The predefined ops' constructor. Its parameters name no Cohort type on purpose: javac looks at
     * every constructor of the same arity while it resolves a program's {@code new Op(function,
     * commute)}, and programs compile against cohort-mpj.jar alone, without cohort-core.jar.
     */
    private Op(String name, Object predefined) {
        this.predefined = (io.cohort.Op) predefined;
        this.function = null;
        this.commute = true;
        this.name = name;
    }

    /**
     * A user-defined op.
     *
     * @param function what combines two vectors
     * @param commute  whether it is commutative (collectives may then combine in any order;
     *                 otherwise in rank order)
     */
    public Op(User_function function, boolean commute) throws MPIException {
        this(function, commute, 0);
    }

    /** As {@link #Op(User_function, boolean)}, keeping MPJ Express's op number. */
    public Op(User_function function, boolean commute, int opCode) throws MPIException {
        if (function == null) {
            throw Errors.error("new Op needs a User_function, not null");
        }
        this.predefined = null;
        this.function = function;
        this.commute = commute;
        this.opCode = opCode;
        this.name = "user Op";
    }

    /** Nothing to release. */
    public void free() throws MPIException {
    }

    /** Nothing to release. */
    @Override
    @SuppressWarnings({"deprecation", "removal"})
    public void finalize() throws MPIException {
    }

    boolean isLoc() {
        return predefined == io.cohort.Op.MINLOC || predefined == io.cohort.Op.MAXLOC;
    }

    /**
     * The Cohort op for reducing packed carriers of {@code count} items of {@code t}, checked
     * against the type before anything is sent.
     */
    io.cohort.Op toCohort(Datatype t, int count, String what) {
        if (predefined != null && (appliesTo & (1 << t.element)) != 0) {
            return predefined; // checked on this element type before; the check depends on nothing else
        }
        return checkedOp(t, count, what);
    }

    private io.cohort.Op checkedOp(Datatype t, int count, String what) {
        if (predefined == null) {
            int unit = Math.max(1, t.layout.size);
            if (t.element == BaseType.OBJECT) {
                return io.cohort.Op.create(name, commute, unit, (in, inout, n) -> {
                    // mpiJava's object ops update inout's objects in place; Cohort's collectives copy
                    // Object[] by reference, so the object may also be another buffer's (scan's
                    // partial and result). Give the function fresh copies to change.
                    Object[] io = (Object[]) inout;
                    for (int i = 0; i < n; i++) {
                        io[i] = copy(io[i]);
                    }
                    function.Call(in, 0, inout, 0, n / unit, t);
                });
            }
            return io.cohort.Op.create(name, commute, unit,
                    (in, inout, n) -> function.Call(in, 0, inout, 0, n / unit, t));
        }
        if (isLoc() && !t.pair) {
            throw Errors.error(what + ": " + name + " takes a pair type (MPI.SHORT2, MPI.INT2, MPI.LONG2, MPI.FLOAT2"
                    + " or MPI.DOUBLE2), not " + t);
        }
        if (t.element == BaseType.OBJECT) {
            throw Errors.error(what + ": " + name + " does not apply to MPI.OBJECT; reduce objects with a User_function");
        }
        try {
            predefined.check(BaseType.empty(t.element), count * t.layout.size);
        } catch (IllegalArgumentException e) {
            throw Errors.error(what + ": " + name + " does not apply to " + t + " (" + e.getMessage() + ")");
        }
        if (!isLoc()) {
            appliesTo |= 1 << t.element; // racy but monotonic: a lost update only means one more check
        }
        return predefined;
    }

    /** A deep copy by serialization (objects travel that way anyway). */
    private static Object copy(Object o) {
        if (o == null) {
            return null;
        }
        byte[] b = io.cohort.ObjectBytes.of(o);
        return io.cohort.ObjectBytes.read(b, "the copy of a " + o.getClass().getName());
    }

    @Override
    public String toString() {
        return name;
    }
}
