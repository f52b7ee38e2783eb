package io.cohort.deck.service;

import java.util.HashMap;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * The naming service's table: job-wide names of mailboxes and groups, each bound to its owner's
 * rank and local id. Answers requests with {@link ReplyDescriptor} replies; the sentences are the
 * errors users see. An entry whose owner has failed is dropped when next asked for.
 *
 * <p>Threads: only the naming server's thread.
 */
final class NameTable {
    record Entry(byte kind, int rank, int id) {
    }

    private final Map<String, Entry> entries = new HashMap<>();
    private final IntFunction<String> failureOf;

    /** {@code failureOf} gives the reason a rank failed, or null while it is alive. */
    NameTable(IntFunction<String> failureOf) {
        this.failureOf = failureOf;
    }

    /** Serves one well-formed {@link NamingRequestDescriptor} request from {@code source}. */
    byte[] handle(int source, byte[] request) {
        byte kind = NamingRequestDescriptor.kind(request);
        int id = NamingRequestDescriptor.id(request);
        String name = NamingRequestDescriptor.name(request);
        switch (NamingRequestDescriptor.op(request)) {
            case NamingRequestDescriptor.OP_REGISTER:
                return register(name, kind, source, id);
            case NamingRequestDescriptor.OP_LOOKUP:
                return lookup(name, kind);
            default:
                return unregister(name, kind, source, id);
        }
    }

    byte[] register(String name, byte kind, int rank, int id) {
        Entry e = live(name);
        if (e != null) {
            return ReplyDescriptor.failed("the name '" + name + "' is already taken by a "
                    + NamingRequestDescriptor.kindName(e.kind()) + " of rank " + e.rank()
                    + "; DECK names are job-wide, so choose another");
        }
        entries.put(name, new Entry(kind, rank, id));
        return ReplyDescriptor.ok(rank, id);
    }

    byte[] lookup(String name, byte kind) {
        Entry e = entries.get(name);
        String kindName = NamingRequestDescriptor.kindName(kind);
        if (e != null && failureOf.apply(e.rank()) != null) {
            entries.remove(name);
            return ReplyDescriptor.failed("the " + kindName + " '" + name + "' was on rank " + e.rank()
                    + ", which has failed (" + failureOf.apply(e.rank()) + ")");
        }
        if (e == null) {
            return ReplyDescriptor.failed("no " + kindName + " named '" + name + "' exists; it was never created or has been"
                    + " destroyed (create it with create" + (kind == NamingRequestDescriptor.KIND_GROUP ? "Group" : "Mailbox")
                    + " first)");
        }
        if (e.kind() != kind) {
            return ReplyDescriptor.failed("'" + name + "' names a " + NamingRequestDescriptor.kindName(e.kind()) + ", not a "
                    + kindName);
        }
        return ReplyDescriptor.ok(e.rank(), e.id());
    }

    byte[] unregister(String name, byte kind, int rank, int id) {
        Entry e = entries.get(name);
        if (e == null || e.kind() != kind || e.id() != id || e.rank() != rank) {
            return ReplyDescriptor.failed("no " + NamingRequestDescriptor.kindName(kind) + " named '" + name
                    + "' is registered by rank " + rank + " to unregister");
        }
        entries.remove(name);
        return ReplyDescriptor.ok(rank, id);
    }

    int size() {
        return entries.size();
    }

    /** The entry for {@code name}, dropping it first if its owner has failed. */
    private Entry live(String name) {
        Entry e = entries.get(name);
        if (e != null && failureOf.apply(e.rank()) != null) {
            entries.remove(name);
            return null;
        }
        return e;
    }
}
