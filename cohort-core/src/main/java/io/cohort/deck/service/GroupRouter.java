package io.cohort.deck.service;

import io.cohort.Message;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Hands requests arriving on {@link DeckContexts#GROUP} to the server of the group they name
 * (one peer may serve many groups); requests for a group this peer no longer serves are answered
 * GONE by the post office, so the caller looks the name up again.
 *
 * <p>Threads: {@link #accept} on whichever thread delivers; the rest from any thread.
 */
final class GroupRouter implements Consumer<Message> {
    private final PostOffice postOffice;
    private final Map<Integer, GroupServer> servers = new ConcurrentHashMap<>();
    private final AtomicLong malformed = new AtomicLong();

    GroupRouter(PostOffice postOffice) {
        this.postOffice = postOffice;
    }

    void add(GroupServer server) {
        servers.put(server.id(), server);
    }

    void remove(GroupServer server) {
        servers.remove(server.id(), server);
    }

    @Override
    public void accept(Message m) {
        byte[] request = m.bytes();
        if (!GroupRequestDescriptor.isValid(request)) {
            malformed.incrementAndGet();
            return;
        }
        GroupServer server = servers.get(GroupRequestDescriptor.groupId(request));
        if (server == null) {
            postOffice.answer(m.source(), m.tag(), ReplyDescriptor.gone());
        } else {
            server.submit(m);
        }
    }

    long malformed() {
        return malformed.get();
    }
}
