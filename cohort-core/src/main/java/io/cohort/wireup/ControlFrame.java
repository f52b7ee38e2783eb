package io.cohort.wireup;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One control-protocol message. On the wire (big-endian):
 *
 * <pre>
 *  +-------------------------------+--------+----------------------------+
 *  | length int32 (1 + body bytes) | type u8| body (length - 1 bytes)    |
 *  +-------------------------------+--------+----------------------------+
 * </pre>
 *
 * Frames longer than {@link #MAX_LENGTH} are refused as malformed. The launcher side reads and
 * writes frames on blocking streams ({@link #readFrom}, {@link #writeTo}); the peer side parses
 * them out of a non-blocking channel's bytes ({@link #parse}).
 */
public final class ControlFrame {
    public static final int MAX_LENGTH = 16 * 1024 * 1024;
    /**
     * The longest first frame of a connection (a hello or a stacks query, each well under a kilobyte):
     * before it says who it is, a connection gets no 16 MiB buffer.
     */
    public static final int MAX_FIRST_LENGTH = 64 * 1024;

    private final int type;
    private final byte[] body;

    public ControlFrame(int type, byte[] body) {
        this.type = type;
        this.body = body;
    }

    public int type() {
        return type;
    }

    public byte[] body() {
        return body;
    }

    /** A reader over the body. */
    public BodyReader reader() {
        return new BodyReader(body);
    }

    public static BodyWriter build(int type) {
        return new BodyWriter(type);
    }

    public void writeTo(DataOutputStream out) throws IOException {
        out.writeInt(body.length + 1);
        out.writeByte(type);
        out.write(body);
    }

    public ByteBuffer encode() {
        ByteBuffer b = ByteBuffer.allocate(5 + body.length);
        b.putInt(body.length + 1).put((byte) type).put(body).flip();
        return b;
    }

    /** Blocks for one frame; returns null at a clean end of stream before a frame starts. */
    public static ControlFrame readFrom(DataInputStream in) throws IOException {
        return readFrom(in, MAX_LENGTH);
    }

    /** As {@link #readFrom(DataInputStream)}, refusing a frame longer than {@code maxLength}. */
    public static ControlFrame readFrom(DataInputStream in, int maxLength) throws IOException {
        int length;
        try {
            length = in.readInt();
        } catch (EOFException e) {
            return null;
        }
        if (length < 1 || length > maxLength) {
            throw new IOException("malformed control frame (length " + length + ")");
        }
        int type = in.readUnsignedByte();
        byte[] body = new byte[length - 1];
        in.readFully(body);
        return new ControlFrame(type, body);
    }

    /**
     * Takes one frame from the bytes between position and limit if a whole one is there (the buffer
     * is big-endian); otherwise leaves the buffer as it was and returns null.
     */
    public static ControlFrame parse(ByteBuffer b) throws IOException {
        if (b.remaining() < 4) {
            return null;
        }
        int length = b.getInt(b.position());
        if (length < 1 || length > MAX_LENGTH) {
            throw new IOException("malformed control frame (length " + length + ")");
        }
        if (b.remaining() < 4 + length) {
            return null;
        }
        b.position(b.position() + 4);
        int type = b.get() & 0xFF;
        byte[] body = new byte[length - 1];
        b.get(body);
        return new ControlFrame(type, body);
    }

    @Override
    public String toString() {
        return ControlMessageType.name(type) + "[" + body.length + " bytes]";
    }

    /** Builds a body: big-endian numbers, length-prefixed UTF-8 strings and byte blocks. */
    public static final class BodyWriter {
        private final int type;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        private final DataOutputStream out = new DataOutputStream(bytes);

        BodyWriter(int type) {
            this.type = type;
        }

        public BodyWriter putInt(int v) {
            try {
                out.writeInt(v);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return this;
        }

        public BodyWriter putLong(long v) {
            try {
                out.writeLong(v);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return this;
        }

        public BodyWriter putBoolean(boolean v) {
            return putByte(v ? 1 : 0);
        }

        public BodyWriter putByte(int v) {
            try {
                out.writeByte(v);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return this;
        }

        public BodyWriter putString(String s) {
            return putBytes(s.getBytes(StandardCharsets.UTF_8));
        }

        public BodyWriter putBytes(byte[] b) {
            return putBytes(b, 0, b.length);
        }

        public BodyWriter putBytes(byte[] b, int off, int len) {
            try {
                out.writeInt(len);
                out.write(b, off, len);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return this;
        }

        public ControlFrame frame() {
            return new ControlFrame(type, bytes.toByteArray());
        }
    }

    /** Reads a body written by {@link BodyWriter}; malformed bodies raise {@link IOException}. */
    public static final class BodyReader {
        private final DataInputStream in;
        private final int total;

        BodyReader(byte[] body) {
            this.in = new DataInputStream(new ByteArrayInputStream(body));
            this.total = body.length;
        }

        public int getInt() throws IOException {
            return in.readInt();
        }

        public long getLong() throws IOException {
            return in.readLong();
        }

        public boolean getBoolean() throws IOException {
            return in.readByte() != 0;
        }

        public int getByte() throws IOException {
            return in.readUnsignedByte();
        }

        public String getString() throws IOException {
            return new String(getBytes(), StandardCharsets.UTF_8);
        }

        /**
         * True while bytes are left. Frames grow by appending fields, so a reader asks this before
         * a field that an older sender did not write, and ignores whatever follows the fields it knows.
         */
        public boolean hasMore() throws IOException {
            return in.available() > 0;
        }

        public byte[] getBytes() throws IOException {
            int n = in.readInt();
            if (n < 0 || n > total) {
                throw new IOException("malformed control frame body (block of " + n + " bytes)");
            }
            byte[] b = new byte[n];
            in.readFully(b);
            return b;
        }
    }
}
