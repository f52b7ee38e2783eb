package io.cohort.deck.service;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A group server's state: the members (each a mailbox, by owner rank and mailbox id), the
 * members waiting in sync, and when they may be released. Member ids start at 1 and are never
 * reused within a group.
 *
 * <p>Sync rule (DECK, section 4.4): a sync is released once every current member has called it
 * and the group has at least its minimum of members; members that leave or are lost no longer
 * count, members that join while others wait must sync too.
 *
 * <p>Threads: only the group server's thread.
 */
final class GroupMembership {
    record Member(int id, int rank, int mailboxId) {
    }

    /** A member's pending sync: where to send its release. */
    record Waiter(int memberId, int rank, int replyTag) {
    }

    private final int minMembers;
    private final Map<Integer, Member> members = new LinkedHashMap<>();
    private final Map<Integer, Waiter> syncing = new LinkedHashMap<>();
    private int nextId = 1;

    GroupMembership(int minMembers) {
        this.minMembers = minMembers;
    }

    int minMembers() {
        return minMembers;
    }

    int size() {
        return members.size();
    }

    /** The member already using this mailbox, or null. */
    Member memberWith(int rank, int mailboxId) {
        for (Member m : members.values()) {
            if (m.rank() == rank && m.mailboxId() == mailboxId) {
                return m;
            }
        }
        return null;
    }

    /** Adds a member and returns its id. */
    int join(int rank, int mailboxId) {
        int id = nextId++;
        members.put(id, new Member(id, rank, mailboxId));
        return id;
    }

    boolean contains(int memberId) {
        return members.containsKey(memberId);
    }

    /** The rank whose mailbox member {@code memberId} is; only it may leave or sync for it. -1 if no such member. */
    int rankOf(int memberId) {
        Member m = members.get(memberId);
        return m == null ? -1 : m.rank();
    }

    /** Removes a member; returns its pending sync (which will never be released), or null. */
    Waiter remove(int memberId) {
        members.remove(memberId);
        return syncing.remove(memberId);
    }

    /** The members now, in joining order: a broadcast's recipients. */
    List<Member> snapshot() {
        return new ArrayList<>(members.values());
    }

    Collection<Member> members() {
        return members.values();
    }

    boolean isSyncing(int memberId) {
        return syncing.containsKey(memberId);
    }

    void sync(int memberId, int rank, int replyTag) {
        syncing.put(memberId, new Waiter(memberId, rank, replyTag));
    }

    /** The syncs to release now (all of them, and forgets them), or an empty list. */
    List<Waiter> releasable() {
        if (syncing.isEmpty() || members.size() < minMembers || !syncing.keySet().containsAll(members.keySet())) {
            return List.of();
        }
        List<Waiter> all = new ArrayList<>(syncing.values());
        syncing.clear();
        return all;
    }

    /** Forgets every pending sync and returns them (the group is being destroyed). */
    List<Waiter> drainSyncs() {
        List<Waiter> all = new ArrayList<>(syncing.values());
        syncing.clear();
        return all;
    }
}
