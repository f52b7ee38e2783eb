package mpi;

import io.cohort.mpi.support.BaseType;

/**
 * What a receive, probe, wait or test found: the public fields {@link #source}, {@link #tag} and
 * {@link #index} (the request's position for Waitany, Testany, Waitall, Waitsome ...), as in MPJ
 * Express, and the message's size through {@link #Get_count} and {@link #Get_elements}.
 *
 * <p>Not thread-safe; a status belongs to the call that returned it.
 */
public class Status implements Freeable {
    /** The sender's rank in the communicator. */
    public int source;
    /** The message's tag. */
    public int tag;
    /** The request's position in the array a Wait or Test family call was given; -1 otherwise. */
    public int index;
    /** The message's bytes on the wire (objects: of their serialized form). */
    int bytes;
    /** Objects in a message of MPI.OBJECT items, or -1 where unknown (a probe). */
    int objects = -1;
    /** Whether Request.Cancel withdrew the receive before a message matched it. */
    boolean cancelled;

    /** An empty status. */
    public Status() {
        this(MPI.ANY_SOURCE, MPI.ANY_TAG, -1);
    }

    Status(int source, int tag, int index) {
        this.source = source;
        this.tag = tag;
        this.index = index;
    }

    Status(int source, int tag, int bytes, int objects) {
        this(source, tag, -1);
        this.bytes = bytes;
        this.objects = objects;
    }

    Status withIndex(int i) {
        index = i;
        return this;
    }

    /**
     * The number of items of {@code datatype} the message held, or {@link MPI#UNDEFINED} if it is
     * not a whole number of them (or, for a probed message of objects, not known before it is
     * received).
     */
    public int Get_count(Datatype datatype) throws MPIException {
        int elements = Get_elements(datatype);
        int size = datatype.layout.size;
        if (elements == MPI.UNDEFINED) {
            return MPI.UNDEFINED;
        }
        if (size == 0) {
            return elements == 0 ? 0 : MPI.UNDEFINED;
        }
        return elements % size == 0 ? elements / size : MPI.UNDEFINED;
    }

    /** The number of base elements the message held (objects for {@link MPI#OBJECT}). */
    public int Get_elements(Datatype datatype) throws MPIException {
        if (datatype == null) {
            throw Errors.error("Status.Get_count needs a datatype, not null");
        }
        if (datatype.element == BaseType.OBJECT) {
            return objects >= 0 ? objects : MPI.UNDEFINED;
        }
        int b = BaseType.bytes(datatype.element);
        if (b == 0) {
            return MPI.UNDEFINED;
        }
        return bytes % b == 0 ? bytes / b : MPI.UNDEFINED;
    }

    /** Whether Request.Cancel withdrew the receive before a message matched it. */
    public boolean Test_cancelled() throws MPIException {
        return cancelled;
    }

    @Override
    public void free() {
    }

    @Override
    public String toString() {
        return "Status[source " + source + ", tag " + tag + ", index " + index + ", " + bytes + " bytes]";
    }
}
