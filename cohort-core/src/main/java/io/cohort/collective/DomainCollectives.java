package io.cohort.collective;

import io.cohort.BroadcastDomain;
import io.cohort.Op;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The collectives over the broadcast domain (PCODE, seed 000), each a fixed global program that
 * every peer runs alike, so the k-th request of a source meets its k-th multicast:
 *
 * <ul>
 *   <li><b>bcast</b>: the root multicasts the message to all others; each requests it. One
 *       datagram per fragment reaches every peer, whatever N.</li>
 *   <li><b>allgather</b>: the paper's all-to-all broadcast: each peer multicasts its block to all
 *       others, then requests every other peer's block, in rank order.</li>
 *   <li><b>barrier</b>: an allgather of empty blocks; nobody leaves before everybody's multicast.</li>
 *   <li><b>allreduce</b>: an allgather of the vectors, then each peer reduces them locally in rank
 *       order, so all get the same result and non-commutative ops work.</li>
 * </ul>
 *
 * Messages longer than {@value #CHUNK_BYTES} B go as several multicasts (the domain holds a whole
 * message in its sent buffer). The first chunk starts with the total length, so a receiver learns
 * how many chunks to request ({@link ChunkAssembly} allocates as they arrive, never on that word alone). An allgather sends chunk k of every block before chunk k+1 of any, so
 * no peer runs ahead by more than one chunk per source.
 *
 * <p>Threads: one thread at a time (the domain's global program is sequential);
 * {@link Collectives} ensures it.
 */
final class DomainCollectives {
    /** Bytes per multicast: well under the domain's default message limit (256 frames of ~1.3 KB). */
    static final int CHUNK_BYTES = 32 * 1024;

    private DomainCollectives() {
    }

    static BroadcastDomain checked(CollectiveChannel channel) {
        BroadcastDomain d = channel.domain();
        if (d.size() != channel.size() || d.rank() != channel.rank()) {
            throw new IllegalStateException("the broadcast domain has rank " + d.rank() + " of " + d.size()
                    + " but the communicator has rank " + channel.rank() + " of " + channel.size()
                    + "; its collectives cannot use that domain");
        }
        return d;
    }

    private static int[] others(int n, int except) {
        int[] t = new int[n - 1];
        for (int p = 0, k = 0; p < n; p++) {
            if (p != except) {
                t[k++] = p;
            }
        }
        return t;
    }

    static int chunks(int total) {
        return total <= CHUNK_BYTES ? 1 : 1 + (total - CHUNK_BYTES + CHUNK_BYTES - 1) / CHUNK_BYTES;
    }

    /** Chunk {@code k} of {@code data} as one multicast payload (the first carries the total length). */
    static ByteBuffer chunk(byte[] data, int k) {
        if (k == 0) {
            int len = Math.min(data.length, CHUNK_BYTES);
            ByteBuffer b = ByteBuffer.allocate(4 + len).order(ByteOrder.LITTLE_ENDIAN);
            b.putInt(data.length).put(data, 0, len).flip();
            return b;
        }
        int from = k * CHUNK_BYTES;
        return ByteBuffer.wrap(data, from, Math.min(CHUNK_BYTES, data.length - from));
    }

    static byte[] bcast(CollectiveChannel channel, int root, byte[] data) {
        BroadcastDomain d = checked(channel);
        int[] targets = others(channel.size(), root);
        if (channel.rank() == root) {
            for (int k = 0, c = chunks(data.length); k < c; k++) {
                d.multicast(chunk(data, k), targets);
            }
            return data;
        }
        ChunkAssembly got = new ChunkAssembly(d.request(root, targets), "bcast from rank " + root);
        for (int k = 1, c = got.chunks(); k < c; k++) {
            got.add(k, d.request(root, targets));
        }
        return got.bytes();
    }

    /** On entry {@code blocks[rank]} is this peer's block; on return every entry is filled. */
    static void allgather(CollectiveChannel channel, byte[][] blocks) {
        BroadcastDomain d = checked(channel);
        int n = channel.size();
        int me = channel.rank();
        int[][] targets = new int[n][];
        for (int s = 0; s < n; s++) {
            targets[s] = others(n, s);
        }
        d.multicast(chunk(blocks[me], 0), targets[me]);
        int rounds = chunks(blocks[me].length);
        ChunkAssembly[] got = new ChunkAssembly[n];
        for (int s = 0; s < n; s++) {
            if (s != me) {
                got[s] = new ChunkAssembly(d.request(s, targets[s]), "allgather block from rank " + s);
                rounds = Math.max(rounds, got[s].chunks());
            }
        }
        for (int k = 1; k < rounds; k++) {
            if (k < chunks(blocks[me].length)) {
                d.multicast(chunk(blocks[me], k), targets[me]);
            }
            for (int s = 0; s < n; s++) {
                if (s != me && k < got[s].chunks()) {
                    got[s].add(k, d.request(s, targets[s]));
                }
            }
        }
        for (int s = 0; s < n; s++) {
            if (s != me) {
                blocks[s] = got[s].bytes();
            }
        }
    }

    static void barrier(CollectiveChannel channel) {
        byte[][] blocks = new byte[channel.size()][];
        blocks[channel.rank()] = Exchange.empty();
        allgather(channel, blocks);
    }

    /** Reduces {@code work} (n elements from 0) in place: allgather, then x0 op x1 op ... locally. */
    static void allreduce(CollectiveChannel channel, Object work, int n, Op op) {
        byte[][] blocks = new byte[channel.size()][];
        blocks[channel.rank()] = Buffers.encode(work, 0, n);
        allgather(channel, blocks);
        Object acc = Combine.decode(blocks[0], work, n, "allreduce from rank 0");
        for (int r = 1; r < blocks.length; r++) {
            Object next = Combine.decode(blocks[r], work, n, "allreduce from rank " + r);
            op.apply(acc, 0, next, 0, n); // next = acc op next: rank order, whatever the op
            acc = next;
        }
        Buffers.copy(acc, 0, work, 0, n);
    }
}
