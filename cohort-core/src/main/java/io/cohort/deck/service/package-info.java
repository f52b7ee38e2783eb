/**
 * DECK's services behind the API of {@code io.cohort.deck}: the group communication service,
 * mailboxes and the naming service (the DECK paper, section 4; issue 6, part 5), on top of the
 * progress engine.
 *
 * <p>{@link io.cohort.deck.service.PeerDeck} is a peer's {@link io.cohort.deck.Deck}, which
 * {@link io.cohort.deck.Deck#of} finds through the provider. Mailboxes are created by
 * one peer, registered by name with the naming service on rank 0, posted to by anyone and taken
 * from by their creator only. A group is served by a thread in the peer that created it; members
 * join with a mailbox, broadcasts are posted to every member's mailbox by the group's broadcaster
 * thread, and sync releases the members once all have called it. See {@code docs/deck.md}.
 *
 * <p>Transport: DECK's messages travel on the contexts of {@link io.cohort.deck.service.DeckContexts}
 * (the top sixteen, which no communicator may use). Requests reach their servers through
 * {@link io.cohort.engine.ProgressEngine#onContext} handlers that only enqueue; servers are plain
 * Java threads waiting on Java queues, so none of them ever holds the engine's progress role while
 * idle. Replies are ordinary matched receives. Every wire message is described in one
 * {@code *Descriptor} class.
 *
 * <p>Threads: the public API may be called from any thread of the peer; each class says which of
 * DECK's own threads ({@code cohort-deck-names}, {@code cohort-deck-post-<rank>},
 * {@code cohort-deck-group-<name>}, {@code cohort-deck-bcast-<name>}) runs it.
 *
 * <p>May depend on {@code io.cohort}, {@code io.cohort.deck} (the API it implements),
 * {@code io.cohort.engine} and {@code io.cohort.comm} (a communicator's engine); the runtime
 * ({@code io.cohort.wireup}) calls {@link io.cohort.deck.service.PeerDeck#install} when it makes
 * an engine.
 */
package io.cohort.deck.service;
