package io.cohort.systest.programs;

import io.cohort.Cohort;
import io.cohort.Communicator;

import java.io.IOException;

/**
 * {@code ShmStreamVictim <totalMiB> <chunkMiB> <killAfter>}: rank 0 streams totalMiB to rank 1 in
 * chunkMiB messages (far more than a shared-memory ring holds, so rank 0 is blocked in send most of
 * the time); rank 1 SIGKILLs itself after receiving killAfter of them. Rank 0 prints the job id
 * and its shared-memory directory first so the test can look for that job's segment files. If rank 0 ever finishes streaming it
 * waits for a reply rank 1 never sends, so it must be released by the peer-failure path either way.
 */
public final class ShmStreamVictim {
    private ShmStreamVictim() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        int totalMiB = Integer.parseInt(args[0]);
        int chunkMiB = Integer.parseInt(args[1]);
        int killAfter = Integer.parseInt(args[2]);
        Communicator world = Cohort.init();
        if (world.rank() == 0) {
            System.out.println("job " + System.getenv("COHORT_JOB_ID"));
            System.out.println("shm-dir " + System.getenv("COHORT_SHM_JOB_DIR"));
            System.out.flush();
        }
        world.barrier();
        int messages = totalMiB / chunkMiB;
        if (world.rank() == 0) {
            byte[] chunk = new byte[chunkMiB << 20];
            for (int i = 0; i < messages; i++) {
                chunk[0] = (byte) i;
                world.send(1, 7, chunk);
            }
            world.recv(1, 8);
            System.out.println("rank 0 unexpectedly finished");
        } else if (world.rank() == 1) {
            for (int i = 0; i < killAfter; i++) {
                world.recv(0, 7);
            }
            System.out.println("rank 1 received " + killAfter + ", killing itself");
            System.out.flush();
            new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start().waitFor();
            Thread.sleep(Long.MAX_VALUE);
        }
    }
}
