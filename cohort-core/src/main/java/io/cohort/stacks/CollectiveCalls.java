package io.cohort.stacks;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Map;

/**
 * Which collective each thread is in, for the stacks: the collectives {@link Slot#enter enter} and
 * {@link Slot#exit exit} their thread's slot, and a capture on another thread {@link #snapshot reads}
 * every slot.
 *
 * <p>Cost on the collective's path: finding the thread's slot (the caller keeps the last one, see
 * {@link #mine(Slot)}; a thread-local lookup otherwise) and plain writes between two ordered
 * writes of a version (a seqlock: odd while the slot changes). No allocation, no lock, no fence
 * on x86 beyond the compiler's. Reading retries while a slot changes and gives up on a slot that
 * keeps changing (a thread that runs collectives back to back is in none for long).
 *
 * <p>A thread's slot is registered once, on its first collective, in a weak map: a thread that ends
 * leaves nothing behind.
 */
public final class CollectiveCalls {
    private static final PerThread<CollectiveCall> SLOTS = new PerThread<>();
    private static final ThreadLocal<Slot> MINE = new ThreadLocal<>();
    private static final int READ_TRIES = 64;

    private CollectiveCalls() {
    }

    /** The calling thread's slot. */
    public static Slot mine() {
        Slot s = MINE.get();
        if (s == null) {
            s = new Slot(Thread.currentThread());
            MINE.set(s);
            SLOTS.register(Thread.currentThread(), s);
        }
        return s;
    }

    /**
     * The calling thread's slot: {@code cached} if it is this thread's (a caller that keeps the
     * slot it was given last skips the thread-local lookup while one thread calls it), else
     * {@link #mine()}. {@code cached} may be read without synchronisation: its owner's id is final.
     */
    public static Slot mine(Slot cached) {
        return cached != null && cached.ownerId == Thread.currentThread().getId() ? cached : mine();
    }

    /** The collective of every thread that is in one now, by thread id. */
    public static Map<Long, CollectiveCall> snapshot() {
        return SLOTS.snapshot();
    }

    /**
     * One thread's collective. Only its thread writes; any thread reads. Calls nest (a collective
     * that runs another inside it): the outermost, the program's own call, is the one shown.
     */
    public static final class Slot implements PerThread.Source<CollectiveCall> {
        private static final VarHandle VERSION;

        static {
            try {
                VERSION = MethodHandles.lookup().findVarHandle(Slot.class, "version", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        /** The id, not the thread: the weak map's value must not hold its key. */
        final long ownerId;
        @SuppressWarnings("unused") // through VERSION
        private int version;
        private int depth; // the owner's only
        private String operation; // null: in none
        private int communicator;
        private String members;
        private long sequence;
        private int root;
        private long count;
        private Class<?> type;
        private String op;

        Slot(Thread owner) {
            this.ownerId = owner.getId();
        }

        /**
         * The owner enters a collective of the communicator with context {@code communicator} and
         * {@code members} ({@link CollectiveCall#members}, empty for the world); {@code buffer} (or null) gives the element type,
         * {@code count} its elements (-1: none that every rank must agree on), {@code op} the
         * reduction's op name (or null).
         */
        public void enter(String operation, int communicator, String members, long sequence, int root, Object buffer, long count,
                          String op) {
            if (depth++ > 0) {
                return;
            }
            int v = (int) VERSION.getOpaque(this);
            VERSION.setOpaque(this, v + 1);
            VarHandle.storeStoreFence();
            this.operation = operation;
            this.communicator = communicator;
            this.members = members;
            this.sequence = sequence;
            this.root = root;
            this.type = buffer == null ? null : buffer.getClass();
            this.count = count;
            this.op = op;
            VERSION.setRelease(this, v + 2);
        }

        /** The owner leaves the collective it entered (call it in a finally). */
        public void exit() {
            if (--depth > 0) {
                return;
            }
            int v = (int) VERSION.getOpaque(this);
            VERSION.setOpaque(this, v + 1);
            VarHandle.storeStoreFence();
            operation = null; // the rest is read only with an operation: left as it is
            VERSION.setRelease(this, v + 2);
        }

        /** The collective now, or null if in none (or the slot kept changing while read). */
        @Override
        public CollectiveCall read() {
            for (int i = 0; i < READ_TRIES; i++) {
                int before = (int) VERSION.getAcquire(this);
                if ((before & 1) != 0) {
                    Thread.onSpinWait();
                    continue;
                }
                String operation = this.operation;
                int communicator = this.communicator;
                String members = this.members;
                long sequence = this.sequence;
                int root = this.root;
                long count = this.count;
                Class<?> type = this.type;
                String op = this.op;
                VarHandle.loadLoadFence();
                if ((int) VERSION.getOpaque(this) == before) {
                    return operation == null ? null
                            : new CollectiveCall(operation, communicator, members == null ? "" : members, sequence, root,
                                    type == null ? -1 : count, CollectiveCall.typeOf(type), op == null ? "" : op);
                }
            }
            return null;
        }
    }
}
