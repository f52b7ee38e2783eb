package io.cohort.collective;

import io.cohort.BadSettingException;
import io.cohort.CohortException;
import io.cohort.Op;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * Barrier, bcast, reduce, allreduce and allgather(v) through a {@link SharedSegment}, for a
 * communicator whose peers all share one host: the data is copied into the segment once and out
 * once, and the peers wait on each other's phase words instead of on messages, so no step waits
 * for a peer to be scheduled and forward a message (as every level of a tree does).
 *
 * <pre>
 *   allreduce, per chunk of the vector (at most one slot long):
 *     every member   copy its chunk into its slot        arrive(a); awaitAll(a)
 *     member r       reduce part r of every slot, in rank order, into the area's part r
 *                                                         arrive(b); awaitAll(b)
 *     every member   copy the area out                    arrive(c)   (the area is free once all have)
 *
 *   bcast, per chunk: the root copies it into an area (two, in turn, so it fills one while the
 *   others read the other) and arrives; each other member waits for the root, copies it out, arrives.
 *
 *   barrier: arrive(a); awaitAll(a).
 * </pre>
 *
 * Phases: every member numbers the steps of every collective alike, without talking (the chunk
 * counts follow from the arguments, which must agree, as in MPI), so a phase number names one step
 * of one collective on all members. A member may write its slot once every member has finished
 * the step that last read the slots ({@code slotsFree}), and an area once every member has
 * finished the step that last read it ({@code areaFree}); waiting for those is what keeps a fast
 * member from overwriting what a slow one still reads, and costs nothing (N loads) where they are
 * already past. A member that fails inside a collective abandons it ({@link SharedSegment#abandon}),
 * so that the others fail too instead of waiting for ever.
 *
 * <p>A reduction's chunk is combined in rank order ({@code x0 op x1 op ...}): non-commutative ops
 * are correct, and every member gets the same bits. Ops whose values must not be split ({@link
 * Op#unit()} 0) cannot run here, nor can {@code Object[]} buffers; the policy sends those elsewhere.
 *
 * <p>Set-up, at the first collective that needs it (every member at the same call): rank 0 makes
 * the segment and tells the others its name (a binomial bcast); each maps it and writes its
 * doorbell; a recursive-doubling allreduce of "mapped" tells all whether all did; rank 0 then
 * removes the name. Where any member could not, every member knows it, and the communicator uses
 * point-to-point from then on.
 *
 * <p>Threads: the thread running the communicator's collective, one at a time ({@link Collectives}).
 */
final class SharedMemoryCollectives implements AutoCloseable {
    /** Bytes in each slot and area, where set (a power of two from 4 KiB to 16 MiB); rank 0's value counts. */
    static final String AREA_BYTES_PROP_NAME = "cohort.collectives.sharedAreaBytes";
    /**
     * Slot and area bytes by default: 64 KiB, halved until the whole segment fits in
     * {@link #SEGMENT_BUDGET_BYTES}. A 64 KiB allreduce of doubles then takes one chunk.
     */
    static final int AREA_BYTES_DEFAULT = 64 << 10;
    static final long SEGMENT_BUDGET_BYTES = 16L << 20;
    private static final int AREA_BYTES_MIN = 4096;
    /**
     * Vectors of which every member's copy together is up to this long are reduced whole by every
     * member, in one step: one wait for all then costs less than the split's second wait.
     * Measured (docs/notes/benchmark-history.md, "Collectives through shared memory"): at N = 4 on two
     * processors, 5.6-9.4 µs against the split's 10-17 µs for 8 B-8 KiB vectors (32 KiB read per
     * member); at N = 2 level within the noise up to 16 KiB.
     */
    static final int SMALL_REDUCE_READ_BYTES = 32 << 10;

    private enum State { UNKNOWN, OPEN, UNAVAILABLE, BROKEN }

    private final CollectiveChannel channel;
    private final Consumer<String> verbose;
    private State state = State.UNKNOWN;
    private SharedSegment segment;
    /** The last phase this member finished. */
    private long phase;
    /** Every member has finished this phase: no one reads the slots any more. */
    private long slotsFree;
    /** Per area, the phase after which no one reads it. */
    private final long[] areaFree = new long[2];
    /** The area the next bcast chunk or reduction uses. */
    private int nextArea;
    /** The highest phase every member is known to have finished: waits up to it cost nothing. */
    private long allPast;
    /** combineSlots' stack of partials (depth k: scratch slot k) and how many ranks each combines; kept between calls. */
    private final Object[] combineStack = new Object[Scratch.SLOTS];
    private final int[] combineRanks = new int[Scratch.SLOTS];
    /** Slot and area bytes rank 0 uses instead of {@link #areaBytes(int)}'s, where positive (tests: many chunks). */
    private int areaBytesWanted;

    /** @throws BadSettingException where {@value #AREA_BYTES_PROP_NAME} is set to no size it can be */
    SharedMemoryCollectives(CollectiveChannel channel, Consumer<String> verbose) {
        this.channel = channel;
        this.verbose = verbose;
        String v = System.getProperty(AREA_BYTES_PROP_NAME);
        if (v != null) {
            checkedAreaBytes(v); // every member, at start: rank 0 alone would fail inside a collective
        }
    }

    /** The area and slot size rank 0 makes the segment with, for {@code n} members. */
    static int areaBytes(int n) {
        return areaBytes(n, System.getProperty(AREA_BYTES_PROP_NAME));
    }

    /** The area and slot size for {@code n} members where {@value #AREA_BYTES_PROP_NAME} is {@code v} (null: unset). */
    static int areaBytes(int n, String v) {
        if (v != null) {
            return checkedAreaBytes(v);
        }
        int a = AREA_BYTES_DEFAULT;
        while (a > AREA_BYTES_MIN && (long) a * (n + 2) > SEGMENT_BUDGET_BYTES) {
            a >>= 1;
        }
        return a;
    }

    /** {@value #AREA_BYTES_PROP_NAME}'s value, or one sentence saying what it must be. */
    static int checkedAreaBytes(String v) {
        try {
            int a = Integer.parseInt(v.trim());
            if (Integer.bitCount(a) == 1 && a >= AREA_BYTES_MIN && a <= 16 << 20) {
                return a;
            }
        } catch (NumberFormatException ignored) {
            // the sentence below
        }
        throw new BadSettingException(AREA_BYTES_PROP_NAME + "=" + v + " must be a power of two from 4096 to 16777216");
    }

    /** Makes the segment (if rank 0 makes it, before the first collective) with slots of {@code bytes}. */
    void areaBytesForTests(int bytes) {
        areaBytesWanted = bytes;
    }

    // ---- set-up ----------------------------------------------------------------------------------

    /**
     * Whether the segment is there, making it on first need (every member at the same call, with
     * {@code x} for its messages). False for good where some member could not map it; true where a
     * collective broke it, so that the next one fails as it should rather than run elsewhere alone.
     */
    boolean open(Exchange x) {
        if (state == State.UNKNOWN) {
            state = setUp(x) ? State.OPEN : State.UNAVAILABLE;
        }
        return state != State.UNAVAILABLE;
    }

    private boolean setUp(Exchange x) {
        SharedSegment[] made = new SharedSegment[1];
        try {
            return setUp(x, made);
        } catch (RuntimeException | Error e) {
            // The agreement never ended here: the others may be anywhere in it, so this communicator's
            // collectives fail from now on rather than start it again on the same tags.
            if (made[0] != null) {
                made[0].close();
            }
            state = State.BROKEN;
            throw e;
        } finally {
            if (x.rank == 0 && made[0] != null) {
                made[0].unlink(); // every member has mapped it or given up: the name is no longer needed
            }
        }
    }

    private boolean setUp(Exchange x, SharedSegment[] made) {
        SharedSegment s = null;
        String why = null;
        byte[] word = new byte[9];
        if (x.rank == 0) {
            long nonce = ThreadLocalRandom.current().nextLong();
            try {
                s = channel.createSharedSegment(nonce, areaBytesWanted > 0 ? areaBytesWanted : areaBytes(x.size));
                made[0] = s;
                why = s == null ? "its peers do not all share this host's memory" : null;
            } catch (IOException | RuntimeException e) {
                why = "rank 0 could not make it: " + e.getMessage();
            }
            ByteBuffer.wrap(word).put(0, (byte) (s == null ? 0 : 1)).putLong(1, nonce);
        }
        byte[] told = BinomialBcast.run(x.from(200), 0, word);
        if (x.rank != 0 && told[0] == 1) {
            try {
                s = channel.openSharedSegment(ByteBuffer.wrap(told).getLong(1));
                made[0] = s;
                why = s == null ? "its peers do not all share this host's memory" : null;
            } catch (IOException | RuntimeException e) {
                why = "rank " + x.rank + " could not map it: " + e.getMessage();
            }
        }
        int[] mapped = {s == null ? 0 : 1};
        RecursiveDoublingAllreduce.run(x.from(201), mapped, 1, Op.MIN);
        if (mapped[0] == 0) {
            if (s != null) {
                s.close();
            }
            verbose.accept("cohort: no shared-memory segment for the collectives"
                    + (why == null ? " (another rank could not map it)" : " (" + why + ")") + "; they use point-to-point");
            return false;
        }
        s.setUpComplete();
        segment = s;
        return true;
    }

    private void abandon() {
        state = State.BROKEN;
        if (segment != null) {
            segment.abandon();
        }
    }

    /**
     * Whether a reduction with {@code op} of elements {@code width} bytes wide fits the segment's
     * slots: one indivisible unit of the op must fit in one. The same at every member (the slot size
     * is the segment's).
     */
    boolean fits(Op op, int width) {
        return segment == null || op == null || (long) Math.max(1, op.unit()) * width <= segment.areaBytes();
    }

    @Override
    public void close() {
        if (segment != null) {
            segment.close();
            segment = null;
        }
        state = State.UNAVAILABLE;
    }

    // ---- phases ----------------------------------------------------------------------------------

    private void awaitAll(long p) {
        if (p > allPast) {
            segment.awaitAll(p);
            allPast = p;
        }
    }

    /**
     * Runs one collective's steps. Where they fail, this member abandons the segment for good: every
     * other member's wait on it fails from then on (a member left half-way would leave them waiting
     * for ever), and so does every later collective of this member that would use it. Where they
     * fail because another member failed or left, the others still hear of that member by name:
     * a wait that meets an abandoned member names a member that died or left instead, where one did.
     */
    private void guarded(Runnable steps) {
        if (state == State.BROKEN) {
            abandon(); // a member that waits for this one must not wait for ever either
            throw new CohortException("an earlier collective on this communicator failed at rank " + channel.rank()
                    + " half-way through its shared-memory steps, so the ranks are no longer in step there;"
                    + " its collectives cannot run again");
        }
        try {
            steps.run();
        } catch (RuntimeException | Error e) {
            // Also where another member failed or left: a third may be waiting for this one.
            abandon();
            throw e;
        }
    }

    // ---- the collectives -------------------------------------------------------------------------

    void barrier() {
        guarded(() -> {
            long a = ++phase;
            segment.arrive(a);
            awaitAll(a);
        });
    }

    /**
     * Reduces {@code n} elements of {@code send} into {@code recv} at every member ({@code root} -1),
     * or at {@code root} alone. {@code send} and {@code recv} may be one buffer.
     */
    void reduce(int root, Object send, Object recv, int n, Op op, Scratch scratch) {
        guarded(() -> reduceSteps(root, send, recv, n, op, scratch));
    }

    private void reduceSteps(int root, Object send, Object recv, int n, Op op, Scratch scratch) {
        int members = channel.size();
        int me = channel.rank();
        int w = Buffers.elementBytes(send);
        int unit = Math.max(1, op.unit());
        int chunk = segment.areaBytes() / w / unit * unit;
        if ((long) n * w <= segment.areaBytes() && (long) n * w * members <= SMALL_REDUCE_READ_BYTES) {
            reduceSmall(root, send, recv, n, op, scratch, w);
            return;
        }
        for (long at = 0; at < n; at += chunk) {
            int c0 = (int) at;
            int m = Math.min(chunk, n - c0);
            awaitAll(slotsFree);
            Buffers.encodeInto(send, c0, m, segment.slot(me), 0);
            long a = ++phase;
            segment.arrive(a);
            awaitAll(a);
            int units = m / unit;
            int lo = part(units, members, me) * unit;
            int hi = part(units, members, me + 1) * unit;
            int area = nextArea;
            awaitAll(areaFree[area]);
            if (hi > lo) {
                int len = hi - lo;
                Object acc = combineSlots(lo * w, len, send, op, scratch);
                Buffers.encodeInto(acc, 0, len, segment.area(area), lo * w);
            }
            long b = ++phase;
            segment.arrive(b);
            awaitAll(b);
            slotsFree = b;
            if (root < 0 || root == me) {
                Buffers.decodeFrom(segment.area(area), 0, recv, c0, m);
            }
            long c = ++phase;
            segment.arrive(c);
            areaFree[area] = c;
            nextArea = area ^ 1;
        }
    }

    /**
     * A short vector: every member (or the root alone) reduces all of it from every slot, so one
     * wait for all replaces the split's two; the slots are free once every member has read them,
     * which the next writer waits for.
     */
    private void reduceSmall(int root, Object send, Object recv, int n, Op op, Scratch scratch, int w) {
        int members = channel.size();
        int me = channel.rank();
        awaitAll(slotsFree);
        Buffers.encodeInto(send, 0, n, segment.slot(me), 0);
        long a = ++phase;
        segment.arrive(a);
        if (root >= 0 && root != me) {
            slotsFree = ++phase; // the root reads the slots; this member has nothing to read
            segment.arrive(slotsFree);
            return;
        }
        awaitAll(a);
        if (n > 0) {
            Buffers.copy(combineSlots(0, n, send, op, scratch), 0, recv, 0, n);
        }
        slotsFree = ++phase;
        segment.arrive(slotsFree);
    }

    /**
     * {@code x0 op x1 op ... op x(N-1)} of the {@code len} elements at byte {@code at} of every
     * slot, grouped as a binomial reduce to rank 0 groups them: adjacent pairs, then pairs of
     * pairs, and so on ({@code ((x0 op x1) op (x2 op x3)) op x4} at N = 5). So every member gets the
     * same bits, in rank order (non-commutative ops), with the grouping of the tree that MPI
     * libraries and Cohort's point-to-point algorithms use at N = 2^k; a long sum also loses less to
     * rounding than one from left to right. (A program that checks its floating-point result to the
     * last bits, as the Java Grande MolDyn benchmark does at 4 processes, fails on left to right.)
     * Keeps a stack of partial results of 1, 2, 4, ... ranks: log2 N + 1 arrays of exactly
     * {@code len} elements (a user's op may read the length), kept between calls of one size.
     */
    private Object combineSlots(int at, int len, Object like, Op op, Scratch scratch) {
        int members = channel.size();
        Object[] stack = combineStack; // empty between calls
        int[] ranks = combineRanks;
        int depth = 0;
        try {
            for (int r = 0; r < members; r++) {
                if (stack[depth] == null) {
                    stack[depth] = scratch.array(depth, like, len);
                }
                Object leaf = stack[depth];
                Buffers.decodeFrom(segment.slot(r), at, leaf, 0, len);
                int size = 1;
                while (depth > 0 && ranks[depth - 1] == size) {
                    Combine.higherLast(op, leaf, stack[depth - 1], 0, len); // lower op leaf, into the lower
                    depth--;
                    leaf = stack[depth];
                    size <<= 1;
                }
                ranks[depth++] = size;
            }
            Object acc = stack[depth - 1];
            for (int k = depth - 2; k >= 0; k--) {
                Combine.lowerFirst(op, stack[k], acc, 0, len); // the tree's right side first
            }
            return acc;
        } finally {
            // No arrays between calls: stale ones of another length, or long ones the scratch dropped.
            java.util.Arrays.fill(stack, null);
        }
    }

    /** The first unit of part {@code r} when {@code units} are split into {@code members} parts, the first ones larger. */
    private static int part(int units, int members, int r) {
        int per = units / members;
        int extra = units % members;
        return r * per + Math.min(r, extra);
    }

    /**
     * The root's {@code count} elements of {@code buffer} into every member's, in place. A member
     * whose buffer differs from the root's in type or count takes every chunk (so the phases stay
     * in step) and then fails naming both.
     */
    void bcast(int root, Object buffer, int count) {
        guarded(() -> {
            char family = Buffers.family(buffer).charAt(0);
            if (channel.rank() == root) {
                sendBcast(buffer, family, count);
            } else {
                receiveBcast(root, buffer, family, count);
            }
        });
        throwMismatch();
    }

    /** A member whose bcast buffer did not match the root's took every chunk all the same, and fails now, in step. */
    private IllegalArgumentException mismatch;

    private void throwMismatch() {
        IllegalArgumentException e = mismatch;
        if (e != null) {
            mismatch = null;
            throw e;
        }
    }

    /** The root's bytes at every member; only the root knows their length ({@code data} is ignored elsewhere). */
    byte[] bcastBytes(int root, byte[] data) {
        byte[][] out = new byte[1][];
        guarded(() -> {
            if (channel.rank() == root) {
                sendBcast(data, 'B', data.length);
                out[0] = data;
            } else {
                out[0] = (byte[]) receiveBcast(root, null, 'B', -1);
            }
        });
        throwMismatch();
        return out[0];
    }

    private void sendBcast(Object buffer, char family, int count) {
        int per = segment.areaBytes() / Buffers.elementBytes(buffer);
        int e0 = 0;
        boolean head = true;
        while (head || e0 < count) {
            int m = Math.min(per, count - e0);
            int area = nextArea;
            awaitAll(areaFree[area]);
            if (head) {
                // In the root's line, not the area, so that a bcast of exactly a slot is one chunk.
                segment.header(area, (long) family << 32 | (count & 0xFFFFFFFFL));
            }
            Buffers.encodeInto(buffer, e0, m, segment.area(area), 0);
            long p = ++phase;
            segment.arrive(p);
            areaFree[area] = p;
            nextArea = area ^ 1;
            e0 += m;
            head = false;
        }
    }

    /**
     * Takes the root's chunks into {@code buffer} and returns it; a null {@code buffer} takes bytes
     * of whatever length the root sent into a new array.
     */
    private Object receiveBcast(int root, Object buffer, char family, int count) {
        int area = nextArea;
        long p = ++phase;
        segment.await(root, p);
        long header = segment.header(root, area);
        char rootFamily = (char) (header >>> 32);
        int rootCount = (int) header;
        int rootWidth = widthOf(rootFamily);
        if (buffer == null && rootFamily == family && rootCount >= 0) {
            buffer = new byte[rootCount];
            count = rootCount;
        }
        boolean match = rootFamily == family && rootCount == count;
        if (rootWidth <= 0 || rootCount < 0) {
            // Not a bcast's header: the ranks are in different collectives. Nothing to keep in step with.
            throw new IllegalArgumentException("rank " + channel.rank() + "'s bcast from root " + root
                    + " found no bcast in shared memory: the ranks are not in the same collective;"
                    + " every rank must make the same collective calls in the same order");
        }
        int later = segment.areaBytes() / rootWidth;
        int first = Math.min(rootCount, later);
        if (match) {
            Buffers.decodeFrom(segment.area(area), 0, buffer, 0, first);
        }
        segment.arrive(p);
        areaFree[area] = p;
        nextArea = area ^ 1;
        for (int e0 = first; e0 < rootCount; ) {
            int m = Math.min(later, rootCount - e0);
            area = nextArea;
            p = ++phase;
            segment.await(root, p);
            if (match) {
                Buffers.decodeFrom(segment.area(area), 0, buffer, e0, m);
            }
            segment.arrive(p);
            areaFree[area] = p;
            nextArea = area ^ 1;
            e0 += m;
        }
        if (!match) {
            mismatch = new IllegalArgumentException(buffer == null
                    ? "rank " + channel.rank() + " takes root " + root + "'s bytes but root " + root + " sent "
                            + Buffers.familyName(rootFamily) + " of " + rootCount + " elements; every rank must make the"
                            + " same collective calls in the same order"
                    : "rank " + channel.rank() + "'s bcast buffer is " + Buffers.typeName(buffer) + " of " + count
                            + " elements but root " + root + " sent " + Buffers.familyName(rootFamily) + " of " + rootCount
                            + " elements; pass buffers of one type and length");
        }
        return buffer;
    }

    /** Bytes per element of the type whose letter is {@code family}; 0 for none. */
    private static int widthOf(char family) {
        return switch (family) {
            case 'B', 'Z' -> 1;
            case 'S', 'C' -> 2;
            case 'I', 'F' -> 4;
            case 'J', 'D' -> 8;
            default -> 0;
        };
    }

    /**
     * Every member's {@code counts[r]} elements of {@code send} into every member's {@code recv} at
     * {@code displs[r]}: in rounds, each member's next slot-full of its block at once.
     */
    void allgatherv(Object send, Object recv, int[] counts, int[] displs) {
        guarded(() -> {
            int members = channel.size();
            int me = channel.rank();
            int w = Buffers.elementBytes(send);
            int chunk = segment.areaBytes() / w;
            int longest = 0;
            for (int c : counts) {
                longest = Math.max(longest, c);
            }
            for (long at = 0; at < longest; at += chunk) {
                int e0 = (int) at;
                awaitAll(slotsFree);
                int mine = Math.max(0, Math.min(chunk, counts[me] - e0));
                if (mine > 0) {
                    Buffers.encodeInto(send, e0, mine, segment.slot(me), 0);
                }
                long a = ++phase;
                segment.arrive(a);
                awaitAll(a);
                for (int r = 0; r < members; r++) {
                    int m = Math.max(0, Math.min(chunk, counts[r] - e0));
                    if (r != me && m > 0) {
                        Buffers.decodeFrom(segment.slot(r), 0, recv, displs[r] + e0, m);
                    }
                }
                long c = ++phase;
                segment.arrive(c);
                slotsFree = c;
            }
            Buffers.copy(send, 0, recv, displs[me], counts[me]);
        });
    }

}
