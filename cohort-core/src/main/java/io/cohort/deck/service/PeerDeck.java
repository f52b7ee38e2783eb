package io.cohort.deck.service;

import io.cohort.Communicator;
import io.cohort.Message;
import io.cohort.PeerClosedException;
import io.cohort.PeerFailedException;
import io.cohort.Request;
import io.cohort.comm.EngineCommunicator;
import io.cohort.deck.Deck;
import io.cohort.deck.DeckException;
import io.cohort.deck.Mailbox;
import io.cohort.engine.Payloads;
import io.cohort.engine.ProgressEngine;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One peer's {@link Deck}: the client side of DECK's services (DECK paper, section 4) over the
 * peer's engine, and the home of the peer's servers: the {@link PostOffice} for its mailboxes, the
 * {@link GroupRouter} for the groups it serves and, on rank 0, the {@link NamingServer}. Every call
 * that asks a server sends a request on a DECK context and waits for the reply with an ordinary
 * receive (so the calling thread drives progress as any receive does).
 *
 * <p>Threads: any thread of the peer may call any method, concurrently.
 */
public final class PeerDeck extends Deck {
    private static final String NAMING_SERVICE = "the DECK naming service";

    private final ProgressEngine engine;
    private final PostOffice postOffice;
    private final GroupRouter router;
    private final AtomicInteger tags = new AtomicInteger();
    private final AtomicInteger mailboxIds = new AtomicInteger();
    private final AtomicInteger groupIds = new AtomicInteger();
    /** Names already looked up: "kind:name" to the owner's address. */
    private final Map<String, Address> addresses = new ConcurrentHashMap<>();

    private record Address(int rank, int id) {
    }

    /** A mailbox's membership: member {@code member} of the group whose server is at {@code server}. */
    record Membership(String group, Address server, int member) {
    }

    private PeerDeck(ProgressEngine engine) {
        this.engine = engine;
        this.postOffice = new PostOffice(this);
        this.router = new GroupRouter(postOffice);
    }

    /**
     * Installs DECK's handlers in a peer's engine (rank 0 also gets the naming service) and
     * returns the peer's Deck; later calls return the same one. The runtime calls this when it
     * makes each engine, before any peer can send, so the naming service runs from the start;
     * it costs three table entries and starts no thread.
     */
    public static PeerDeck install(ProgressEngine engine) {
        synchronized (PeerDeck.class) {
            Consumer<Message> installed = engine.contextHandler(DeckContexts.MAILBOX);
            if (installed instanceof PostOffice p) {
                return p.deck();
            }
            PeerDeck deck = new PeerDeck(engine);
            if (engine.rank() == 0) {
                engine.onContext(DeckContexts.NAMING, new NamingServer(deck));
            }
            engine.onContext(DeckContexts.GROUP, deck.router);
            engine.onContext(DeckContexts.MAILBOX, deck.postOffice); // last: its presence means "installed"
            return deck;
        }
    }

    /** {@link Deck#of}: the Deck of the peer that owns {@code comm}. */
    public static PeerDeck of(Communicator comm) {
        if (!(comm instanceof EngineCommunicator ec)) {
            throw new IllegalArgumentException("DECK needs a communicator made by Cohort.init or LocalCohort, not "
                    + comm.getClass().getName());
        }
        if (ec.isClosed()) {
            throw new IllegalStateException("this communicator is closed; DECK needs an open one");
        }
        return install(ec.engine());
    }

    @Override
    public int rank() {
        return engine.rank();
    }

    ProgressEngine engine() {
        return engine;
    }

    // ---- mailboxes ---------------------------------------------------------------------------------

    @Override
    public Mailbox createMailbox(String name) {
        byte[] encoded = DeckNames.encode(name);
        PeerMailbox box = new PeerMailbox(this, name, mailboxIds.incrementAndGet());
        postOffice.open(box);
        try {
            register(NamingRequestDescriptor.KIND_MAILBOX, box.id(), encoded);
        } catch (RuntimeException e) {
            postOffice.close(box);
            throw e;
        }
        addresses.put(key(NamingRequestDescriptor.KIND_MAILBOX, name), new Address(rank(), box.id()));
        return box;
    }

    @Override
    public void post(String mailbox, byte[] message) {
        if (message == null) {
            throw new IllegalArgumentException("post to '" + mailbox + "': the message is null; post an empty array for none");
        }
        int origin = rank();
        callAddressed(NamingRequestDescriptor.KIND_MAILBOX, mailbox, DeckContexts.MAILBOX,
                a -> MailboxPostDescriptor.encode(a.id(), origin, message, 0, message.length));
    }

    @Override
    public void postObject(String mailbox, Serializable message) {
        post(mailbox, Payloads.ofObject(message));
    }

    void destroyMailbox(PeerMailbox box) {
        if (box.isDestroyed()) {
            return;
        }
        postOffice.close(box);
        addresses.remove(key(NamingRequestDescriptor.KIND_MAILBOX, box.name()), new Address(rank(), box.id()));
        if (!engine.isClosed()) {
            // Leave its groups now: a member whose mailbox is gone would otherwise hold a sync until
            // the next broadcast found it gone. A group destroyed meanwhile or a membership already
            // ended refuses the leave, which changes nothing.
            for (Membership m : box.memberships) {
                leaveQuietly(m);
            }
            unregister(NamingRequestDescriptor.KIND_MAILBOX, box.name(), box.id());
        }
        box.memberships.clear();
    }

    /**
     * Leaves {@code m}'s group at the server it was joined at (never a group re-created under the
     * name since, whose member ids start again). A group gone meanwhile, a membership already ended
     * or an engine closing refuses it, which changes nothing.
     */
    private void leaveQuietly(Membership m) {
        try {
            call(m.server().rank(), DeckContexts.GROUP,
                    GroupRequestDescriptor.encode(GroupRequestDescriptor.OP_LEAVE, m.server().id(), m.member(), null),
                    "the group '" + m.group() + "'");
        } catch (RuntimeException gone) { // DeckException, a failed or closed peer, a closing engine
            // nothing to leave
        }
    }

    // ---- groups ------------------------------------------------------------------------------------

    @Override
    public void createGroup(String name, int minMembers) {
        byte[] encoded = DeckNames.encode(name);
        if (minMembers < 0) {
            throw new IllegalArgumentException("a group's minimum number of members cannot be negative; got " + minMembers);
        }
        GroupServer server = new GroupServer(this, name, groupIds.incrementAndGet(), minMembers);
        router.add(server);
        try {
            register(NamingRequestDescriptor.KIND_GROUP, server.id(), encoded);
        } catch (RuntimeException e) {
            router.remove(server);
            server.stop();
            throw e;
        }
        server.start();
        addresses.put(key(NamingRequestDescriptor.KIND_GROUP, name), new Address(rank(), server.id()));
    }

    @Override
    public int join(String group, Mailbox mailbox) {
        if (mailbox == null) {
            throw new IllegalArgumentException("join group '" + group + "': the mailbox is null; create one with createMailbox");
        }
        if (!(mailbox instanceof PeerMailbox box) || box.deck() != this) {
            throw new IllegalArgumentException("mailbox '" + mailbox.name() + "' belongs to rank " + mailbox.owner()
                    + "; join with a mailbox this peer created");
        }
        if (box.isDestroyed()) {
            throw new DeckException("mailbox '" + mailbox.name() + "' was destroyed; it cannot join group '" + group + "'");
        }
        Address[] at = new Address[1];
        byte[] r = groupCall(group, GroupRequestDescriptor.OP_JOIN, box.id(), null, a -> at[0] = a);
        Membership m = new Membership(group, at[0], ReplyDescriptor.a(r));
        box.memberships.add(m);
        if (box.isDestroyed() && box.memberships.remove(m)) {
            leaveQuietly(m); // closed while the join was under way: its close did not see this one
            throw new DeckException("mailbox '" + mailbox.name() + "' was destroyed while it joined group '" + group + "'");
        }
        return m.member();
    }

    @Override
    public void leave(String group, int memberId) {
        Address[] at = new Address[1];
        groupCall(group, GroupRequestDescriptor.OP_LEAVE, memberId, null, a -> at[0] = a);
        Membership left = new Membership(group, at[0], memberId);
        for (PeerMailbox box : postOffice.mailboxes()) {
            box.memberships.remove(left);
        }
    }

    @Override
    public int bcast(String group, byte[] message) {
        if (message == null) {
            throw new IllegalArgumentException("bcast to group '" + group + "': the message is null; send an empty array for none");
        }
        return ReplyDescriptor.a(groupCall(group, GroupRequestDescriptor.OP_BCAST, 0, message));
    }

    @Override
    public int bcastObject(String group, Serializable message) {
        return bcast(group, Payloads.ofObject(message));
    }

    @Override
    public void sync(String group, int memberId) {
        groupCall(group, GroupRequestDescriptor.OP_SYNC, memberId, null);
    }

    @Override
    public void destroyGroup(String group) {
        groupCall(group, GroupRequestDescriptor.OP_DESTROY, 0, null);
        addresses.remove(key(NamingRequestDescriptor.KIND_GROUP, group));
    }

    void forget(GroupServer server) {
        router.remove(server);
        addresses.remove(key(NamingRequestDescriptor.KIND_GROUP, server.name()), new Address(rank(), server.id()));
    }

    private byte[] groupCall(String group, byte op, int argument, byte[] body) {
        return groupCall(group, op, argument, body, a -> { });
    }

    /** As above, telling {@code at} the address of the group's server the answer came from. */
    private byte[] groupCall(String group, byte op, int argument, byte[] body, Consumer<Address> at) {
        return callAddressed(NamingRequestDescriptor.KIND_GROUP, group, DeckContexts.GROUP, a -> {
            at.accept(a);
            return GroupRequestDescriptor.encode(op, a.id(), argument, body);
        });
    }

    // ---- talking to servers ------------------------------------------------------------------------

    /**
     * Sends a request to whoever owns {@code name} and returns the OK reply. A GONE reply means the
     * address was stale (destroyed, maybe re-created elsewhere): look the name up again, once.
     */
    private byte[] callAddressed(byte kind, String name, int context, Function<Address, byte[]> request) {
        String key = key(kind, name);
        String what = NamingRequestDescriptor.kindName(kind);
        for (int attempt = 0; ; attempt++) {
            Address a = attempt == 0 ? addresses.get(key) : null;
            if (a == null) {
                a = lookup(kind, name);
                addresses.put(key, a);
            }
            byte[] r;
            try {
                r = call(a.rank(), context, request.apply(a), "the " + what + " '" + name + "'");
            } catch (PeerFailedException e) {
                addresses.remove(key, a);
                throw e;
            }
            byte status = ReplyDescriptor.status(r);
            if (status == ReplyDescriptor.OK) {
                return r;
            }
            if (status == ReplyDescriptor.FAILED) {
                throw new DeckException(ReplyDescriptor.text(r));
            }
            addresses.remove(key, a);
            if (attempt > 0) {
                throw new DeckException("the " + what + " '" + name + "' was destroyed"
                        + (kind == NamingRequestDescriptor.KIND_MAILBOX ? " and accepts no more posts" : ""));
            }
        }
    }

    private Address lookup(byte kind, String name) {
        byte[] r = call(0, DeckContexts.NAMING,
                NamingRequestDescriptor.encode(NamingRequestDescriptor.OP_LOOKUP, kind, 0, DeckNames.encode(name)),
                NAMING_SERVICE);
        if (ReplyDescriptor.status(r) != ReplyDescriptor.OK) {
            throw new DeckException(ReplyDescriptor.text(r));
        }
        return new Address(ReplyDescriptor.a(r), ReplyDescriptor.b(r));
    }

    private void register(byte kind, int id, byte[] name) {
        byte[] r = call(0, DeckContexts.NAMING,
                NamingRequestDescriptor.encode(NamingRequestDescriptor.OP_REGISTER, kind, id, name), NAMING_SERVICE);
        if (ReplyDescriptor.status(r) != ReplyDescriptor.OK) {
            throw new DeckException(ReplyDescriptor.text(r));
        }
    }

    /** Removes a binding this peer made; a naming service that is gone has nothing left to remove. */
    void unregister(byte kind, String name, int id) {
        try {
            call(0, DeckContexts.NAMING,
                    NamingRequestDescriptor.encode(NamingRequestDescriptor.OP_UNREGISTER, kind, id, DeckNames.encode(name)),
                    NAMING_SERVICE);
        } catch (PeerFailedException e) {
            // rank 0 failed: the job is ending, and the names went with it.
        }
    }

    /**
     * One request and its reply: posts the receive for the reply first, then sends. Waiting is an
     * ordinary receive, so the caller drives progress (and hears of the server's peer failing).
     */
    private byte[] call(int dest, int context, byte[] request, String server) {
        int tag = nextTag();
        Request answer = engine.receive(DeckContexts.REPLY, dest, tag, null);
        try {
            engine.send(dest, context, tag, ByteBuffer.wrap(request)); // a failed send fails the receive too
            answer.await();
        } catch (PeerFailedException e) {
            throw new PeerFailedException(e.peer(), server + " on rank " + dest + " cannot be reached: " + e.getMessage());
        }
        byte[] r = answer.message().bytes();
        if (!ReplyDescriptor.isValid(r)) {
            throw new DeckException("rank " + dest + " sent a malformed DECK reply; run every peer with the same Cohort version");
        }
        return r;
    }

    /**
     * Broadcaster threads: posts {@code body} to every member's mailbox, all sends first, then the
     * acknowledgements; returns per member OK, GONE (mailbox destroyed) or FAILED (peer failed).
     */
    byte[] postToAll(List<GroupMembership.Member> to, int origin, byte[] body) {
        Request[] acks = new Request[to.size()];
        byte[] outcome = new byte[to.size()];
        for (int i = 0; i < acks.length; i++) {
            GroupMembership.Member m = to.get(i);
            int tag = nextTag();
            try {
                acks[i] = engine.receive(DeckContexts.REPLY, m.rank(), tag, null);
                engine.send(m.rank(), DeckContexts.MAILBOX, tag,
                        ByteBuffer.wrap(MailboxPostDescriptor.encode(m.mailboxId(), origin, body, 0, body.length)));
            } catch (PeerFailedException | PeerClosedException gone) {
                // A member whose peer failed or closed its world: dropped like one whose mailbox is gone.
                if (acks[i] != null) {
                    acks[i].cancel();
                }
                acks[i] = null;
                outcome[i] = ReplyDescriptor.FAILED;
            }
        }
        for (int i = 0; i < acks.length; i++) {
            if (acks[i] == null) {
                continue;
            }
            try {
                acks[i].await();
                byte[] r = acks[i].message().bytes();
                outcome[i] = ReplyDescriptor.isValid(r) ? ReplyDescriptor.status(r) : ReplyDescriptor.FAILED;
            } catch (PeerFailedException | PeerClosedException gone) {
                outcome[i] = ReplyDescriptor.FAILED;
            }
        }
        return outcome;
    }

    /** Service threads: sends a reply and does not wait (a peer that is gone simply never gets it). */
    void reply(int dest, int tag, byte[] reply) {
        if (!engine.isClosed()) {
            try {
                engine.send(dest, DeckContexts.REPLY, tag, ByteBuffer.wrap(reply));
            } catch (IllegalStateException closed) {
                // closed between the check and the send: nobody is left to answer
            }
        }
    }

    /** A tag no other request of this peer is waiting on: 1 to Integer.MAX_VALUE, then round again. */
    private int nextTag() {
        return tags.updateAndGet(t -> t == Integer.MAX_VALUE ? 1 : t + 1);
    }

    private static String key(byte kind, String name) {
        return kind + ":" + name;
    }

    @Override
    public String toString() {
        return "Deck[rank " + rank() + "]";
    }
}
