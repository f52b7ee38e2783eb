/**
 * DECK's API (the DECK paper, section 4; issue 6, part 5): {@link io.cohort.deck.Deck#of} gives a
 * peer's door to the services. Mailboxes ({@link io.cohort.deck.Mailbox}) are created by one
 * peer, registered by name with the naming service on rank 0, posted to by anyone and taken from
 * by their creator only ({@link io.cohort.deck.Mail}). A group is served by a thread in the peer
 * that created it; members join with a mailbox, broadcasts are posted to every member's mailbox,
 * and sync releases the members once all have called it. See {@code docs/deck.md}.
 *
 * <p>Threads: any thread of the peer may call any method, concurrently.
 *
 * <p>An API package: it depends on {@code io.cohort} and the JDK only. The services themselves
 * are {@code io.cohort.deck.service}'s.
 */
package io.cohort.deck;
