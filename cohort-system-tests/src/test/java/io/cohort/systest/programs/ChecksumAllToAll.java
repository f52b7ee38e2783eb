package io.cohort.systest.programs;

import io.cohort.Cohort;
import io.cohort.Communicator;
import io.cohort.Message;
import io.cohort.Request;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

/**
 * {@code ChecksumAllToAll <rounds> <seed>}: each round every peer sends every other peer a message
 * of random size 0..4 MiB (round 0 sends exactly 0 bytes and round 1 exactly 4 MiB, the edges),
 * with random content and an 8-byte CRC-32 trailer over the content. The receiver checks the
 * trailer, and independently regenerates what the sender must have sent and compares the size and
 * checksum. Any mismatch prints a line and exits 1; success prints "rank R ok" and exits 0.
 */
public final class ChecksumAllToAll {
    static final int MAX = 4 << 20;

    private ChecksumAllToAll() {
    }

    /** The content from src to dst in a round; deterministic so the receiver can recompute it. */
    static byte[] content(long seed, int round, int src, int dst) {
        SplittableRandom r = new SplittableRandom(seed ^ (round * 1_000_003L) ^ (src * 7919L << 20) ^ (dst * 104_729L << 40));
        int size = round == 0 ? 0 : round == 1 ? MAX : r.nextInt(MAX + 1);
        byte[] b = new byte[size];
        r.nextBytes(b);
        return b;
    }

    static long crc(byte[] b, int off, int len) {
        CRC32 c = new CRC32();
        c.update(b, off, len);
        return c.getValue();
    }

    public static void main(String[] args) {
        int rounds = Integer.parseInt(args[0]);
        long seed = Long.parseLong(args[1]);
        Communicator world = Cohort.init();
        int me = world.rank();
        int n = world.size();
        long bytes = 0;
        for (int round = 0; round < rounds; round++) {
            List<Request> sends = new ArrayList<>();
            for (int d = 1; d < n; d++) {
                int dst = (me + d) % n;
                byte[] c = content(seed, round, me, dst);
                byte[] msg = new byte[c.length + 8];
                System.arraycopy(c, 0, msg, 0, c.length);
                ByteBuffer.wrap(msg).putLong(c.length, crc(c, 0, c.length));
                sends.add(world.isend(dst, round, msg));
            }
            for (int d = 1; d < n; d++) {
                int src = (me + n - d) % n;
                Message m = world.recv(src, round);
                byte[] got = m.bytes();
                byte[] want = content(seed, round, src, me);
                if (got.length != want.length + 8) {
                    fail(me, round, src, "length " + got.length + ", expected " + (want.length + 8));
                }
                int len = got.length - 8;
                long trailer = ByteBuffer.wrap(got).getLong(len);
                long actual = crc(got, 0, len);
                if (trailer != actual) {
                    fail(me, round, src, "crc " + Long.toHexString(actual) + " but trailer says " + Long.toHexString(trailer));
                }
                if (actual != crc(want, 0, want.length)) {
                    fail(me, round, src, "content differs from what the sender generated");
                }
                bytes += len;
            }
            for (Request r : sends) {
                r.await();
            }
        }
        world.barrier();
        System.out.println("rank " + me + " ok " + bytes + " bytes");
    }

    private static void fail(int me, int round, int src, String what) {
        System.out.println("rank " + me + " MISMATCH round " + round + " from " + src + ": " + what);
        System.out.flush();
        System.exit(1);
    }
}
