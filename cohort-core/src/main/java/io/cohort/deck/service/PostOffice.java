package io.cohort.deck.service;

import io.cohort.Message;
import io.cohort.deck.Mail;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Delivers posts to this peer's mailboxes: the {@link io.cohort.engine.ProgressEngine#onContext}
 * handler of {@link DeckContexts#MAILBOX} puts each post straight into its mailbox's queue (a
 * waiting taker wakes at once), and the {@code cohort-deck-post-<rank>} thread answers the poster:
 * OK, or GONE for a mailbox that was destroyed. The same thread answers GONE to requests for
 * groups this peer no longer serves.
 *
 * <p>Threads: {@link #accept} on whichever thread delivers; the rest from any thread.
 */
final class PostOffice implements Consumer<Message> {
    private final PeerDeck deck;
    private final Map<Integer, PeerMailbox> mailboxes = new ConcurrentHashMap<>();

    /** The open mailboxes of this peer. */
    java.util.Collection<PeerMailbox> mailboxes() {
        return mailboxes.values();
    }
    private final ServiceThread thread;
    private final AtomicLong malformed = new AtomicLong();

    PostOffice(PeerDeck deck) {
        this.deck = deck;
        // concat, not +: this runs on every peer's start-up, where linking an indy concatenation costs
        this.thread = new ServiceThread("cohort-deck-post-".concat(Integer.toString(deck.rank())), deck.engine(), null);
    }

    PeerDeck deck() {
        return deck;
    }

    void open(PeerMailbox box) {
        mailboxes.put(box.id(), box);
    }

    void close(PeerMailbox box) {
        mailboxes.remove(box.id(), box);
        box.markDestroyed();
    }

    @Override
    public void accept(Message m) {
        byte[] post = m.bytes();
        if (!MailboxPostDescriptor.isValid(post)) {
            malformed.incrementAndGet();
            return;
        }
        PeerMailbox box = mailboxes.get(MailboxPostDescriptor.mailboxId(post));
        // In the box before the reply (a poster whose post returned finds it there), but handed
        // to the owner only once the reply is sent (the mailbox waits for it).
        PeerMailbox.Delivery mail = new PeerMailbox.Delivery(
                new Mail(MailboxPostDescriptor.origin(post), MailboxPostDescriptor.body(post)));
        boolean delivered = box != null && box.deliver(mail);
        byte[] reply = delivered ? ReplyDescriptor.ok(0, 0) : ReplyDescriptor.gone();
        int dest = m.source();
        int tag = m.tag();
        thread.submit(() -> {
            try {
                deck.reply(dest, tag, reply);
            } finally {
                mail.answered();
            }
        });
    }

    /** Sends a reply from the post office's thread (handlers must not send). */
    void answer(int dest, int tag, byte[] reply) {
        thread.submit(() -> deck.reply(dest, tag, reply));
    }

    long malformed() {
        return malformed.get();
    }
}
