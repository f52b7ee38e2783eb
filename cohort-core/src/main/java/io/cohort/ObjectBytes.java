package io.cohort;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;

/**
 * Objects as the bytes {@link Communicator#sendObject} sends, and back through the job's serial
 * filter as {@link Message#asObject()} reads them: for a program that packs objects into buffers
 * of its own (MPI's {@code Pack}, an object datatype), so that what it reads back passes the same
 * filter ({@code cohort run --serial-filter}) as an object received whole.
 *
 * <p>Threads: stateless; any thread.
 */
public final class ObjectBytes {
    private ObjectBytes() {
    }

    /**
     * {@code object} by Java serialization ({@code null} too).
     *
     * @throws IllegalArgumentException if it is not {@link Serializable}
     * @throws CohortException if it cannot be serialized (a field that is not)
     */
    public static byte[] of(Object object) {
        if (object != null && !(object instanceof Serializable)) {
            throw new IllegalArgumentException(object.getClass().getName() + " is not Serializable; implement"
                    + " java.io.Serializable or send its bytes yourself");
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(object);
        } catch (IOException e) {
            throw new CohortException("could not serialize " + object.getClass().getName() + ": " + e.getMessage(), e);
        }
        return bytes.toByteArray();
    }

    /**
     * The object another peer (or this one) serialized into {@code bytes}, decoded through the serial
     * filter; {@code what} names the bytes in an error ("the objects Unpack reads at position 8").
     *
     * @throws ObjectRefusedException if the filter refused it: its class, or a limit (depth, objects,
     *         array length, bytes) named in the message
     * @throws CohortException if the bytes are no object this peer can read
     */
    public static <T> T read(byte[] bytes, String what) {
        return CohortProvider.get().readObject(bytes, what);
    }
}
