package io.cohort.comm;

import io.cohort.Communicator;
import io.cohort.Group;
import io.cohort.LocalCohort;
import io.cohort.Message;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Communicators made by several threads of each peer at once (MPI's THREAD_MULTIPLE: creations on
 * different parents may overlap) still get contexts no other communicator of the peer has, and
 * keep their traffic apart.
 */
@Timeout(120)
class ContextAgreementTest {
    private static final int ROUNDS = 60;

    @Test
    void dupAndSplitFromTwoThreadsAtOnceGetContextsOfTheirOwn() {
        LocalCohort.builder().size(4).run(world -> {
            Communicator a = world.dup();
            Communicator b = world.dup();
            runTogether(
                    () -> makeAndUse(a, "dup", Communicator::dup),
                    () -> makeAndUse(b, "split", c -> c.split(0, -c.rank())),
                    () -> makeAndUse(world, "create", c -> c.create(c.group())));
            a.close();
            b.close();
        });
    }

    @Test
    void createGroupWithTwoTagsOnOneParentAtOnce() {
        LocalCohort.builder().size(4).run(world -> {
            Group low = world.group().incl(0, 1, 2);
            Group high = world.group().incl(1, 2, 3);
            List<Callable<List<Integer>>> work = new ArrayList<>();
            if (low.rank() != Group.UNDEFINED) {
                work.add(() -> makeAndUse(world, "low", c -> c.createGroup(low, 1)));
            }
            if (high.rank() != Group.UNDEFINED) {
                work.add(() -> makeAndUse(world, "high", c -> c.createGroup(high, 2)));
            }
            Communicator other = world.dup();
            work.add(() -> makeAndUse(other, "dup", Communicator::dup));
            runTogether(work.toArray(Callable[]::new));
            other.close();
        });
    }

    @FunctionalInterface
    private interface Maker {
        Communicator make(Communicator parent);
    }

    /**
     * Makes ROUNDS communicators from {@code parent}, passes a message around each one's ring on a
     * tag every thread uses and checks that it came from this communicator; returns their contexts.
     */
    private static List<Integer> makeAndUse(Communicator parent, String what, Maker maker) {
        List<Integer> contexts = new ArrayList<>();
        for (int i = 0; i < ROUNDS; i++) {
            Communicator c = maker.make(parent);
            contexts.add(((EngineCommunicator) c).context());
            String text = what + " " + i + " from " + c.rank();
            c.isend((c.rank() + 1) % c.size(), 5, text.getBytes(StandardCharsets.UTF_8));
            Message m = c.recv((c.rank() + c.size() - 1) % c.size(), 5);
            assertEquals(what + " " + i + " from " + m.source(), new String(m.bytes(), StandardCharsets.UTF_8));
            c.close();
        }
        return contexts;
    }

    /** Runs the tasks on threads of their own at once; fails if two communicators of this peer had one context. */
    @SafeVarargs
    private static void runTogether(Callable<List<Integer>>... tasks) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tasks.length);
        try {
            List<Future<List<Integer>>> running = new ArrayList<>();
            for (Callable<List<Integer>> t : tasks) {
                running.add(pool.submit(t));
            }
            Set<Integer> seen = new HashSet<>();
            int made = 0;
            for (Future<List<Integer>> f : running) {
                for (int context : f.get()) {
                    made++;
                    assertTrue(seen.add(context), "two communicators of one peer got context " + context);
                }
            }
            assertEquals(tasks.length * ROUNDS, made);
        } finally {
            pool.shutdownNow();
        }
    }
}
