package io.cohort.wireup;

import io.cohort.LocalCohort;
import io.cohort.idle.IdleStrategies;

import java.util.Map;

/**
 * The training run for the class-data-sharing archive {@code lib/cohort-core.jsa} that the build
 * makes (see {@code cohort-dist/pom.xml}): it loads and links the classes a peer needs to join a
 * job and talk, including the lambda forms behind the {@code VarHandle}s, so every peer JVM maps
 * them from the archive instead of loading, verifying and generating them again. On two cores and
 * eight peers that work was most of a job's start-up.
 */
public final class StartupTraining {
    private StartupTraining() {
    }

    public static void main(String[] args) throws Exception {
        for (String transport : new String[] {"shm", "tcp"}) {
            for (String idle : IdleStrategies.NAMES) {
                LocalCohort.builder().size(2).transport(transport).idle(idle).run(world -> {
                    int other = 1 - world.rank();
                    world.send(other, 1, new int[] {world.rank()});
                    world.recv(other, 1).asInts();
                    world.bcastObject(0, "training");
                    world.barrier();
                });
            }
        }
        // What --profile (the summary mode) adds to a peer: its classes, a walk, a sample, the writer.
        io.cohort.profile.Profiling.trainSummary(() -> {
            try {
                LocalCohort.builder().size(2).transport("shm").run(world -> {
                    int other = 1 - world.rank();
                    io.cohort.Request send = world.isend(other, 2, new byte[] {1});
                    world.iprobe(other, 2);
                    world.recv(other, 2).bytes();
                    io.cohort.Request.awaitAll(java.util.List.of(send));
                    world.bcast(0, new int[] {1});
                    world.allreduce(new double[] {1}, new double[1], io.cohort.Op.SUM);
                    world.barrier();
                });
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        PeerRecord[] table = {new PeerRecord(0, 1, "a", Map.of("tcp", "127.0.0.1:1", "shm", "/dev/shm")),
            new PeerRecord(1, 2, "a", Map.of("tcp", "127.0.0.1:2", "shm", "/dev/shm"))};
        PeerRecord.parseTable(ControlFrame.parse(PeerRecord.table(table).encode()));
        PeerRecord.parseHello(table[0].hello("job", "key"));
        TransportPlan.of("auto", 0, table).matrix(table);
        JobEnvironment.from(Map.of(JobEnvironment.JOB_ID, "j", JobEnvironment.RANK, "0", JobEnvironment.SIZE, "1",
                JobEnvironment.CONTROLLER, "127.0.0.1:1", JobEnvironment.JOB_KEY, io.cohort.auth.JobSecret.generate().toHex())).transportKey();
        // What a stacks request runs (cohort stacks): the capture, its wire form and the responder.
        io.cohort.stacks.StacksCodec.decode(io.cohort.stacks.StackCapture.encoded(null));
        Class.forName(StacksResponder.class.getName());
        Class.forName(PeerMain.class.getName());
        Class.forName(WireupClient.class.getName());
        Class.forName(PeerRuntime.class.getName());
        Class.forName(io.cohort.profile.ProfileRecording.class.getName());
    }
}
