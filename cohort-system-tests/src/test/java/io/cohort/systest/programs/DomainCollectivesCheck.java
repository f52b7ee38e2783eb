package io.cohort.systest.programs;

import io.cohort.Cohort;
import io.cohort.Communicator;
import io.cohort.Op;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * {@code DomainCollectivesCheck <seed> [<victim rank> <round>]}: the collectives that use the
 * broadcast domain (bcast, allreduce, allgather, barrier), run on the world and on a second
 * communicator (even and odd ranks, {@code split}) interleaved, each result compared with what
 * a sequential program computes from the same seed. Bcast lengths: 0, 1, odd, one packet, several
 * and many packets, from a root that moves. Prints "rank R ok" and exits 0, or a MISMATCH line
 * and exits 1.
 *
 * <p>With a victim, instead: rank 0 bcasts 64 KiB messages for ever and the victim SIGKILLs itself
 * once it received {@code round} of them, in the middle of the stream: the job must end with the
 * victim as the root cause, and nobody may hang.
 */
public final class DomainCollectivesCheck {
    /**
     * 1394 bytes fill one EQA packet exactly (1400 less the domain's 2-byte target word and the
     * collectives' 4-byte length), 1395 need two.
     */
    static final int[] LENGTHS = {0, 1, 777, 1394, 1395, 4093, 100_001};

    private DomainCollectivesCheck() {
    }

    static byte[] content(long seed, int step, int comm, int length) {
        SplittableRandom r = new SplittableRandom(seed ^ (step * 1_000_003L) ^ ((long) comm << 40));
        byte[] b = new byte[length];
        r.nextBytes(b);
        return b;
    }

    /** Rank r's element i of the vector every peer contributes to the allreduce. */
    static long element(long seed, int r, int i) {
        return new SplittableRandom(seed ^ (r * 7919L) ^ ((long) i << 32)).nextLong(1L << 40);
    }

    /** Rank 0 bcasts 64 KiB for ever; the victim SIGKILLs itself once it has received {@code killAt}. */
    private static void stream(Communicator world, long seed, int victim, int killAt) throws Exception {
        byte[] chunk = content(seed, -1, 2, 64 << 10);
        for (int k = 0; ; k++) {
            if (world.rank() == victim && k == killAt) {
                System.out.println("rank " + victim + " kills itself in the middle of the stream");
                System.out.flush();
                new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start().waitFor();
            }
            world.bcast(0, world.rank() == 0 ? chunk : null);
        }
    }

    public static void main(String[] args) throws Exception {
        long seed = Long.parseLong(args[0]);
        int victim = args.length > 2 ? Integer.parseInt(args[1]) : -1;
        int killAt = args.length > 2 ? Integer.parseInt(args[2]) : -1;
        int bad = 0;
        try (Communicator world = Cohort.init()) {
            int n = world.size();
            int me = world.rank();
            if (victim >= 0) {
                stream(world, seed, victim, killAt);
            }
            Communicator half = world.split(me % 2, me);
            Communicator[] comms = {world, half};
            for (int step = 0; step < LENGTHS.length; step++) {
                int length = LENGTHS[step];
                for (int c = 0; c < comms.length; c++) {
                    Communicator comm = comms[c];
                    int id = c == 0 ? 2 : me % 2; // the world, the even ranks or the odd ranks
                    int root = step % comm.size();
                    byte[] expected = content(seed, step, id, length);
                    byte[] got = comm.bcast(root, comm.rank() == root ? expected.clone() : null);
                    if (!Arrays.equals(expected, got)) {
                        bad++;
                        System.out.println("MISMATCH bcast of " + length + " B from " + root + " in communicator " + id
                                + " at rank " + me);
                    }
                }
                int count = 1 + length / 64;
                long[] mine = new long[count];
                long[] sum = new long[count];
                long[] reference = new long[count];
                for (int i = 0; i < count; i++) {
                    mine[i] = element(seed + step, me, i);
                    for (int r = 0; r < n; r++) {
                        reference[i] += element(seed + step, r, i);
                    }
                }
                world.allreduce(mine, sum, Op.SUM);
                if (!Arrays.equals(reference, sum)) {
                    bad++;
                    System.out.println("MISMATCH allreduce of " + count + " longs at rank " + me);
                }
                int[] block = {me, step, length};
                int[] all = new int[3 * n];
                world.allgather(block, all);
                for (int r = 0; r < n; r++) {
                    if (all[3 * r] != r || all[3 * r + 1] != step || all[3 * r + 2] != length) {
                        bad++;
                        System.out.println("MISMATCH allgather block of rank " + r + " at rank " + me);
                    }
                }
                half.barrier();
                world.barrier();
            }
            half.close();
            System.out.println(bad == 0 ? "rank " + me + " ok" : "rank " + me + " MISMATCH " + bad);
        }
        if (bad != 0) {
            System.exit(1);
        }
    }
}
