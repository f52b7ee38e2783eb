package mpi;

import io.cohort.mpi.support.buffers.ElementView;

import java.nio.ByteBuffer;

/**
 * A reduction operation: one of the predefined {@code MPI.SUM} ... {@code MPI.MAXLOC}, or a user
 * function made with {@link #Op(UserFunction, boolean)}. Predefined ops run Cohort's own loops
 * ({@code io.cohort.Op}); MINLOC and MAXLOC take the pair types ({@link MPI#INT2},
 * {@link MPI#DOUBLE_INT}, ...).
 *
 * <p>Immutable; any thread. A user function runs on the thread that runs the collective.
 */
public final class Op implements Freeable {
    /** The Cohort op of a predefined op; null for a user op. */
    final io.cohort.Op predefined;
    private final UserFunction function;
    private final boolean commute;
    private final boolean buffers;
    private volatile boolean freed;
    /** A bit per base type this predefined op was found to apply to: checked once, not on every reduction. */
    private volatile int appliesTo;

    Op(io.cohort.Op predefined) {
        this.predefined = predefined;
        this.function = null;
        this.commute = true;
        this.buffers = false;
    }

    /**
     * A user-defined op.
     *
     * @param function what combines two vectors
     * @param commute  whether the op is commutative (collectives may then combine in any order;
     *                 otherwise they combine in rank order)
     */
    public Op(UserFunction function, boolean commute) {
        this.predefined = null;
        this.function = function;
        this.commute = commute;
        this.buffers = function != null && function.wantsBuffers();
    }

    /** Whether a user op has its function: {@code new Op(null, ...)} compiles but cannot combine anything. */
    boolean hasFunction() {
        return function != null;
    }

    public boolean isCommutative() {
        return commute;
    }

    @Override
    public void free() throws MPIException {
        MPI.check();
        if (predefined == null) {
            freed = true;
        }
    }

    public boolean isNull() {
        return freed;
    }

    boolean knownToApply(int baseType) {
        return (appliesTo & (1 << baseType)) != 0;
    }

    /** Racy but monotonic: a lost update only means one more check. */
    void appliesTo(int baseType) {
        appliesTo |= 1 << baseType;
    }

    boolean isMinMaxLoc() {
        return predefined == io.cohort.Op.MINLOC || predefined == io.cohort.Op.MAXLOC;
    }

    /** The Cohort op for reducing carriers of {@code t}. */
    io.cohort.Op toCohort(Datatype t) {
        if (predefined != null) {
            return predefined;
        }
        int unit = Math.max(1, t.size);
        return io.cohort.Op.create("user op", commute, unit, (in, inout, n) -> {
            int items = n / unit;
            try {
                if (buffers && !(in instanceof boolean[])) {
                    ByteBuffer a = UserFunction.bytesOf(in, t, n);
                    ByteBuffer b = UserFunction.bytesOf(inout, t, n);
                    function.call(a, b, items, t);
                    new ElementView(b, t.baseType).toArray(0, n, inout, 0);
                } else {
                    function.call(in, inout, items, t);
                }
            } catch (MPIException e) {
                throw new Errors.MPIError(e);
            }
        });
    }

    @Override
    public String toString() {
        return predefined != null ? "MPI." + predefined.name() : "user Op";
    }
}
