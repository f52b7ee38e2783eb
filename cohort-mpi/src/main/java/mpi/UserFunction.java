package mpi;

import io.cohort.mpi.support.buffers.ElementView;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The function of a user-defined {@link Op}: combine {@code inVec} into {@code inOutVec},
 * element by element, {@code inOutVec[i] = inVec[i] op inOutVec[i]}. Override one of the two
 * forms: the array form sees primitive arrays of the datatype's base type ({@code boolean[]} for
 * booleans, {@code byte[]} for byte types and structs); the buffer form sees byte buffers in the
 * platform's byte order. {@code count} is the number of datatype items, each
 * {@code datatype.getSize()} elements, packed back to back.
 */
public abstract class UserFunction {
    /** The constructor Java would declare, for a program's subclasses. */
    public UserFunction() {
    }

    /** The array form; called with arrays of {@code count * datatype.getSize()} elements. */
    public void call(Object inVec, Object inOutVec, int count, Datatype datatype) throws MPIException {
        throw new UnsupportedOperationException("override UserFunction.call(Object, Object, int, Datatype)"
                + " or call(ByteBuffer, ByteBuffer, int, Datatype)");
    }

    /**
     * The buffer form; by default it turns the buffers into arrays of the base type and calls the
     * array form, then writes the result back into {@code inOut}.
     */
    public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype datatype) throws MPIException {
        int n = count * datatype.size;
        Object a = Buffers.newCarrier(datatype.baseType, n);
        Object b = Buffers.newCarrier(datatype.baseType, n);
        new ElementView(in, datatype.baseType).toArray(0, n, a, 0);
        new ElementView(inOut, datatype.baseType).toArray(0, n, b, 0);
        call(a, b, count, datatype);
        new ElementView(inOut, datatype.baseType).fromArray(b, 0, 0, n);
    }

    /** Whether a subclass overrides the buffer form, which must then be called with buffers. */
    final boolean wantsBuffers() {
        try {
            return getClass().getMethod("call", ByteBuffer.class, ByteBuffer.class, int.class, Datatype.class)
                    .getDeclaringClass() != UserFunction.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /** Native-order bytes of a carrier array, for the buffer form. */
    static ByteBuffer bytesOf(Object carrier, Datatype t, int n) {
        ByteBuffer b = ByteBuffer.allocate(n * t.baseSize).order(ByteOrder.nativeOrder());
        new ElementView(b, t.baseType).fromArray(carrier, 0, 0, n);
        return b;
    }
}
