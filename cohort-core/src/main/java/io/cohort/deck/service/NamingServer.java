package io.cohort.deck.service;

import io.cohort.Message;
import io.cohort.engine.ProgressEngine;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * DECK's name server, on rank 0: the {@link io.cohort.engine.ProgressEngine#onContext} handler of
 * {@link DeckContexts#NAMING} queues each request for the {@code cohort-deck-names} thread, which
 * answers it from the {@link NameTable}. Installed with the engine, before any peer can ask, so it
 * "starts automatically"; the thread itself starts with the first request.
 *
 * <p>Threads: {@link #accept} on whichever thread delivers; the table on the server thread only.
 */
final class NamingServer implements Consumer<Message> {
    private final PeerDeck deck;
    private final NameTable table;
    private final ServiceThread thread;
    private final AtomicLong malformed = new AtomicLong();

    NamingServer(PeerDeck deck) {
        this.deck = deck;
        ProgressEngine engine = deck.engine();
        // An anonymous class, not a method reference: this runs on every job's start-up path,
        // where linking a lambda costs more than the whole install (see ParentWatch).
        this.table = new NameTable(new IntFunction<String>() {
            @Override
            public String apply(int rank) {
                return engine.failure(rank);
            }
        });
        this.thread = new ServiceThread("cohort-deck-names", deck.engine(), null);
    }

    @Override
    public void accept(Message m) {
        byte[] request = m.bytes();
        if (!NamingRequestDescriptor.isValid(request)) {
            malformed.incrementAndGet(); // foreign or damaged: counted and dropped, never answered
            return;
        }
        thread.submit(() -> deck.reply(m.source(), m.tag(), table.handle(m.source(), request)));
    }

    /** Requests dropped as malformed. */
    long malformed() {
        return malformed.get();
    }
}
