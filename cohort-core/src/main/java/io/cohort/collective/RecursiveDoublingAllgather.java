package io.cohort.collective;

/**
 * Allgather by recursive doubling, for any N: the ranks are folded onto a power of two p
 * ({@link PairFold}), then in round k member m swaps every block it holds with member m xor 2^k,
 * doubling what it holds; log2 p rounds, plus one before and one after when N is not a power of
 * two. Blocks travel framed with their rank ({@link Blocks}), so blocks of any length work.
 *
 * <p>Threads: the thread running the collective.
 */
final class RecursiveDoublingAllgather {
    private RecursiveDoublingAllgather() {
    }

    /** On entry {@code blocks[rank]} is this peer's block; on return every entry is filled. */
    static void run(Exchange x, byte[][] blocks) {
        PairFold f = new PairFold(x.rank, x.size);
        int[] held = new int[x.size];
        int count = 0;
        if (f.sitsOut()) {
            x.send(x.rank + 1, 0, blocks[x.rank]).await();
            Blocks.unframe(x.recv(x.rank + 1, 1), blocks);
            return;
        }
        if (f.absorbs()) {
            blocks[x.rank - 1] = x.recv(x.rank - 1, 0);
            held[count++] = x.rank - 1;
        }
        held[count++] = x.rank;
        int round = 2;
        for (int mask = 1; mask < f.p; mask <<= 1, round++) {
            int partner = f.rankOf(f.member ^ mask);
            byte[] got = x.sendrecv(partner, Blocks.frame(blocks, held, count), partner, round);
            count += Blocks.unframe(got, blocks, held, count);
        }
        if (f.absorbs()) {
            x.send(x.rank - 1, 1, Blocks.frame(blocks, held, count)).await();
        }
    }
}
