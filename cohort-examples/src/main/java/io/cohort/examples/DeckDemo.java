package io.cohort.examples;

import io.cohort.Cohort;
import io.cohort.Communicator;
import io.cohort.deck.Deck;
import io.cohort.deck.Mail;
import io.cohort.deck.Mailbox;

/**
 * DECK's group service and mailboxes across processes: rank 0 creates the group "deck-demo"
 * (its server thread runs in rank 0) with every peer as its minimum; each peer registers a
 * mailbox, joins with it and syncs; rank 0 broadcasts a task to the group; every member computes
 * its share of the sum of squares 1..N and posts it to rank 0's mailbox; rank 0 checks the total.
 * Then rank 0 destroys the group and shows that posting to a destroyed mailbox fails clearly.
 * Argument: N (default 100000).
 */
public final class DeckDemo {
    private DeckDemo() {
    }

    public static void main(String[] args) {
        long n = Argument.wholeNumber("deck", args, 100_000L);
        try (Communicator world = Cohort.init()) {
            int rank = world.rank();
            int size = world.size();
            Deck deck = Deck.of(world);
            if (rank == 0) {
                deck.createGroup("deck-demo", size);
            }
            Mailbox inbox = deck.createMailbox("inbox-" + rank);
            world.barrier(); // the group exists before anyone joins
            int me = deck.join("deck-demo", inbox);
            deck.sync("deck-demo", me); // returns once all `size` members have joined and synced
            if (rank == 0) {
                int reached = deck.bcastObject("deck-demo", new long[] {n});
                if (reached != size) {
                    throw new IllegalStateException("the task reached " + reached + " of " + size + " members");
                }
            }
            long total = 0;
            int results = 0;
            boolean tasked = false;
            // Rank 0's inbox gets the task and everyone's partial sums, in whatever order they come.
            while (!tasked || (rank == 0 && results < size)) {
                Mail m = inbox.take();
                Object o = m.asObject();
                if (o instanceof long[] task) {
                    tasked = true;
                    deck.postObject("inbox-0", partial(task[0], rank, size));
                } else {
                    total += (Long) o;
                    results++;
                }
            }
            deck.sync("deck-demo", me);
            deck.leave("deck-demo", me);
            inbox.close();
            world.barrier(); // every mailbox is closed: the posts below must fail
            if (rank == 0) {
                deck.destroyGroup("deck-demo");
                String refused;
                try {
                    deck.post("inbox-" + (size - 1), new byte[1]);
                    refused = "accepted (WRONG)";
                } catch (RuntimeException e) {
                    refused = "refused: " + e.getMessage();
                }
                long expected = n * (n + 1) * (2 * n + 1) / 6;
                System.out.println("deck: " + Words.count(size, "peer") + " joined group 'deck-demo', sum of squares 1.." + n + " = "
                        + total + (total == expected ? " (correct)" : " (WRONG, expected " + expected + ")"));
                System.out.println("deck: a post to a destroyed mailbox was " + refused);
                if (total != expected) {
                    System.exit(1);
                }
            }
            world.barrier(); // rank 0's naming service stays up until everyone is done with it
        }
    }

    /** The sum of i*i over i = 1..n with i = rank + 1 (mod size). */
    private static long partial(long n, int rank, int size) {
        long s = 0;
        for (long i = rank + 1; i <= n; i += size) {
            s += i * i;
        }
        return s;
    }
}
