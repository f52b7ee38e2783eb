package io.cohort.collective;

import io.cohort.CohortException;
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
 * same {@link CohortException} naming the ranks and their calls, before any of the collective's
 * messages is sent, instead of the job hanging or a reduction reading wrong values. Off by default:
 * it costs a gather and a bcast of a few dozen bytes per collective.
 *
 * <p>Its messages use the two highest phases of the collective's own tags, which no algorithm
 * reaches (they use a few phases per round, and at most ceil(log2 N) rounds), so they never meet an
 * algorithm's messages, this collective's or another's.
 */
final class SignatureCheck {
    private static final int UP = Exchange.PHASES - 1;
    private static final int DOWN = Exchange.PHASES - 2;
    private static final byte[] AGREED = new byte[0];

    private SignatureCheck() {
    }

    /** Whether this peer checks: {@link CollectiveMode#CHECK_PROP_NAME}, else {@link CollectiveMode#CHECK_ENV_NAME} ({@code 1} or {@code true}). */
    static boolean enabled() {
        String v = System.getProperty(CollectiveMode.CHECK_PROP_NAME);
        if (v == null) {
            v = System.getenv(CollectiveMode.CHECK_ENV_NAME);
        }
        return v != null && (v.equals("1") || v.trim().toLowerCase(Locale.ROOT).equals("true"));
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
                throw new CohortException(new String(verdict, StandardCharsets.UTF_8));
            }
            return;
        }
        CollectiveCall[] all = new CollectiveCall[x.size];
        all[0] = mine;
        for (int q = 1; q < x.size; q++) {
            all[q] = decode(x.recv(q, UP), mine, q);
        }
        String error = verdict(all);
        byte[] v = error == null ? AGREED : error.getBytes(StandardCharsets.UTF_8);
        List<Request> down = new ArrayList<>(x.size - 1);
        for (int q = 1; q < x.size; q++) {
            down.add(x.send(q, DOWN, v));
        }
        for (Request r : down) {
            r.await();
        }
        if (error != null) {
            throw new CohortException(error);
        }
    }

    /** Null if every pair of calls can meet; else one sentence naming the ranks of each different call. */
    static String verdict(CollectiveCall[] byRank) {
        boolean clash = false;
        for (int a = 0; a < byRank.length && !clash; a++) {
            for (int b = a + 1; b < byRank.length; b++) {
                if (!byRank[a].agreesWith(byRank[b])) {
                    clash = true;
                    break;
                }
            }
        }
        if (!clash) {
            return null;
        }
        Map<String, List<Integer>> parts = new LinkedHashMap<>();
        for (int r = 0; r < byRank.length; r++) {
            parts.computeIfAbsent(byRank[r].signature(), k -> new ArrayList<>()).add(r);
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

    private static CollectiveCall decode(byte[] b, CollectiveCall mine, int rank) {
        ByteBuffer in = ByteBuffer.wrap(b);
        try {
            String operation = utf(in);
            int root = in.getInt();
            long count = in.getLong();
            String type = utf(in);
            String op = utf(in);
            return new CollectiveCall(operation, mine.communicator(), mine.members(), mine.sequence(), root, count, type, op);
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new CohortException("rank " + rank + " sent a malformed collective signature (" + b.length + " bytes)");
        }
    }

    private static String utf(ByteBuffer in) {
        int n = in.getShort() & 0xFFFF;
        byte[] s = new byte[n];
        in.get(s);
        return new String(s, StandardCharsets.UTF_8); // writeUTF's modified UTF-8 equals UTF-8 for these names
    }
}
