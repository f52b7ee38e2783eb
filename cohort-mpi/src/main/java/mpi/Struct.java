package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A struct layout over a byte buffer, for struct datatypes: a subclass adds its fields in its
 * constructor ({@code addInt()}, {@code addDouble(3)}, ...; each returns the field's byte offset),
 * implements {@link #newData()}, and reads and writes items through its {@link Data} subclass.
 * {@link #getType()} is the matching datatype (over {@link MPI#BYTE}), made and committed on
 * first use; {@link #getExtent()} is an item's size in bytes. Items are in the platform's byte order.
 */
public abstract class Struct {
    private record Field(Object type, int offset, int length) {
    }

    private final List<Field> fields = new ArrayList<>();
    private int extent;
    private Datatype datatype;

    protected Struct() {
    }

    /** The pair structs of MINLOC and MAXLOC, whose datatype is predefined. */
    Struct(Datatype predefined, int extent) {
        this.datatype = predefined;
        this.extent = extent;
    }

    private synchronized void commit() throws MPIException {
        if (datatype == null) {
            int n = fields.size();
            int[] lengths = new int[n];
            int[] offsets = new int[n];
            Datatype[] types = new Datatype[n];
            for (int i = 0; i < n; i++) {
                Field f = fields.get(i);
                types[i] = f.type() instanceof Struct s ? s.getType() : (Datatype) f.type();
                offsets[i] = f.offset();
                lengths[i] = f.length();
            }
            Datatype d = Datatype.createStruct(lengths, offsets, types);
            datatype = extent == d.extent ? d : Datatype.createResized(d, 0, extent);
            datatype.commit();
        }
    }

    /** An item's size in bytes. */
    public final int getExtent() throws MPIException {
        commit();
        return extent;
    }

    /** The struct's datatype, committed. */
    public final Datatype getType() throws MPIException {
        commit();
        return datatype;
    }

    /** A new accessor object of this struct's {@link Data} subclass. */
    protected abstract Data newData();

    @SuppressWarnings("unchecked")
    private <T extends Data> T data(ByteBuffer buffer, int offset) {
        Data d = newData();
        d.buffer = buffer.duplicate().order(ByteOrder.nativeOrder());
        d.offset = offset;
        return (T) d;
    }

    /** The accessor of the first item in {@code buffer}. */
    public final <T extends Data> T getData(ByteBuffer buffer) throws MPIException {
        commit();
        return data(buffer, 0);
    }

    /** The accessor of item {@code index} in {@code buffer}. */
    public final <T extends Data> T getData(ByteBuffer buffer, int index) throws MPIException {
        commit();
        return data(buffer, index * extent);
    }

    public final <T extends Data> T getData(byte[] array) throws MPIException {
        return getData(ByteBuffer.wrap(array));
    }

    public final <T extends Data> T getData(byte[] array, int index) throws MPIException {
        return getData(ByteBuffer.wrap(array), index);
    }

    private int addField(Object type, int typeExtent, int length) {
        if (datatype != null) {
            throw new IllegalStateException("the struct's datatype was already made; add fields in the constructor");
        }
        int offset = extent;
        extent += typeExtent * length;
        fields.add(new Field(type, offset, length));
        return offset;
    }

    /** Puts the next field at byte {@code offset} (at or after the fields so far), for alignment. */
    public final Struct setOffset(int offset) {
        if (offset < extent) {
            throw new IllegalArgumentException("offset " + offset + " is before the end of the fields so far (" + extent + ")");
        }
        extent = offset;
        return this;
    }

    public final int addByte() {
        return addByte(1);
    }

    public final int addByte(int length) {
        return addField(MPI.BYTE, 1, length);
    }

    public final int addChar() {
        return addChar(1);
    }

    public final int addChar(int length) {
        return addField(MPI.CHAR, 2, length);
    }

    public final int addShort() {
        return addShort(1);
    }

    public final int addShort(int length) {
        return addField(MPI.SHORT, 2, length);
    }

    public final int addBoolean() {
        return addBoolean(1);
    }

    public final int addBoolean(int length) {
        return addField(MPI.BOOLEAN, 1, length);
    }

    public final int addInt() {
        return addInt(1);
    }

    public final int addInt(int length) {
        return addField(MPI.INT, 4, length);
    }

    public final int addLong() {
        return addLong(1);
    }

    public final int addLong(int length) {
        return addField(MPI.LONG, 8, length);
    }

    public final int addFloat() {
        return addFloat(1);
    }

    public final int addFloat(int length) {
        return addField(MPI.FLOAT, 4, length);
    }

    public final int addDouble() {
        return addDouble(1);
    }

    public final int addDouble(int length) {
        return addField(MPI.DOUBLE, 8, length);
    }

    public final int addStruct(Struct struct) throws MPIException {
        return addStruct(struct, 1);
    }

    public final int addStruct(Struct struct, int length) throws MPIException {
        return addField(struct, struct.getExtent(), length);
    }

    public final int addData(Datatype type) throws MPIException {
        return addData(type, 1);
    }

    public final int addData(Datatype type, int length) throws MPIException {
        return addField(type, type.extent * type.baseSize, length);
    }

    /** Reads and writes the fields of one item; a struct's subclass adds named accessors. */
    public abstract class Data {
        private ByteBuffer buffer;
        private int offset;

        /** The constructor Java would declare, for the subclasses that {@link Struct#newData()} makes. */
        public Data() {
        }

        /** The buffer from this item on, for send and receive calls. */
        public final ByteBuffer getBuffer() {
            return offset == 0 ? buffer : MPI.slice(buffer.duplicate(), offset);
        }

        protected final byte getByte(int field) {
            return buffer.get(offset + field);
        }

        protected final byte getByte(int field, int index) {
            return buffer.get(offset + field + index);
        }

        protected final void putByte(int field, byte v) {
            buffer.put(offset + field, v);
        }

        protected final void putByte(int field, int index, byte v) {
            buffer.put(offset + field + index, v);
        }

        protected final boolean getBoolean(int field) {
            return buffer.get(offset + field) != 0;
        }

        protected final boolean getBoolean(int field, int index) {
            return buffer.get(offset + field + index) != 0;
        }

        protected final void putBoolean(int field, boolean v) {
            buffer.put(offset + field, (byte) (v ? 1 : 0));
        }

        protected final void putBoolean(int field, int index, boolean v) {
            buffer.put(offset + field + index, (byte) (v ? 1 : 0));
        }

        protected final char getChar(int field) {
            return buffer.getChar(offset + field);
        }

        protected final char getChar(int field, int index) {
            return buffer.getChar(offset + field + index * 2);
        }

        protected final void putChar(int field, char v) {
            buffer.putChar(offset + field, v);
        }

        protected final void putChar(int field, int index, char v) {
            buffer.putChar(offset + field + index * 2, v);
        }

        protected final short getShort(int field) {
            return buffer.getShort(offset + field);
        }

        protected final short getShort(int field, int index) {
            return buffer.getShort(offset + field + index * 2);
        }

        protected final void putShort(int field, short v) {
            buffer.putShort(offset + field, v);
        }

        protected final void putShort(int field, int index, short v) {
            buffer.putShort(offset + field + index * 2, v);
        }

        protected final int getInt(int field) {
            return buffer.getInt(offset + field);
        }

        protected final int getInt(int field, int index) {
            return buffer.getInt(offset + field + index * 4);
        }

        protected final void putInt(int field, int v) {
            buffer.putInt(offset + field, v);
        }

        protected final void putInt(int field, int index, int v) {
            buffer.putInt(offset + field + index * 4, v);
        }

        protected final long getLong(int field) {
            return buffer.getLong(offset + field);
        }

        protected final long getLong(int field, int index) {
            return buffer.getLong(offset + field + index * 8);
        }

        protected final void putLong(int field, long v) {
            buffer.putLong(offset + field, v);
        }

        protected final void putLong(int field, int index, long v) {
            buffer.putLong(offset + field + index * 8, v);
        }

        protected final float getFloat(int field) {
            return buffer.getFloat(offset + field);
        }

        protected final float getFloat(int field, int index) {
            return buffer.getFloat(offset + field + index * 4);
        }

        protected final void putFloat(int field, float v) {
            buffer.putFloat(offset + field, v);
        }

        protected final void putFloat(int field, int index, float v) {
            buffer.putFloat(offset + field + index * 4, v);
        }

        protected final double getDouble(int field) {
            return buffer.getDouble(offset + field);
        }

        protected final double getDouble(int field, int index) {
            return buffer.getDouble(offset + field + index * 8);
        }

        protected final void putDouble(int field, double v) {
            buffer.putDouble(offset + field, v);
        }

        protected final void putDouble(int field, int index, double v) {
            buffer.putDouble(offset + field + index * 8, v);
        }
    }
}
