package io.cohort.systest.programs;

import io.cohort.Cohort;
import io.cohort.Communicator;
import io.cohort.Op;
import io.cohort.Request;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code ShmFillsUp <file>}: after a first barrier, rank 0 fills the file system of {@code file}
 * (meant to be a small /dev/shm) until it is full and says "filled"; then every rank sends 64 KiB
 * messages round a ring until each ring has been gone through many times, and takes part in
 * allreduces, printing "rank R done sum S". Rank 0 removes the file at the end.
 */
public final class ShmFillsUp {
    private ShmFillsUp() {
    }

    public static void main(String[] args) throws IOException {
        Communicator world = Cohort.init();
        int n = world.size();
        world.barrier();
        Path filler = Path.of(args[0]);
        if (world.rank() == 0) {
            byte[] block = new byte[4096];
            try (OutputStream out = Files.newOutputStream(filler)) {
                for (;;) {
                    out.write(block);
                }
            } catch (IOException full) {
                System.out.println("filled");
            }
        }
        world.barrier();
        byte[] data = new byte[64 << 10];
        int[] sum = new int[1];
        for (int round = 0; round < 64; round++) {
            Request r = world.isend((world.rank() + 1) % n, 1, data);
            world.recv((world.rank() + n - 1) % n, 1);
            r.await();
            world.allreduce(new int[] {world.rank() + 1}, sum, Op.SUM);
        }
        System.out.println("rank " + world.rank() + " done sum " + sum[0]);
        world.barrier();
        if (world.rank() == 0) {
            Files.deleteIfExists(filler);
        }
    }
}
