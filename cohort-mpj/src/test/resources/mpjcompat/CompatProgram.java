import mpi.*;

/**
 * An mpiJava 1.2 program as MPJ Express users write it. BinaryCompatibilityTest compiles it against
 * MPJ Express's own mpi.jar, then runs the class file against cohort-mpj: every call below must link.
 * It throws on a wrong result and records "ok" per rank in a system property when it got through.
 */
public class CompatProgram {
    public static void main(String[] args) throws Exception {
        String[] rest = MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;

        int[] out = {0, rank, rank * 2};
        int[] in = new int[4];
        Request r = MPI.COMM_WORLD.Irecv(in, 1, 2, MPI.INT, prev, 1);
        MPI.COMM_WORLD.Send(out, 1, 2, MPI.INT, next, 1);
        Status s = r.Wait();
        check(s.source == prev && s.tag == 1 && s.Get_count(MPI.INT) == 2 && in[2] == prev * 2, "ring");

        double[] sum = new double[1];
        MPI.COMM_WORLD.Allreduce(new double[] {rank}, 0, sum, 0, 1, MPI.DOUBLE, MPI.SUM);
        check(sum[0] == size * (size - 1) / 2.0, "allreduce");

        int[] loc = {rank == size - 1 ? -1 : rank, rank};
        int[] min = new int[2];
        MPI.COMM_WORLD.Allreduce(loc, 0, min, 0, 1, MPI.INT2, MPI.MINLOC);
        check(min[0] == (size == 1 ? -1 : Math.min(0, -1)) && min[1] == size - 1, "minloc");

        Op max = new Op(new User_function() {
            public void Call(Object a, int ao, Object b, int bo, int n, Datatype t) {
                for (int i = 0; i < n; i++) {
                    ((long[]) b)[bo + i] = Math.max(((long[]) a)[ao + i], ((long[]) b)[bo + i]);
                }
            }
        }, true);
        long[] top = new long[1];
        MPI.COMM_WORLD.Reduce(new long[] {rank * 10L}, 0, top, 0, 1, MPI.LONG, max, 0);
        check(rank != 0 || top[0] == (size - 1) * 10L, "user op");

        Object[] objs = {rank == 0 ? "hello" : null};
        MPI.COMM_WORLD.Bcast(objs, 0, 1, MPI.OBJECT, 0);
        check("hello".equals(objs[0]), "object bcast");

        Datatype column = Datatype.Vector(2, 1, 2, MPI.SHORT);
        column.Commit();
        short[] grid = {(short) rank, 9, (short) rank, 9};
        short[] all = new short[2 * size];
        MPI.COMM_WORLD.Allgather(grid, 0, 1, column, all, 0, 2, MPI.SHORT);
        check(all[2 * prev] == prev && column.Extent() == 3 && column.Size() == 2, "vector allgather");

        Group g = MPI.COMM_WORLD.Group().Incl(new int[] {0});
        check(Group.Compare(g, MPI.COMM_WORLD.Group()) == (size == 1 ? MPI.IDENT : MPI.UNEQUAL), "group");
        Intracomm half = MPI.COMM_WORLD.Split(rank % 2, rank);
        check(half.Size() == (size - rank % 2 + 1) / 2, "split");

        int[] dims = new int[2];
        Cartcomm.Dims_create(size, dims);
        Cartcomm cart = MPI.COMM_WORLD.Create_cart(dims, new boolean[] {true, true}, false);
        ShiftParms sp = cart.Shift(0, 1);
        CartParms cp = cart.Get();
        check(cp.dims[0] * cp.dims[1] == size && sp.rank_dest >= 0, "cart");

        Request[] rs = {MPI.COMM_WORLD.Isend(new char[] {'x'}, 0, 1, MPI.CHAR, next, 2),
                MPI.COMM_WORLD.Irecv(new char[1], 0, 1, MPI.CHAR, prev, 2)};
        Status[] st = Request.Waitall(rs);
        check(st[1].index == 1 && MPI.COMM_WORLD.Iprobe(MPI.ANY_SOURCE, MPI.ANY_TAG) == null, "waitall");
        MPI.COMM_WORLD.Barrier();
        check(rest.length == args.length && MPI.Wtime() > 0 && MPI.COMM_SELF.Size() == 1 && MPI.ANY_SOURCE == -2,
                "environment");
        System.setProperty("mpjcompat." + MPI.COMM_WORLD.Rank() + "." + System.identityHashCode(Thread.currentThread()), "ok");
        MPI.Finalize();
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("CompatProgram: " + what + " gave a wrong result");
        }
    }
}
