/*
 * The MPI side of Cohort's shared-memory benchmark: the same measurements as
 * io.cohort.bench.ProcessPingPong, so the two tables compare line by line.
 *
 * For each size: warm-up round trips, then timed ones, each timed on its own; prints the half
 * round trip's median, p99 and mean in microseconds (the mean is what OSU's osu_latency reports)
 * with the sample count, and for sizes >= 256 KiB the streaming bandwidth: rank 0 sends messages
 * back to back with MPI_Send, rank 1 receives them and acknowledges the last.
 *
 *   mpicc -O2 -o mpi_pingpong mpi_pingpong.c
 *   mpirun -np 2 --mca btl self,vader ./mpi_pingpong [sizes...]      (shared memory)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIZE 4194304

static int cmp(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

static double stream(int rank, char *buf, int n) {
    int count = (256 << 20) / n < 20 ? 20 : (256 << 20) / n;
    char ack = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    for (int i = 0; i < count; i++) {
        if (rank == 0) MPI_Send(buf, n, MPI_CHAR, 1, 2, MPI_COMM_WORLD);
        else MPI_Recv(buf, n, MPI_CHAR, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (rank == 0) MPI_Recv(&ack, 1, MPI_CHAR, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else MPI_Send(&ack, 1, MPI_CHAR, 0, 3, MPI_COMM_WORLD);
    double seconds = MPI_Wtime() - start;
    return (double) count * n / seconds / 1048576.0;
}

int main(int argc, char **argv) {
    int rank, defaults[] = {8, 64, 512, 4096, 32768, 65536, 262144, 1048576, 4194304};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int nsizes = argc > 1 ? argc - 1 : (int) (sizeof defaults / sizeof defaults[0]);
    char *buf = malloc(MAX_SIZE);
    double *rtt = malloc(sizeof(double) * 50000);
    memset(buf, rank, MAX_SIZE);
    if (rank == 0) {
        printf("| size B | median us | p99 us | mean us | samples | MiB/s streaming |\n");
        printf("|---:|---:|---:|---:|---:|---:|\n");
    }
    for (int s = 0; s < nsizes; s++) {
        int n = argc > 1 ? atoi(argv[s + 1]) : defaults[s];
        if (n < 0 || n > MAX_SIZE) continue;
        int iters = n <= 65536 ? 50000 : 1000, warm = iters / 5;
        double total = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < warm + iters; i++) {
            double t0 = MPI_Wtime();
            if (rank == 0) {
                MPI_Send(buf, n, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(buf, n, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buf, n, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, n, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
            }
            double t = MPI_Wtime() - t0;
            if (i >= warm) {
                rtt[i - warm] = t;
                total += t;
            }
        }
        char bw[32] = "";
        if (n >= 262144) snprintf(bw, sizeof bw, "%.0f", stream(rank, buf, n));
        qsort(rtt, iters, sizeof(double), cmp);
        if (rank == 0) {
            printf("| %d | %.3f | %.3f | %.3f | %d | %s |\n", n, rtt[iters / 2] * 1e6 / 2,
                   rtt[(int) (iters * 0.99)] * 1e6 / 2, total * 1e6 / iters / 2, iters, bw);
            fflush(stdout);
        }
    }
    free(rtt);
    free(buf);
    MPI_Finalize();
    return 0;
}
