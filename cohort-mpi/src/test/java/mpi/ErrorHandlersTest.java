package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ERRORS_ARE_FATAL by default, ERRORS_RETURN throwing MPIException with the right error class. */
@Timeout(60)
class ErrorHandlersTest {

    static void expect(int errorClass, Executable call) {
        MPIException e = assertThrows(MPIException.class, call::run);
        assertEquals(errorClass, e.getErrorClass(), e.getMessage());
        assertTrue(e.getMessage() != null && !e.getMessage().isBlank());
    }

    static void assertNamed(String part, Executable call) {
        MPIException e = assertThrows(MPIException.class, call::run);
        assertTrue(e.getMessage().contains(part), "expected '" + part + "' in: " + e.getMessage());
    }

    @FunctionalInterface
    interface Executable {
        void run() throws Exception;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void errorsReturnThrowsWithTheErrorClass(int np) {
        MpiJob.run(np, (rank, size) -> {
            Intracomm w = MPI.COMM_WORLD;
            assertSame(MPI.ERRORS_ARE_FATAL, w.getErrhandler());
            w.setErrhandler(MPI.ERRORS_RETURN);
            assertSame(MPI.ERRORS_RETURN, w.getErrhandler());
            int[] buf = new int[4];
            expect(MPI.ERR_RANK, () -> w.send(buf, 1, MPI.INT, size, 0));
            expect(MPI.ERR_RANK, () -> w.recv(buf, 1, MPI.INT, -7, 0));
            expect(MPI.ERR_TAG, () -> w.send(buf, 1, MPI.INT, 0, -3));
            expect(MPI.ERR_COUNT, () -> w.send(buf, -1, MPI.INT, 0, 0));
            expect(MPI.ERR_BUFFER, () -> w.send(buf, 5, MPI.INT, 0, 0));
            expect(MPI.ERR_TYPE, () -> w.send(buf, 1, MPI.DOUBLE, 0, 0));
            expect(MPI.ERR_BUFFER, () -> w.send("text", 1, MPI.INT, 0, 0));
            Datatype uncommitted = Datatype.createContiguous(2, MPI.INT);
            expect(MPI.ERR_TYPE, () -> w.send(buf, 1, uncommitted, 0, 0));
            expect(MPI.ERR_ROOT, () -> w.bcast(buf, 1, MPI.INT, size));
            expect(MPI.ERR_OP, () -> w.allReduce(new double[1], new double[1], 1, MPI.DOUBLE, MPI.BAND));
            expect(MPI.ERR_OP, () -> w.allReduce(new int[2], new int[2], 1, MPI.INT, MPI.MINLOC));
            // Once SUM has run on int, its quick acceptance must still refuse it on a pair type of ints.
            int[] sum = new int[1];
            w.allReduce(new int[] {1}, sum, 1, MPI.INT, MPI.SUM);
            assertEquals(size, sum[0]);
            assertNamed("does not apply to the pair type", () -> w.allReduce(new int[2], new int[2], 1, MPI.INT2, MPI.SUM));
            expect(MPI.ERR_COMM, () -> MPI.COMM_WORLD.free());
            // Each message names the call it refuses.
            assertNamed("iSend: the send buffer holds double elements", () -> w.iSend(new double[1], 1, MPI.INT, 0, 0));
            assertNamed("send: the send buffer's count is negative", () -> w.send(buf, -1, MPI.INT, 0, 0));
            assertNamed("sendRecv: the receive buffer holds 4 int elements but 5 items",
                    () -> w.sendRecv(buf, 1, MPI.INT, 0, 0, buf, 5, MPI.INT, 0, 0));
            assertNamed("iRecv: the receive buffer is null", () -> w.iRecv(null, 1, MPI.INT, 0, 0));
            assertNamed("allReduce: the receive buffer holds 1 int elements", () -> w.allReduce(buf, new int[1], 2, MPI.INT,
                    MPI.SUM));

            // Truncation: a message longer than the receive buffer, into an array and into a direct buffer.
            int next = (rank + 1) % size;
            int prev = (rank + size - 1) % size;
            Request s = w.iSend(new int[] {1, 2, 3}, 3, MPI.INT, next, 1);
            int[] head = new int[2];
            expect(MPI.ERR_TRUNCATE, () -> w.recv(head, 2, MPI.INT, prev, 1));
            assertArrayEquals(new int[] {1, 2}, head, "the items that fit are there, as MPI implementations leave them");
            s.waitFor();
            Request s2 = w.iSend(new byte[8], 8, MPI.BYTE, next, 2);
            expect(MPI.ERR_TRUNCATE, () -> w.recv(MPI.newByteBuffer(4), 4, MPI.BYTE, prev, 2));
            s2.waitFor();
            Request s3 = w.iSend(new int[] {1, 2, 3}, 3, MPI.INT, next, 3);
            int[] first = new int[1];
            Request r3 = w.iRecv(first, 1, MPI.INT, prev, 3);
            expect(MPI.ERR_TRUNCATE, r3::waitFor);
            assertEquals(1, first[0]);
            s3.waitFor();

            // A derived communicator inherits the handler; it can be set back to fatal.
            Intracomm dup = w.dup();
            assertSame(MPI.ERRORS_RETURN, dup.getErrhandler());
            dup.setErrhandler(MPI.ERRORS_ARE_FATAL);
            MpiJob.Fatal f = assertThrows(MpiJob.Fatal.class, () -> dup.send(buf, 1, MPI.INT, size + 5, 0));
            assertEquals(MPI.ERR_RANK, f.error.getErrorClass());
            dup.free();
            w.setErrhandler(MPI.ERRORS_ARE_FATAL);
            w.barrier();
        });
    }

    /** Arguments a program can get wrong: each is an MPIException of its class, never a Java exception or lost data. */
    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void badArgumentsAreMpiErrorsOfTheirClass(int np) {
        MpiJob.run(np, (rank, size) -> {
            Intracomm w = MPI.COMM_WORLD;
            w.setErrhandler(MPI.ERRORS_RETURN);
            int[] one = new int[1];
            int[] counts = new int[size];
            java.util.Arrays.fill(counts, 1);
            expect(MPI.ERR_TYPE, () -> w.allReduce(one, new int[1], 1, null, MPI.SUM));
            expect(MPI.ERR_TYPE, () -> w.reduce(one, new int[1], 1, null, MPI.SUM, 0));
            expect(MPI.ERR_TYPE, () -> w.scan(one, new int[1], 1, null, MPI.SUM));
            expect(MPI.ERR_TYPE, () -> Comm.reduceLocal(one, new int[1], 1, null, MPI.SUM));
            expect(MPI.ERR_OP, () -> w.allReduce(one, new int[1], 1, MPI.INT, new Op(null, true)));
            expect(MPI.ERR_ARG, () -> w.allGatherv(one, 1, MPI.INT, new int[size], counts, null, MPI.INT));
            expect(MPI.ERR_ARG, () -> w.gatherv(one, 1, MPI.INT, new int[size], counts, null, MPI.INT, rank));
            expect(MPI.ERR_ARG, () -> w.allToAllv(new int[size], counts, null, MPI.INT, new int[size], counts,
                    Collectives.packed(1, size), MPI.INT));
            // Receive blocks that overlap: the result would depend on which arrived last.
            int[] twos = new int[size];
            java.util.Arrays.fill(twos, 2);
            int[] steps = new int[size];
            for (int r = 0; r < size; r++) {
                steps[r] = r;
            }
            expect(MPI.ERR_ARG, () -> w.allGatherv(new int[2], 2, MPI.INT, new int[size + 1], twos, steps, MPI.INT));
            expect(MPI.ERR_ARG, () -> w.gatherv(new int[2], 2, MPI.INT, new int[size + 1], twos, steps, MPI.INT, rank));
            // Ranges checked before they are expanded.
            expect(MPI.ERR_ARG, () -> w.getGroup().rangeIncl(new int[][] {{0, Integer.MAX_VALUE, 1}}));
            expect(MPI.ERR_ARG, () -> w.getGroup().rangeExcl(new int[][] {{0, size - 1, 1}, {0, size - 1, 1}}));
            // Nulls.
            expect(MPI.ERR_BUFFER, () -> w.pack(one, 1, MPI.INT, null, 0));
            expect(MPI.ERR_BUFFER, () -> w.unpack(null, 0, one, 1, MPI.INT));
            expect(MPI.ERR_COUNT, () -> w.packSize(-3, MPI.INT));
            expect(MPI.ERR_TYPE, () -> w.packSize(3, null));
            Group g = w.getGroup();
            expect(MPI.ERR_ARG, () -> Group.translateRanks(g, null, g));
            expect(MPI.ERR_GROUP, () -> Group.translateRanks(null, new int[] {0}, g));
            expect(MPI.ERR_GROUP, () -> Group.union(g, null));
            expect(MPI.ERR_ARG, () -> g.incl(null));
            expect(MPI.ERR_ARG, () -> g.excl(null));
            expect(MPI.ERR_COMM, () -> Comm.compare(null, w));
            expect(MPI.ERR_ARG, () -> Datatype.createHIndexed(new int[] {1}, null, MPI.INT));
            int next = (rank + 1) % size;
            int prev = (rank + size - 1) % size;
            Request s = w.iSend(one, 1, MPI.INT, next, 5);
            Status st = w.recv(new int[1], 1, MPI.INT, prev, 5);
            s.waitFor();
            expect(MPI.ERR_BUFFER, () -> w.recv(MPI.newIntBuffer(1).asReadOnlyBuffer(), 1, MPI.INT, prev, 5));
            expect(MPI.ERR_BUFFER, () -> w.allReduce(one, MPI.newIntBuffer(1).asReadOnlyBuffer(), 1, MPI.INT, MPI.SUM));
            expect(MPI.ERR_TYPE, () -> st.getCount(null));
            expect(MPI.ERR_TYPE, () -> st.getElements(null));
            // Starting an active persistent request again would orphan its receive (a message lost unseen).
            int[] got = new int[1];
            Prequest p = w.recvInit(got, 1, MPI.INT, prev, 6);
            p.start();
            expect(MPI.ERR_REQUEST, p::start);
            w.send(new int[] {11}, 1, MPI.INT, next, 6);
            p.waitFor();
            assertEquals(11, got[0]);
            p.free();
            w.setErrhandler(MPI.ERRORS_ARE_FATAL);
            w.barrier();
        });
    }

    @Test
    void fatalIsTheDefault() {
        MpiJob.run(2, (rank, size) -> {
            MpiJob.Fatal f = assertThrows(MpiJob.Fatal.class, () -> MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 9, 0));
            assertEquals(MPI.ERR_RANK, f.error.getErrorClass());
            assertTrue(f.error.getMessage().contains("destination rank 9"), f.error.getMessage());
        });
    }

    @Test
    void abortEndsTheJobWithItsCode() {
        AtomicInteger code = new AtomicInteger(-1);
        java.util.function.IntConsumer before = Errors.abortAction;
        Errors.abortAction = code::set;
        try {
            MpiJob.run(1, (rank, size) -> MPI.COMM_WORLD.abort(7));
        } finally {
            Errors.abortAction = before;
        }
        assertEquals(7, code.get());
        assertEquals(1, io.cohort.mpi.support.AbortStatus.of(0), "status 0 would end nothing");
        assertEquals(1, io.cohort.mpi.support.AbortStatus.of(256));
        assertEquals(255, io.cohort.mpi.support.AbortStatus.of(-1));
        assertEquals(3, io.cohort.mpi.support.AbortStatus.of(259));
    }

    @Test
    void callsOutsideInitAndFinalizeGoToTheWorldsErrorHandler() {
        MpiJob.run(1, (rank, size) -> {
            assertTrue(MPI.isInitialized());
            MpiJob.Fatal fatal = assertThrows(MpiJob.Fatal.class, () -> MPI.Init(new String[0]));
            assertEquals("MPI.Init: MPI is already initialized", fatal.error.getMessage());
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            MPIException again = assertThrows(MPIException.class, () -> MPI.InitThread(new String[0], MPI.THREAD_SINGLE));
            assertEquals("MPI.Init: MPI is already initialized", again.getMessage());
            MPI.Finalize();
            assertTrue(MPI.isFinalized());
            MPIException after = assertThrows(MPIException.class, () -> MPI.COMM_WORLD.getRank());
            assertEquals("Comm.getRank: MPI is finalized; no MPI call may follow MPI.Finalize", after.getMessage());
            MPIException reinit = assertThrows(MPIException.class, () -> MPI.Init(new String[0]));
            assertEquals("MPI.Init: MPI is already finalized; it cannot be initialized again", reinit.getMessage());
        });
    }

    @Test
    void aCallBeforeInitIsFatalByDefault() throws ClassNotFoundException {
        Class.forName(MpiJob.class.getName()); // its static block turns the fatal exit into MpiJob.Fatal
        io.cohort.LocalCohort.run(1, world -> {
            Peer.bind(new Peer(world));
            try {
                MpiJob.Fatal fatal = assertThrows(MpiJob.Fatal.class, () -> MPI.COMM_WORLD.barrier());
                assertEquals("Comm.barrier: MPI is not initialized; call MPI.Init(args) first",
                        fatal.error.getMessage());
            } finally {
                Peer.unbind();
            }
        });
    }
}
