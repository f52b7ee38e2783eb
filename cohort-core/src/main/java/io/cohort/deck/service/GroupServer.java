package io.cohort.deck.service;

import io.cohort.Message;

import java.util.ArrayList;
import java.util.List;

/**
 * The server of one DECK group, in the peer that created it (DECK, section 4): the thread
 * {@code cohort-deck-group-<name>} keeps the {@link GroupMembership} and answers JOIN, LEAVE,
 * SYNC and DESTROY; broadcasts are handed to the group's own broadcaster thread
 * ({@code cohort-deck-bcast-<name>}), so the server never blocks on a member. The broadcaster
 * runs broadcasts one after another, so every member receives the group's broadcasts in the same
 * order; DESTROY is queued behind them, which is how destroy waits for broadcasts in flight.
 *
 * <p>Members are lost (removed, their pending sync failed) when a broadcast finds their mailbox
 * destroyed or their peer failed, and, while idle, when the engine reports their peer failed.
 *
 * <p>Threads: {@link #submit} from the engine's handler (any thread); everything else on the
 * server thread, except {@link #broadcast} and {@link #finishDestroy} on the broadcaster.
 */
final class GroupServer {
    private final PeerDeck deck;
    private final String name;
    private final int id;
    private final GroupMembership members;
    private final ServiceThread server;
    private final ServiceThread broadcaster;
    /** Server thread only. */
    private boolean destroying;
    private boolean stopped; // guarded by this

    GroupServer(PeerDeck deck, String name, int id, int minMembers) {
        this.deck = deck;
        this.name = name;
        this.id = id;
        this.members = new GroupMembership(minMembers);
        this.server = new ServiceThread("cohort-deck-group-" + name, deck.engine(), this::checkMembers);
        this.broadcaster = new ServiceThread("cohort-deck-bcast-" + name, deck.engine(), null);
    }

    int id() {
        return id;
    }

    String name() {
        return name;
    }

    /** Starts the server thread now (DECK: creating a group launches its server). */
    void start() {
        server.submit(() -> { });
    }

    /** Stops both threads without answering anyone (creation failed, or the peer is leaving). */
    synchronized void stop() {
        stopped = true;
        server.stop();
        broadcaster.stop();
    }

    /** A request that arrives once the server has stopped is answered at once: the group is gone. */
    synchronized void submit(Message m) {
        if (stopped) {
            deck.reply(m.source(), m.tag(), ReplyDescriptor.gone());
            return;
        }
        server.submit(() -> handle(m));
    }

    private void handle(Message m) {
        byte[] request = m.bytes();
        int source = m.source();
        int tag = m.tag();
        int argument = GroupRequestDescriptor.argument(request);
        if (destroying) {
            deck.reply(source, tag, ReplyDescriptor.failed("group '" + name + "' is being destroyed"));
            return;
        }
        switch (GroupRequestDescriptor.op(request)) {
            case GroupRequestDescriptor.OP_JOIN -> join(source, tag, argument);
            case GroupRequestDescriptor.OP_LEAVE -> leave(source, tag, argument);
            case GroupRequestDescriptor.OP_BCAST -> bcast(source, tag, GroupRequestDescriptor.body(request));
            case GroupRequestDescriptor.OP_SYNC -> sync(source, tag, argument);
            default -> {
                destroying = true;
                broadcaster.submit(() -> finishDestroy(source, tag));
            }
        }
    }

    private void join(int source, int tag, int mailboxId) {
        GroupMembership.Member already = members.memberWith(source, mailboxId);
        if (already != null) {
            deck.reply(source, tag, ReplyDescriptor.failed("that mailbox of rank " + source + " already is member "
                    + already.id() + " of group '" + name + "'"));
            return;
        }
        int member = members.join(source, mailboxId);
        deck.reply(source, tag, ReplyDescriptor.ok(member, members.size()));
    }

    private void leave(int source, int tag, int member) {
        if (!members.contains(member)) {
            deck.reply(source, tag, ReplyDescriptor.failed(notMember(member)));
            return;
        }
        if (members.rankOf(member) != source) {
            deck.reply(source, tag, ReplyDescriptor.failed(notYours(member, "leave")));
            return;
        }
        GroupMembership.Waiter w = members.remove(member);
        if (w != null) {
            deck.reply(w.rank(), w.replyTag(), ReplyDescriptor.failed("member " + member + " left group '" + name
                    + "' while waiting in sync"));
        }
        deck.reply(source, tag, ReplyDescriptor.ok(member, members.size()));
        release();
    }

    private String notYours(int member, String what) {
        return "member " + member + " of group '" + name + "' belongs to rank " + members.rankOf(member)
                + "; only that rank may " + what + " for it";
    }

    private void bcast(int source, int tag, byte[] body) {
        if (members.size() < members.minMembers()) {
            deck.reply(source, tag, ReplyDescriptor.failed("group '" + name + "' has " + members.size() + " member"
                    + (members.size() == 1 ? "" : "s") + ", fewer than its minimum of " + members.minMembers()
                    + "; broadcast once enough members have joined (sync waits for them)"));
            return;
        }
        List<GroupMembership.Member> to = members.snapshot();
        broadcaster.submit(() -> broadcast(to, source, tag, body));
    }

    private void sync(int source, int tag, int member) {
        if (!members.contains(member)) {
            deck.reply(source, tag, ReplyDescriptor.failed(notMember(member)));
            return;
        }
        if (members.rankOf(member) != source) {
            deck.reply(source, tag, ReplyDescriptor.failed(notYours(member, "sync")));
            return;
        }
        if (members.isSyncing(member)) {
            deck.reply(source, tag, ReplyDescriptor.failed("member " + member + " of group '" + name
                    + "' is already waiting in sync"));
            return;
        }
        members.sync(member, source, tag);
        release();
    }

    private void release() {
        for (GroupMembership.Waiter w : members.releasable()) {
            deck.reply(w.rank(), w.replyTag(), ReplyDescriptor.ok(members.size(), 0));
        }
    }

    private String notMember(int member) {
        return "member " + member + " is not in group '" + name + "' (it left, was never joined, or was lost)";
    }

    /** Server thread: removes members found unreachable, fails their syncs, releases the rest. */
    private void lose(List<GroupMembership.Member> lost, String why) {
        for (GroupMembership.Member m : lost) {
            if (!members.contains(m.id())) {
                continue;
            }
            GroupMembership.Waiter w = members.remove(m.id());
            if (w != null) {
                deck.reply(w.rank(), w.replyTag(), ReplyDescriptor.failed("member " + m.id() + " was removed from group '"
                        + name + "' because " + why));
            }
        }
        if (!destroying) {
            release();
        }
    }

    /** Server thread, when idle: members whose peer the engine knows to have failed are lost. */
    private void checkMembers() {
        List<GroupMembership.Member> dead = new ArrayList<>();
        List<GroupMembership.Member> closed = new ArrayList<>();
        for (GroupMembership.Member m : members.members()) {
            if (deck.engine().failure(m.rank()) != null) {
                dead.add(m);
            } else if (m.rank() != deck.engine().rank() && deck.engine().peerHasClosed(m.rank())) {
                closed.add(m);
            }
        }
        if (!dead.isEmpty()) {
            lose(dead, "its peer failed");
        }
        if (!closed.isEmpty()) {
            lose(closed, "its peer closed its world");
        }
    }

    /** Broadcaster thread: posts to every recipient, then answers the caller with the count reached. */
    private void broadcast(List<GroupMembership.Member> to, int origin, int tag, byte[] body) {
        byte[] outcome = deck.postToAll(to, origin, body);
        List<GroupMembership.Member> gone = new ArrayList<>();
        List<GroupMembership.Member> failed = new ArrayList<>();
        for (int i = 0; i < to.size(); i++) {
            if (outcome[i] == ReplyDescriptor.GONE) {
                gone.add(to.get(i));
            } else if (outcome[i] != ReplyDescriptor.OK) {
                failed.add(to.get(i));
            }
        }
        if (!gone.isEmpty()) {
            server.submit(() -> lose(gone, "its mailbox was destroyed"));
        }
        if (!failed.isEmpty()) {
            server.submit(() -> lose(failed, "its peer failed"));
        }
        deck.reply(origin, tag, ReplyDescriptor.ok(to.size() - gone.size() - failed.size(), to.size()));
    }

    /** Broadcaster thread, behind every broadcast accepted before: unregister, then finish on the server. */
    private void finishDestroy(int source, int tag) {
        try {
            deck.unregister(NamingRequestDescriptor.KIND_GROUP, name, id);
        } catch (RuntimeException e) {
            // The naming service is gone (rank 0 failed): there is nothing left to unregister from.
        }
        server.submit(() -> {
            for (GroupMembership.Waiter w : members.drainSyncs()) {
                deck.reply(w.rank(), w.replyTag(), ReplyDescriptor.failed("group '" + name + "' was destroyed while member "
                        + w.memberId() + " waited in sync"));
            }
            deck.forget(this);
            deck.reply(source, tag, ReplyDescriptor.ok(0, 0));
            stop();
        });
    }
}
