package io.cohort.engine;

import io.cohort.Message;
import io.cohort.Status;
import io.cohort.transport.InboundTarget;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The immutable table of contexts whose arrivals {@link ProgressEngine} hands to a handler instead
 * of matching them (see {@link ProgressEngine#onContext}). A new table replaces the old one on each
 * registration, so the arrival path reads one field and scans a handful of ints without a lock.
 *
 * <p>Threads: tables are immutable and shared freely; {@link Collect} targets belong to the one
 * transport thread filling them.
 */
final class ContextHandlers {
    private final int[] contexts;
    private final Consumer<Message>[] handlers;
    /** The lowest handled context: services use the top of the range, communicators the bottom. */
    private final int lowest;

    private ContextHandlers(int[] contexts, Consumer<Message>[] handlers) {
        this.contexts = contexts;
        this.handlers = handlers;
        int min = Integer.MAX_VALUE;
        for (int c : contexts) {
            min = Math.min(min, c);
        }
        this.lowest = min;
    }

    @SuppressWarnings("unchecked")
    static ContextHandlers with(ContextHandlers old, int context, Consumer<Message> handler) {
        int n = old == null ? 0 : old.contexts.length;
        int[] c = old == null ? new int[1] : Arrays.copyOf(old.contexts, n + 1);
        Consumer<Message>[] h = old == null ? new Consumer[1] : Arrays.copyOf(old.handlers, n + 1);
        c[n] = context;
        h[n] = handler;
        return new ContextHandlers(c, h);
    }

    Consumer<Message> find(int context) {
        if (context < lowest) {
            return null; // every communicator's message: one compare
        }
        int[] c = contexts;
        for (int i = 0; i < c.length; i++) {
            if (c[i] == context) {
                return handlers[i];
            }
        }
        return null;
    }

    /**
     * Calls the handler; a handler that throws breaks its own service, never the transport that
     * is delivering (which may be in the middle of a frame), so the failure is only reported.
     */
    static void hand(Consumer<Message> handler, Message m) {
        try {
            handler.accept(m);
        } catch (RuntimeException | Error e) {
            System.err.println("cohort: a context handler failed on " + m + ": " + e);
        }
    }

    /** Collects a message that arrives in pieces, then hands it over whole. */
    static final class Collect implements InboundTarget {
        private final Consumer<Message> handler;
        private final Status status;
        private final byte[] bytes;
        private final ByteBuffer buffer;

        Collect(Consumer<Message> handler, int source, int tag, int length) {
            this.handler = handler;
            this.status = new Status(source, tag, length);
            this.bytes = new byte[length];
            this.buffer = ByteBuffer.wrap(bytes);
        }

        @Override
        public ByteBuffer buffer() {
            return buffer;
        }

        @Override
        public void complete() {
            hand(handler, new Message(status, bytes));
        }
    }
}
