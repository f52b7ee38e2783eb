package io.cohort.stacks;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The wire form of one peer's stacks (the body block of a {@code STACKS} frame) and of one rank of
 * the controller's answer (the body of a {@code STACKS_RANK} frame). Big-endian; a {@code str} is an
 * int32 length and that many bytes of UTF-8, as everywhere in the control protocol; an empty string
 * stands for "none" (no lock, no owner, no file).
 *
 * <pre>
 *  peer stacks, version 1:
 *  +--------+---------------+---------------+------------------+
 *  | ver u8 | threads int32 | omitted int32 | threads × thread |
 *  +--------+---------------+---------------+------------------+
 *  thread: name str | id int64 | daemon u8 | state u8 (Thread.State ordinal) | lockName str | lockOwner str
 *          | frames int32 | frames × (class str | method str | file str | line int32: -2 native, -1 unknown)
 *          frames innermost first
 *  then, after the last thread (absent in stacks from before collectives were named):
 *          calls int32 | calls × (thread index int32, of the threads above | operation str | communicator int32
 *          | members str | sequence int64 | root int32 | count int64 | type str | op str)
 *  then (absent in stacks from before waits were named):
 *          waits int32 | waits × (thread index int32 | operation str | peer int32 | context int32 | tag int32)
 *
 *  rank:   rank int32 | answer u8 (RankStacks.Answer ordinal) | detail str | host str | pid int64
 *          | stacks: int32 length + peer stacks (length 0 when the rank did not answer)
 * </pre>
 *
 * Decoding checks every count and length against the bytes left, so a malformed body is an
 * {@link IOException}, never a huge allocation or a runtime exception. As every control frame, both
 * only grow at their end: a reader ignores bytes after the fields it knows; a change inside a
 * thread's record takes a new version.
 */
public final class StacksCodec {
    public static final int VERSION = 1;
    private static final int HEADER_BYTES = 1 + 4 + 4;
    private static final Thread.State[] STATES = Thread.State.values();
    private static final RankStacks.Answer[] ANSWERS = RankStacks.Answer.values();

    private StacksCodec() {
    }

    public static byte[] encode(PeerStacks stacks) {
        return encode(stacks.threads(), stacks.omittedThreads(), Integer.MAX_VALUE);
    }

    /**
     * Encodes as many of {@code threads} as fit into {@code maxBytes}, in their order: a thread that
     * does not fit (a deep recursion, say) is counted as omitted and the next ones are still tried.
     */
    public static byte[] encode(List<ThreadStack> threads, int alreadyOmitted, int maxBytes) {
        ByteArrayOutputStream body = new ByteArrayOutputStream(4096);
        ByteArrayOutputStream one = new ByteArrayOutputStream(1024);
        DataOutputStream out = new DataOutputStream(one);
        ByteArrayOutputStream calls = new ByteArrayOutputStream();
        DataOutputStream callsOut = new DataOutputStream(calls);
        ByteArrayOutputStream waits = new ByteArrayOutputStream();
        DataOutputStream waitsOut = new DataOutputStream(waits);
        int kept = 0;
        int omitted = alreadyOmitted;
        int callCount = 0;
        int waitCount = 0;
        try {
            for (ThreadStack t : threads) {
                one.reset();
                writeThread(out, t);
                out.flush();
                int extraBytes = (t.call() == null ? 0 : callBytes(t.call())) + (t.peerWait() == null ? 0 : waitBytes(t.peerWait()));
                if ((long) HEADER_BYTES + body.size() + one.size() + 4 + calls.size() + 4 + waits.size() + extraBytes
                        > maxBytes) {
                    omitted++;
                    continue;
                }
                one.writeTo(body);
                if (t.call() != null) {
                    callsOut.writeInt(kept);
                    writeCall(callsOut, t.call());
                    callCount++;
                }
                if (t.peerWait() != null) {
                    waitsOut.writeInt(kept);
                    writeString(waitsOut, t.peerWait().operation());
                    waitsOut.writeInt(t.peerWait().peer());
                    waitsOut.writeInt(t.peerWait().context());
                    waitsOut.writeInt(t.peerWait().tag());
                    waitCount++;
                }
                kept++;
            }
            callsOut.flush();
            waitsOut.flush();
            ByteArrayOutputStream all = new ByteArrayOutputStream(HEADER_BYTES + body.size() + 4 + calls.size() + 4
                    + waits.size());
            DataOutputStream h = new DataOutputStream(all);
            h.writeByte(VERSION);
            h.writeInt(kept);
            h.writeInt(omitted);
            h.flush();
            body.writeTo(all);
            h.writeInt(callCount);
            h.flush();
            calls.writeTo(all);
            h.writeInt(waitCount);
            h.flush();
            waits.writeTo(all);
            return all.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in-memory streams do not fail
        }
    }

    private static void writeThread(DataOutputStream out, ThreadStack t) throws IOException {
        writeString(out, t.name());
        out.writeLong(t.id());
        out.writeByte(t.daemon() ? 1 : 0);
        out.writeByte(t.state().ordinal());
        writeString(out, t.lockName());
        writeString(out, t.lockOwner());
        out.writeInt(t.frames().size());
        for (StackTraceElement f : t.frames()) {
            writeString(out, f.getClassName());
            writeString(out, f.getMethodName());
            writeString(out, f.getFileName());
            out.writeInt(f.getLineNumber());
        }
    }

    private static void writeCall(DataOutputStream out, CollectiveCall c) throws IOException {
        writeString(out, c.operation());
        out.writeInt(c.communicator());
        writeString(out, c.members());
        out.writeLong(c.sequence());
        out.writeInt(c.root());
        out.writeLong(c.count());
        writeString(out, c.type());
        writeString(out, c.op());
    }

    /** The bytes one thread's call takes in the calls block, its thread index included. */
    private static int callBytes(CollectiveCall c) {
        return 4 + utf8(c.operation()) + 4 + utf8(c.members()) + 8 + 4 + 8 + utf8(c.type()) + utf8(c.op());
    }

    /** The bytes one thread's wait takes in the waits block, its thread index included. */
    private static int waitBytes(PeerWait w) {
        return 4 + utf8(w.operation()) + 4 + 4 + 4;
    }

    private static int utf8(String s) {
        return 4 + s.getBytes(StandardCharsets.UTF_8).length;
    }

    public static PeerStacks decode(byte[] bytes) throws IOException {
        return decode(ByteBuffer.wrap(bytes));
    }

    private static PeerStacks decode(ByteBuffer in) throws IOException {
        try {
            int version = in.get() & 0xFF;
            if (version != VERSION) {
                throw new IOException("stacks of version " + version + ", expected " + VERSION);
            }
            int count = count(in, 4 + 8 + 1 + 1 + 4 + 4 + 4);
            int omitted = in.getInt();
            if (omitted < 0) {
                throw new IOException("malformed stacks (" + omitted + " omitted threads)");
            }
            List<ThreadStack> threads = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                String name = readString(in);
                long id = in.getLong();
                boolean daemon = in.get() != 0;
                int state = in.get() & 0xFF;
                if (state >= STATES.length) {
                    throw new IOException("malformed stacks (thread state " + state + ")");
                }
                String lockName = emptyToNull(readString(in));
                String lockOwner = emptyToNull(readString(in));
                int frames = count(in, 4 + 4 + 4 + 4);
                List<StackTraceElement> f = new ArrayList<>(frames);
                for (int j = 0; j < frames; j++) {
                    String cls = readString(in);
                    String method = readString(in);
                    String file = emptyToNull(readString(in));
                    f.add(ThreadStack.frame(cls, method, file, in.getInt()));
                }
                threads.add(new ThreadStack(name, id, daemon, STATES[state], lockName, lockOwner, f));
            }
            if (in.remaining() >= 4) {
                int calls = count(in, 4 + 4 + 4 + 4 + 8 + 4 + 8 + 4 + 4);
                for (int i = 0; i < calls; i++) {
                    int index = in.getInt();
                    if (index < 0 || index >= threads.size()) {
                        throw new IOException("malformed stacks (a call of thread " + index + " of " + threads.size() + ")");
                    }
                    CollectiveCall c = new CollectiveCall(readString(in), in.getInt(), readString(in), in.getLong(), in.getInt(),
                            in.getLong(), readString(in), readString(in));
                    threads.set(index, threads.get(index).withCall(c));
                }
            }
            if (in.remaining() >= 4) {
                int waits = count(in, 4 + 4 + 4 + 4 + 4);
                for (int i = 0; i < waits; i++) {
                    int index = in.getInt();
                    if (index < 0 || index >= threads.size()) {
                        throw new IOException("malformed stacks (a wait of thread " + index + " of " + threads.size() + ")");
                    }
                    PeerWait w = new PeerWait(readString(in), in.getInt(), in.getInt(), in.getInt());
                    threads.set(index, threads.get(index).withWait(w));
                }
            }
            // Bytes after these are a later version's additions: ignored (ControlMessageType).
            return new PeerStacks(threads, omitted);
        } catch (BufferUnderflowException e) {
            throw new IOException("malformed stacks (truncated)", e);
        }
    }

    /** The body of a STACKS_RANK frame. */
    public static byte[] encode(RankStacks r) {
        byte[] stacks = r.hasAnswered() ? encode(r.stacks()) : new byte[0];
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + stacks.length);
        DataOutputStream out = new DataOutputStream(bytes);
        try {
            out.writeInt(r.rank());
            out.writeByte(r.answer().ordinal());
            writeString(out, r.detail());
            writeString(out, r.host());
            out.writeLong(r.pid());
            out.writeInt(stacks.length);
            out.write(stacks);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    public static RankStacks decodeRank(byte[] body) throws IOException {
        ByteBuffer in = ByteBuffer.wrap(body);
        try {
            int rank = in.getInt();
            int answer = in.get() & 0xFF;
            if (answer >= ANSWERS.length) {
                throw new IOException("malformed stacks answer (kind " + answer + ")");
            }
            String detail = readString(in);
            String host = readString(in);
            long pid = in.getLong();
            int length = count(in, 1);
            if (ANSWERS[answer] == RankStacks.Answer.ANSWERED) {
                ByteBuffer block = in.slice(in.position(), length);
                return RankStacks.answered(rank, host, pid, decode(block)); // bytes after the block: ignored
            }
            if (length != 0) {
                throw new IOException("malformed stacks answer (stacks of a rank that did not answer)");
            }
            return RankStacks.silent(rank, host, pid, ANSWERS[answer], detail);
        } catch (BufferUnderflowException e) {
            throw new IOException("malformed stacks answer (truncated)", e);
        }
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] b = s == null ? new byte[0] : s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String readString(ByteBuffer in) throws IOException {
        int n = count(in, 1);
        byte[] b = new byte[n];
        in.get(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    /** A count of items of at least {@code minBytes} each, checked against the bytes left. */
    private static int count(ByteBuffer in, int minBytes) throws IOException {
        int n = in.getInt();
        if (n < 0 || (long) n * minBytes > in.remaining()) {
            throw new IOException("malformed stacks (count " + n + " with " + in.remaining() + " bytes left)");
        }
        return n;
    }

    private static String emptyToNull(String s) {
        return s.isEmpty() ? null : s;
    }
}
