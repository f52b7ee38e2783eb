package io.cohort.systest.programs;

import io.cohort.Cohort;
import io.cohort.Communicator;

import java.io.IOException;

/**
 * {@code FreezesInAllgather R}: every rank runs allgathers; rank R stops itself with SIGSTOP at the
 * 100th, as a peer frozen by a debugger or its host's scheduler would be.
 */
public final class FreezesInAllgather {
    private FreezesInAllgather() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        int frozen = Integer.parseInt(args[0]);
        try (Communicator w = Cohort.init()) {
            long[] mine = new long[64];
            long[] all = new long[64 * w.size()];
            for (int i = 0; i < 1_000_000; i++) {
                if (w.rank() == frozen && i == 100) {
                    new ProcessBuilder("kill", "-STOP", Long.toString(ProcessHandle.current().pid())).start().waitFor();
                }
                w.allgather(mine, all);
            }
        }
    }
}
