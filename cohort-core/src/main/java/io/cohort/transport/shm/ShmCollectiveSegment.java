package io.cohort.transport.shm;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static io.cohort.transport.shm.ShmCollectiveDescriptor.AREA_BYTES_OFFSET;
import static io.cohort.transport.shm.ShmCollectiveDescriptor.CONTEXT_OFFSET;
import static io.cohort.transport.shm.ShmCollectiveDescriptor.JOB_KEY_OFFSET;
import static io.cohort.transport.shm.ShmCollectiveDescriptor.MAGIC;
import static io.cohort.transport.shm.ShmCollectiveDescriptor.MAGIC_OFFSET;
import static io.cohort.transport.shm.ShmCollectiveDescriptor.MEMBERS_OFFSET;
import static io.cohort.transport.shm.ShmCollectiveDescriptor.VERSION;
import static io.cohort.transport.shm.ShmCollectiveDescriptor.VERSION_OFFSET;

/**
 * One member's view of a communicator's collective segment ({@link ShmCollectiveDescriptor}):
 * the slots and areas the shared-memory collectives copy through, and the phase words by which
 * the members tell each other how far they have got.
 *
 * <pre>
 *   member r                                      member s, waiting for r to reach phase p
 *   writes its slot (plain)                       spins / yields on phase(r) &gt;= p (volatile load)
 *   phase(r) := p (setVolatile) ───────────────►  reads r's slot (plain)
 *   for every s: waiting(s)? CAS 1 → 0, ring s    before it sleeps: waiting(s) := 1 (setVolatile),
 *                                                 then looks at phase(r) once more
 * </pre>
 *
 * The phase word and the waiting word are a Dekker pair: each side writes its own word with a
 * volatile store and then reads the other's with a volatile load, so at least one of them sees
 * the other, and a member never sleeps through the phase it waits for. A ring costs a datagram
 * only where a member actually sleeps; spinning members cost an arrival N - 1 loads.
 *
 * <p>Threads: {@link #arrive} and the reads from the thread running the communicator's
 * collective; {@link #prepareSleep} and {@link #endSleep} from the peer's progress owner (any
 * thread) through {@link ShmTransport}.
 */
public final class ShmCollectiveSegment implements AutoCloseable {
    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());

    private final ByteBuffer segment;
    private final Path path;
    private final int members;
    private final int member;
    private final int areaBytes;
    private final ByteBuffer[] slots;
    private final ByteBuffer[] areas = new ByteBuffer[2];
    private final ShmTransport transport;
    /** Each member's doorbell, read once every member has written its own (after the set-up's agreement). */
    private InetSocketAddress[] bells;
    /** What this member's collective waits for now, asked before its peer sleeps; null while it does not wait. */
    private volatile BooleanSupplier waiting;
    /** The thread that waits, which may park apart from the progress owner (a nonblocking collective's). */
    private volatile Thread waiter;
    private volatile boolean closed;

    private ShmCollectiveSegment(ByteBuffer segment, Path path, int members, int member, int areaBytes,
                                 ShmTransport transport) {
        this.segment = segment;
        this.path = path;
        this.members = members;
        this.member = member;
        this.areaBytes = areaBytes;
        this.transport = transport;
        this.slots = new ByteBuffer[members];
        for (int r = 0; r < members; r++) {
            slots[r] = view(ShmCollectiveDescriptor.slotOffset(members, areaBytes, r));
        }
        for (int a = 0; a < 2; a++) {
            areas[a] = view(ShmCollectiveDescriptor.areaOffset(members, areaBytes, a));
        }
    }

    private ByteBuffer view(long offset) {
        return segment.slice((int) offset, areaBytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Makes, sizes, maps and formats a segment under a temporary name, then publishes it under
     * {@code path}: a member that finds the name maps a whole, formatted file. A file of that name
     * already there is an error (FileAlreadyExistsException), never replaced.
     */
    static ShmCollectiveSegment create(Path path, long jobKey, int members, int member, int areaBytes, int context,
                                       ShmTransport transport) throws IOException {
        if (members < 1 || member < 0 || member >= members) {
            throw new IllegalArgumentException("member " + member + " of " + members);
        }
        if (areaBytes < 64 || areaBytes % 64 != 0) {
            throw new IllegalArgumentException("area bytes must be a positive multiple of 64, not " + areaBytes);
        }
        long bytes = ShmCollectiveDescriptor.segmentBytes(members, areaBytes);
        if (bytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(members + " members with areas of " + areaBytes + " bytes need "
                    + bytes + " bytes, more than one mapping holds");
        }
        Path temp = path.resolveSibling(path.getFileName() + ".tmp");
        MappedByteBuffer map;
        try {
            try (FileChannel ch = FileChannel.open(temp, EnumSet.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.READ, StandardOpenOption.WRITE), ShmSegmentFile.ownerOnly())) {
                ShmPages.reserve(ch, bytes, temp);
                map = ch.map(FileChannel.MapMode.READ_WRITE, 0, bytes);
            }
            ByteBuffer b = map.duplicate().order(ByteOrder.nativeOrder());
            b.putLong(JOB_KEY_OFFSET, jobKey);
            b.putInt(VERSION_OFFSET, VERSION);
            b.putInt(MEMBERS_OFFSET, members);
            b.putInt(AREA_BYTES_OFFSET, areaBytes);
            b.putInt(CONTEXT_OFFSET, context);
            // Release: the header is complete before a member that maps the file can see the magic.
            LONG.setRelease(map, MAGIC_OFFSET, MAGIC);
            // A hard link publishes the file at once and, unlike a rename, never replaces one that exists.
            Files.createLink(path, temp);
        } finally {
            ShmSegmentFile.unlink(temp); // whether or not it was published: the name that counts is path's
        }
        return new ShmCollectiveSegment(map, path, members, member, areaBytes, transport);
    }

    /**
     * Maps the segment at {@code path}, checking that it is this job's, for this communicator and
     * its size.
     *
     * @throws IOException naming what is wrong: no such file, or a file that is not the segment
     */
    static ShmCollectiveSegment open(Path path, long jobKey, int members, int member, int context,
                                     ShmTransport transport) throws IOException {
        MappedByteBuffer map;
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS)) {
            ShmJobDirectory.verifyFile(path);
            long size = ch.size();
            if (size < ShmCollectiveDescriptor.dataOffset(members)) {
                throw new IOException(path + " is too short to be a collective segment");
            }
            map = ch.map(FileChannel.MapMode.READ_WRITE, 0, size);
        } catch (NoSuchFileException e) {
            throw new IOException(path + " does not exist");
        }
        ByteBuffer b = map.duplicate().order(ByteOrder.nativeOrder());
        // Acquire: pairs with the creator's release of the magic.
        if ((long) LONG.getAcquire(map, MAGIC_OFFSET) != MAGIC || b.getInt(VERSION_OFFSET) != VERSION) {
            throw new IOException(path + " is not a collective segment of this version");
        }
        if (b.getLong(JOB_KEY_OFFSET) != jobKey || b.getInt(MEMBERS_OFFSET) != members
                || b.getInt(CONTEXT_OFFSET) != context) {
            throw new IOException(path + " belongs to another job or communicator");
        }
        int areaBytes = b.getInt(AREA_BYTES_OFFSET);
        if (areaBytes < 64 || ShmCollectiveDescriptor.segmentBytes(members, areaBytes) != map.capacity()) {
            throw new IOException(path + " has a size that does not match its header");
        }
        return new ShmCollectiveSegment(map, path, members, member, areaBytes, transport);
    }

    public int members() {
        return members;
    }

    public int member() {
        return member;
    }

    public int areaBytes() {
        return areaBytes;
    }

    /** Member {@code r}'s slot, little-endian; use absolute gets and puts (it is shared by every caller). */
    public ByteBuffer slot(int r) {
        return slots[r];
    }

    /** Shared area 0 or 1, little-endian; absolute gets and puts only. */
    public ByteBuffer area(int a) {
        return areas[a];
    }

    /**
     * Writes what this member's bcast puts in {@code area} into its line; plain, published by its
     * next {@link #arrive}.
     */
    public void header(int area, long value) {
        LONG.set(segment, ShmCollectiveDescriptor.headerOffset(member, area), value); // native order, as the layout
    }

    /** What member {@code r} said its bcast put in {@code area}; read after seeing its phase. */
    public long header(int r, int area) {
        return (long) LONG.get(segment, ShmCollectiveDescriptor.headerOffset(r, area));
    }

    /** Writes this member's doorbell port into its line; before the set-up's agreement, which publishes it. */
    void announceDoorbell(int port) {
        segment.duplicate().order(ByteOrder.nativeOrder()).putInt(ShmCollectiveDescriptor.doorbellOffset(member), port);
    }

    /**
     * Every member has mapped the segment and written its doorbell, as the set-up's agreement (a
     * round of messages after each member's attach) shows: reads their doorbells, so arrivals ring.
     */
    public void setUpComplete() {
        ByteBuffer b = segment.duplicate().order(ByteOrder.nativeOrder());
        InetSocketAddress[] a = new InetSocketAddress[members];
        for (int r = 0; r < members; r++) {
            int port = b.getInt(ShmCollectiveDescriptor.doorbellOffset(r));
            a[r] = r == member || port == 0 ? null : ShmDoorbell.at(port);
            if (a[r] != null) {
                transport.expectRing(port); // a local peer's, as a rule, and so known already
            }
        }
        bells = a;
    }

    /** Removes the file; members that mapped it keep their mappings. */
    public void unlink() {
        ShmSegmentFile.unlink(path);
    }

    // ---- phases ----------------------------------------------------------------------------------

    /** The last phase member {@code r} finished (volatile: the Dekker pair with {@link #prepareSleep}). */
    public long phase(int r) {
        return (long) LONG.getVolatile(segment, ShmCollectiveDescriptor.phaseOffset(r));
    }

    /**
     * This member has finished {@code phase}: everything it wrote before is visible to whoever sees
     * the phase. Rings every member that sleeps.
     */
    public void arrive(long phase) {
        // Volatile: the waiting words below are read after this store (Dekker), so a member that armed
        // its word before our store is rung, and one that arms after it sees the phase.
        LONG.setVolatile(segment, ShmCollectiveDescriptor.phaseOffset(member), phase);
        ringSleepers();
    }

    /**
     * This member left a collective with an error: whoever waits for a phase it has not reached
     * learns so at once (sleepers are rung). Its phase word keeps the last step it did finish, which
     * the others may still need.
     */
    public void abandon() {
        INT.setVolatile(segment, ShmCollectiveDescriptor.abandonedOffset(member), 1); // volatile: as arrive's store
        ringSleepers();
    }

    /** Whether member {@code r} left a collective with an error (volatile, as {@link #phase}). */
    public boolean abandoned(int r) {
        return (int) INT.getVolatile(segment, ShmCollectiveDescriptor.abandonedOffset(r)) != 0;
    }

    private void ringSleepers() {
        InetSocketAddress[] b = bells;
        if (b == null) {
            return;
        }
        for (int r = 0; r < members; r++) {
            if (b[r] != null) {
                int at = ShmCollectiveDescriptor.waitingOffset(r);
                if ((int) INT.getVolatile(segment, at) != 0 && INT.compareAndSet(segment, at, 1, 0)) {
                    transport.ring(b[r]);
                }
            }
        }
    }

    /**
     * The thread running this member's collective now waits until {@code ready} holds (null: it
     * waits no more). Its peer's progress owner asks {@code ready} before sleeping; it must not throw.
     */
    public void waiting(BooleanSupplier ready) {
        waiter = ready == null ? null : Thread.currentThread();
        waiting = ready;
    }

    /**
     * Progress owner, before it sleeps: asks to be rung, then looks once more. 1 if its own wait is
     * over (then it does not sleep); where the wait is another thread's, that thread is woken and the
     * owner may sleep, rather than spin until the other runs.
     */
    int prepareSleep() {
        BooleanSupplier w = waiting;
        if (w == null || closed) {
            return 0;
        }
        INT.setVolatile(segment, ShmCollectiveDescriptor.waitingOffset(member), 1);
        if (!w.getAsBoolean()) {
            return 0;
        }
        Thread t = waiter;
        if (t == null || t == Thread.currentThread()) {
            return 1;
        }
        LockSupport.unpark(t);
        return 0;
    }

    /**
     * Progress owner, awake again. Where the wait is over and its thread is not the owner (it parks
     * on a timer, as threads that do not hold the progress role do), wakes that thread now.
     */
    void endSleep() {
        if (closed) {
            return;
        }
        INT.setOpaque(segment, ShmCollectiveDescriptor.waitingOffset(member), 0);
        BooleanSupplier w = waiting;
        Thread t = waiter;
        if (w != null && t != null && t != Thread.currentThread() && w.getAsBoolean()) {
            LockSupport.unpark(t);
        }
    }

    /** Stops taking part in the transport's sleeps; the mapping goes when the buffers are collected. */
    @Override
    public void close() {
        closed = true;
        waiting = null;
        transport.forget(this);
    }
}
