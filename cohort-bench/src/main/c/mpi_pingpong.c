/*
 * Ping-pong latency and bandwidth between ranks 0 and 1, in the style of the OSU micro-benchmarks:
 * for each size, warm-up rounds, then timed rounds; prints the half round-trip time in microseconds
 * (mean over the timed rounds, which is what osu_latency reports) and the bandwidth.
 *
 *   mpicc -O2 -o mpi_pingpong mpi_pingpong.c
 *   mpirun -np 2 --mca btl self,vader ./mpi_pingpong      (shared memory)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    int rank, sizes[] = {8, 64, 512, 4096, 32768, 65536, 262144, 1048576, 4194304};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char *buf = malloc(4194304);
    memset(buf, rank, 4194304);
    if (rank == 0) printf("| size B | half RTT us | MiB/s |\n|---:|---:|---:|\n");
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s], warm = n > 65536 ? 50 : 2000, iters = n > 65536 ? 200 : 20000;
        double start = 0;
        for (int i = 0; i < warm + iters; i++) {
            if (i == warm) { MPI_Barrier(MPI_COMM_WORLD); start = MPI_Wtime(); }
            if (rank == 0) {
                MPI_Send(buf, n, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(buf, n, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                MPI_Recv(buf, n, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, n, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
            }
        }
        double half = (MPI_Wtime() - start) * 1e6 / iters / 2;
        if (rank == 0) printf("| %d | %.3f | %.0f |\n", n, half, n / half * 1e6 / 1048576.0);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
