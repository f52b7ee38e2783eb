package io.cohort.collective;

import io.cohort.Op;
import io.cohort.collective.Fixtures.Kind;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static io.cohort.collective.Fixtures.assertSame;
import static io.cohort.collective.Fixtures.concat;
import static io.cohort.collective.Fixtures.data;
import static io.cohort.collective.Fixtures.empty;
import static io.cohort.collective.Fixtures.fold;
import static io.cohort.collective.Fixtures.inputs;
import static io.cohort.collective.Fixtures.slice;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs each collective on one peer and checks its result against the sequential reference; every
 * peer of the job calls the same checks in the same order. A new salt per call makes each call's
 * data differ, so a message matched to the wrong call shows.
 */
final class CollectiveChecks {
    private final Collectives c;
    private final int n;
    private final int rank;
    private int salt;

    CollectiveChecks(Collectives c) {
        this.c = c;
        this.n = c.size();
        this.rank = c.rank();
    }

    static List<Op> opsFor(Kind kind) {
        List<Op> ops = new ArrayList<>();
        boolean numeric = kind != Kind.BOOLEAN && kind != Kind.OBJECT;
        boolean integral = numeric && kind != Kind.FLOAT && kind != Kind.DOUBLE;
        if (numeric) {
            ops.addAll(List.of(Op.SUM, Op.PROD, Op.MIN, Op.MAX));
        }
        if (integral || kind == Kind.BOOLEAN) {
            ops.addAll(List.of(Op.LAND, Op.LOR, Op.LXOR, Op.BAND, Op.BOR, Op.BXOR));
        }
        if (numeric && kind != Kind.CHAR) {
            ops.addAll(List.of(Op.MINLOC, Op.MAXLOC));
        }
        if (kind == Kind.OBJECT) {
            ops.add(Fixtures.CONCAT);
        }
        return ops;
    }

    private static void kept(Object buffer) {
        if (buffer instanceof ByteBuffer b) {
            assertEquals(3, b.position(), "a collective moved a ByteBuffer's position");
        }
    }

    void barrier(AtomicInteger arrivals, int round) {
        arrivals.incrementAndGet();
        c.barrier();
        assertTrue(arrivals.get() >= n * round, "left barrier " + round + " before all " + n + " peers arrived");
    }

    void bcast(Kind k, int len) {
        for (int root : new int[] {0, n - 1, n / 2}) {
            int s = ++salt;
            Object buf = rank == root ? data(k, root, len, s) : empty(k, len);
            c.bcast(root, buf);
            assertSame(data(k, root, len, s), buf, "bcast of " + k + "[" + len + "] from " + root);
            kept(buf);
        }
        int s = ++salt;
        List<String> sent = List.of("object", String.valueOf(s));
        assertEquals(sent, c.bcastObject(n - 1, rank == n - 1 ? sent : null), "bcastObject");
    }

    void gatherScatter(Kind k, int len) {
        int s = ++salt;
        int root = n / 2;
        Object recv = rank == root ? empty(k, n * len) : null;
        c.gather(root, data(k, rank, len, s), recv);
        if (rank == root) {
            assertSame(concat(inputs(n, r -> data(k, r, len, s))), recv, "gather of " + k + "[" + len + "]");
            kept(recv);
        }
        int[] counts = new int[n];
        int[] displs = new int[n];
        for (int r = 0; r < n; r++) {
            counts[r] = (len + r) % 4;
        }
        for (int r = 0, at = 1; r < n; r++) { // blocks of varying length, reversed order, with gaps
            displs[n - 1 - r] = at;
            at += counts[n - 1 - r] + 1;
        }
        int capacity = displs[0] + counts[0] + 1;
        int s2 = ++salt;
        Object recvV = rank == 0 ? empty(k, capacity) : null;
        c.gatherv(0, data(k, rank, counts[rank], s2), recvV, counts, displs);
        if (rank == 0) {
            for (int r = 0; r < n; r++) {
                assertSame(data(k, r, counts[r], s2), slice(recvV, displs[r], counts[r]), "gatherv block " + r);
            }
        }
        int s3 = ++salt;
        Object mine = empty(k, len);
        c.scatter(root, rank == root ? data(k, root, n * len, s3) : null, mine);
        assertSame(slice(data(k, root, n * len, s3), rank * len, len), mine, "scatter of " + k + "[" + len + "]");
        int s4 = ++salt;
        Object mineV = empty(k, counts[rank]);
        c.scatterv(n - 1, rank == n - 1 ? data(k, n - 1, capacity, s4) : null, counts, displs, mineV);
        assertSame(slice(data(k, n - 1, capacity, s4), displs[rank], counts[rank]), mineV, "scatterv");
    }

    void allgather(Kind k, int len) {
        int s = ++salt;
        Object recv = empty(k, n * len);
        c.allgather(data(k, rank, len, s), recv);
        assertSame(concat(inputs(n, r -> data(k, r, len, s))), recv, "allgather of " + k + "[" + len + "]");
        kept(recv);
        int[] counts = new int[n];
        int[] displs = new int[n];
        int at = 0;
        for (int r = n - 1; r >= 0; r--) {
            counts[r] = (len * (r + 1)) % 5 + (r % 2);
            displs[r] = at;
            at += counts[r] + 2;
        }
        int s2 = ++salt;
        Object recvV = empty(k, at);
        c.allgatherv(data(k, rank, counts[rank], s2), recvV, counts, displs);
        for (int r = 0; r < n; r++) {
            assertSame(data(k, r, counts[r], s2), slice(recvV, displs[r], counts[r]), "allgatherv block " + r);
        }
    }

    void alltoall(Kind k, int len) {
        int s = ++salt;
        Object recv = empty(k, n * len);
        c.alltoall(data(k, rank, n * len, s), recv);
        List<Object> expected = inputs(n, src -> slice(data(k, src, n * len, s), rank * len, len));
        assertSame(concat(expected), recv, "alltoall of " + k + "[" + len + "]");
        // alltoallv: rank r sends (r + d) % 3 elements to d, packed
        int[] sc = new int[n];
        int[] rc = new int[n];
        for (int d = 0; d < n; d++) {
            sc[d] = (rank + d + len) % 3;
            rc[d] = (d + rank + len) % 3;
        }
        int[] sd = Args.packed(sc);
        int[] rd = Args.packed(rc);
        int s2 = ++salt;
        int sendTotal = sd[n - 1] + sc[n - 1];
        Object recvV = empty(k, rd[n - 1] + rc[n - 1]);
        c.alltoallv(data(k, rank, sendTotal, s2), sc, sd, recvV, rc, rd);
        for (int src = 0; src < n; src++) {
            int[] srcCounts = new int[n];
            for (int d = 0; d < n; d++) {
                srcCounts[d] = (src + d + len) % 3;
            }
            int total = Args.packed(srcCounts)[n - 1] + srcCounts[n - 1];
            Object theirs = data(k, src, total, s2);
            assertSame(slice(theirs, Args.packed(srcCounts)[rank], rc[src]), slice(recvV, rd[src], rc[src]),
                    "alltoallv block from " + src);
        }
    }

    private Object input(Kind k, Op op, int r, int len, int s) {
        if (op == Op.MINLOC || op == Op.MAXLOC) {
            return Fixtures.pairs(k, r, len, s);
        }
        return data(k, r, len, s);
    }

    /** Every reduction with every op that applies to {@code k}; {@code len} is in pairs for MINLOC/MAXLOC. */
    void reductions(Kind k, int len) {
        for (Op op : opsFor(k)) {
            reductions(k, len, op);
        }
    }

    void reductions(Kind k, int len, Op op) {
        int elems = op.unit() == 2 ? 2 * len : len;
        String what = op + " on " + k + "[" + elems + "]";
        int s = ++salt;
        List<Object> in = inputs(n, r -> input(k, op, r, len, s));
        Object all = fold(op, in);
        int root = (n + 1) / 3;
        Object recv = empty(k, elems);
        c.reduce(root, input(k, op, rank, len, s), rank == root ? recv : null, op);
        if (rank == root) {
            assertSame(all, recv, "reduce " + what);
        }
        Object r2 = empty(k, elems);
        c.allreduce(input(k, op, rank, len, s), r2, op);
        assertSame(all, r2, "allreduce " + what);
        kept(r2);
        Object inPlace = input(k, op, rank, len, s);
        c.allreduce(inPlace, inPlace, op);
        assertSame(all, inPlace, "allreduce in place " + what);
        Object scanned = empty(k, elems);
        c.scan(input(k, op, rank, len, s), scanned, op);
        assertSame(fold(op, in.subList(0, rank + 1)), scanned, "scan " + what);
        Object ex = input(k, op, rank, len, s + 1); // sentinel: rank 0's must stay as it was
        c.exscan(input(k, op, rank, len, s), ex, op);
        assertSame(rank == 0 ? input(k, op, 0, len, s + 1) : fold(op, in.subList(0, rank)), ex, "exscan " + what);
        int unit = Math.max(1, op.unit());
        int[] counts = new int[n];
        for (int r = 0; r < n; r++) {
            counts[r] = unit * ((len + r) % 3);
        }
        int total = Args.packed(counts)[n - 1] + counts[n - 1];
        int units = total / unit;
        List<Object> rsIn = inputs(n, r -> input(k, op, r, op.unit() == 2 ? units : total, s + 2));
        Object part = empty(k, counts[rank]);
        c.reduceScatter(input(k, op, rank, op.unit() == 2 ? units : total, s + 2), part, counts, op);
        assertSame(slice(fold(op, rsIn), Args.packed(counts)[rank], counts[rank]), part, "reduce-scatter " + what);
    }

    /** The non-commutative 2x2 matrix product: every reduction must multiply in rank order. */
    void matrices(int count) {
        int s = ++salt;
        Op op = Fixtures.MATMUL;
        List<Object> in = inputs(n, r -> Fixtures.matrices(r, count, s));
        long[] r1 = new long[4 * count];
        c.allreduce(Fixtures.matrices(rank, count, s), r1, op);
        assertSame(fold(op, in), r1, "allreduce of matrices");
        long[] r2 = new long[4 * count];
        c.reduce(n - 1, Fixtures.matrices(rank, count, s), r2, op);
        if (rank == n - 1) {
            assertSame(fold(op, in), r2, "reduce of matrices");
        }
        long[] r3 = new long[4 * count];
        c.scan(Fixtures.matrices(rank, count, s), r3, op);
        assertSame(fold(op, in.subList(0, rank + 1)), r3, "scan of matrices");
        long[] r4 = new long[4 * count];
        c.exscan(Fixtures.matrices(rank, count, s), r4, op);
        if (rank > 0) {
            assertSame(fold(op, in.subList(0, rank)), r4, "exscan of matrices");
        }
    }
}
