package io.cohort.collective;

import io.cohort.CollectiveMismatchException;
import io.cohort.Request;
import io.cohort.stacks.CollectiveCall;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.BufferUnderflowException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code cohort run --check-collectives}: before a collective runs, every rank's call (operation,
 * root, op, element type and count: {@link CollectiveCall#agreesWith}) goes to rank 0, which
 * compares them and tells every rank the verdict. Where they cannot meet, every rank throws the
 * same {@link CollectiveMismatchException} naming the ranks and their calls, before any of the collective's
 * messages is sent, instead of the job hanging or a reduction reading wrong values. Off by default:
 * it costs a linear gather and bcast of a few dozen bytes per collective.
 *
 * <p>Its messages use the two highest phases of the collective's own tags, which no algorithm
 * reaches (the most, Rabenseifner's allreduce, uses 2 + 2 log2 N: 34 at N = 65 536), so they never
 * meet an algorithm's messages, this collective's or another's. All ranks of a communicator must
 * check alike: a rank that does not, or that never calls the collective, leaves the others waiting.
 * Rank 0 receives and sends N - 1 messages per collective, so the cost grows with N.
 */
final class SignatureCheck {
    private static final int UP = Exchange.PHASES - 1;
    private static final int DOWN = Exchange.PHASES - 2;
    private static final byte[] AGREED = new byte[0];

    private SignatureCheck() {
    }

    /**
     * Whether this peer checks: {@link CollectiveMode#CHECK_PROP_NAME}, else
     * {@link CollectiveMode#CHECK_ENV_NAME}; {@code 1} or {@code true} for on, {@code 0},
     * {@code false} or empty for off, anything else refused in one sentence.
     */
    static boolean enabled() {
        String name = CollectiveMode.CHECK_PROP_NAME;
        String v = System.getProperty(name);
        if (v == null) {
            name = CollectiveMode.CHECK_ENV_NAME;
            v = System.getenv(name);
        }
        return parse(name, v);
    }

    static boolean parse(String name, String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "1", "true" -> true;
            case "", "0", "false" -> false;
            default -> throw new io.cohort.BadSettingException("setting " + name + "=" + value + " is neither true (1) nor false (0)");
        };
    }

    /** Compares {@code mine} with every rank's call of this collective; throws where they cannot meet. */
    static void run(Exchange x, CollectiveCall mine) {
        if (x.size == 1) {
            return;
        }
        if (x.rank != 0) {
            Request up = x.send(0, UP, encode(mine));
            byte[] verdict = x.recv(0, DOWN);
            up.await();
            if (verdict.length > 0) {
                throw new CollectiveMismatchException(new String(verdict, StandardCharsets.UTF_8));
            }
            return;
        }
        CollectiveCall[] all = new CollectiveCall[x.size];
        all[0] = mine;
        String malformed = null;
        for (int q = 1; q < x.size; q++) { // every rank's, so that none of them is left behind unread
            byte[] b = x.recv(q, UP);
            all[q] = decode(b, mine);
            if (all[q] == null && malformed == null) {
                malformed = "rank " + q + " sent a malformed collective signature (" + b.length + " bytes) for collective #"
                        + mine.sequence() + " (--check-collectives)";
            }
        }
        String error = malformed != null ? malformed : verdict(all); // every rank is told, the error too
        byte[] v = error == null ? AGREED : error.getBytes(StandardCharsets.UTF_8);
        List<Request> down = new ArrayList<>(x.size - 1);
        for (int q = 1; q < x.size; q++) {
            down.add(x.send(q, DOWN, v));
        }
        for (Request r : down) {
            r.await();
        }
        if (error != null) {
            throw new CollectiveMismatchException(error);
        }
    }

    /**
     * Null if every pair of calls can meet; else one sentence naming the ranks of each different
     * call. Calls that read alike are grouped first, so the pairs compared are those of the
     * different calls (usually none), not of the ranks.
     */
    static String verdict(CollectiveCall[] byRank) {
        Map<String, List<Integer>> parts = new LinkedHashMap<>();
        List<CollectiveCall> distinct = new ArrayList<>();
        for (int r = 0; r < byRank.length; r++) {
            List<Integer> ranks = parts.get(byRank[r].signature());
            if (ranks == null) {
                ranks = new ArrayList<>();
                parts.put(byRank[r].signature(), ranks);
                distinct.add(byRank[r]);
            }
            ranks.add(r);
        }
        if (CollectiveCall.allMeet(distinct)) {
            return null;
        }
        CollectiveCall first = byRank[0];
        String where = first.communicatorName().equals("world") ? "world" : first.communicatorName() + " (ranks of that communicator)";
        StringBuilder b = new StringBuilder("the ranks of ").append(where).append(" disagree about collective #")
                .append(first.sequence()).append(": ");
        String sep = "";
        for (Map.Entry<String, List<Integer>> p : parts.entrySet()) {
            b.append(sep).append(CollectiveCall.members(p.getValue().stream().mapToInt(Integer::intValue).toArray()))
                    .append(' ').append(p.getKey());
            sep = "; ";
        }
        return b.append("; every rank must make the same collective calls in the same order (--check-collectives)").toString();
    }

    /** What the check compares; the communicator and number are the receiver's own. */
    static byte[] encode(CollectiveCall c) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        DataOutputStream out = new DataOutputStream(bytes);
        try {
            out.writeUTF(c.operation());
            out.writeInt(c.root());
            out.writeLong(c.count());
            out.writeUTF(c.type());
            out.writeUTF(c.op());
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in memory
        }
        return bytes.toByteArray();
    }

    /** A rank's call as {@link #encode} wrote it, in {@code mine}'s communicator and number; null if malformed. */
    static CollectiveCall decode(byte[] b, CollectiveCall mine) {
        ByteBuffer in = ByteBuffer.wrap(b);
        try {
            String operation = utf(in);
            int root = in.getInt();
            long count = in.getLong();
            String type = utf(in);
            String op = utf(in);
            return new CollectiveCall(operation, mine.communicator(), mine.members(), mine.sequence(), root, count, type, op);
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            return null;
        }
    }

    private static String utf(ByteBuffer in) {
        int n = in.getShort() & 0xFFFF;
        byte[] s = new byte[n];
        in.get(s);
        return new String(s, StandardCharsets.UTF_8); // writeUTF's modified UTF-8 equals UTF-8 for these names
    }
}
