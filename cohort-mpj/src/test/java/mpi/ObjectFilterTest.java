package mpi;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MPI.OBJECT items pass Cohort's serial filter: a nested-HashSet bomb fails its Recv and its Unpack
 * fast with the filter's sentence, and the next Recv works. Preemptive: unfiltered, it never returns.
 */
class ObjectFilterTest {
    static Set<Object> bomb(int levels) {
        Set<Object> root = new HashSet<>();
        Set<Object> s1 = root;
        Set<Object> s2 = new HashSet<>();
        for (int i = 0; i < levels; i++) {
            Set<Object> t1 = new HashSet<>();
            Set<Object> t2 = new HashSet<>();
            t1.add("foo");
            s1.add(t1);
            s1.add(t2);
            s2.add(t1);
            s2.add(t2);
            s1 = t1;
            s2 = t2;
        }
        return root;
    }

    @Test
    void aBombFailsItsRecvAndUnpackAndTheNextRecvWorks() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> MpjJob.run(2, (rank, size) -> {
            MPI.Errorhandler_set(MPI.ERRORS_RETURN);
            if (rank == 0) {
                MPI.COMM_WORLD.Send(new Object[] {bomb(100)}, 0, 1, MPI.OBJECT, 1, 1);
                MPI.COMM_WORLD.Send(new Object[] {"fine"}, 0, 1, MPI.OBJECT, 1, 2);
                byte[] packed = new byte[16_384];
                int n = MPI.COMM_WORLD.Pack(new Object[] {bomb(100)}, 0, 1, MPI.OBJECT, packed, 0);
                MPI.COMM_WORLD.Send(packed, 0, n, MPI.PACKED, 1, 3);
            } else {
                Object[] got = new Object[1];
                MPIException e = assertThrows(MPIException.class, () -> MPI.COMM_WORLD.Recv(got, 0, 1, MPI.OBJECT, 0, 1));
                assertTrue(e.getMessage().contains("refused to deserialize a message from rank 0 (tag 1): ")
                        && e.getMessage().contains("past maxdepth=20"), e.getMessage());
                MPI.COMM_WORLD.Recv(got, 0, 1, MPI.OBJECT, 0, 2);
                assertEquals(List.of("fine"), List.of(got));
                byte[] packed = new byte[16_384];
                MPI.COMM_WORLD.Recv(packed, 0, packed.length, MPI.PACKED, 0, 3);
                MPIException u = assertThrows(MPIException.class,
                        () -> MPI.COMM_WORLD.Unpack(packed, 0, got, 0, 1, MPI.OBJECT));
                assertTrue(u.getMessage().contains("refused to deserialize the objects Unpack reads at position 0"),
                        u.getMessage());
            }
        }));
    }
}
