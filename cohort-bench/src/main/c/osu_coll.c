/*
 * The Open MPI side of Cohort's collective latency benchmark (issue 6), in the manner of OSU's
 * osu_bcast, osu_allgather, osu_allreduce and osu_barrier: for each message size, W warm-up
 * iterations, then I timed ones; each iteration times one call of the collective on every rank and
 * is followed by an MPI_Barrier (not timed), so one iteration's stragglers do not delay the next.
 *
 *   avg_us     OSU's figure: every rank's mean over the timed iterations, averaged over the ranks
 *   median_us  median of all samples (I per rank, pooled over the ranks)
 *   p99_us     99th percentile of the same samples
 *   loop_us    rank 0's wall time per timed iteration, the call and its barrier together: what a
 *              program that alternates the two pays (a fast call followed by a slow barrier shows)
 *   cpu_us     the processor time of all ranks together per timed iteration, call and barrier
 *              (CLOCK_PROCESS_CPUTIME_ID before and after the loop, summed over the ranks): the
 *              fair figure where more ranks than processors share a machine
 *
 * Message sizes mean what OSU means: bcast moves `size` bytes from rank 0 (a fixed root), allgather
 * contributes `size` bytes per rank (receives N * size), allreduce sums size / 8 doubles (at least
 * one); barrier has no size and prints one line with size=0. Rank 0 prints, one line per size:
 *
 *   coll impl=openmpi op=bcast n=8 size=256 avg_us=.. median_us=.. p99_us=.. loop_us=.. cpu_us=.. iters=1000 samples=8000
 *
 *   mpicc -O2 -o osu_coll osu_coll.c
 *   mpirun -np 4 ./osu_coll bcast|allgather|allreduce|barrier [--sizes 8,256,4096] [--iters 1000] [--warmup 100] [--prewarm 0]
 *
 * Java twins with the same lines: src/main/java-mpj/MpjColl.java (MPJ Express) and
 * io.cohort.bench.CollectiveLatencyJob (Cohort). Run by scripts/bench-collectives-box.sh.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SIZES 64

/* This process's processor time so far, all threads (Open MPI's progress threads too), in seconds. */
static double cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

static void usage(int rank, const char *msg) {
    if (rank == 0) {
        fprintf(stderr, "osu_coll: %s\nusage: osu_coll bcast|allgather|allreduce|barrier [--sizes a,b,..] [--iters N] [--warmup N] [--prewarm N]\n", msg);
    }
    MPI_Finalize();
    exit(2);
}

/* Value at percentile p (0-100) of the sorted samples: the smallest one with at least p% at or below it. */
static double percentile(const double *sorted, long n, double p) {
    long k = (long) (p / 100.0 * n + 0.999999);
    if (k < 1) k = 1;
    if (k > n) k = n;
    return sorted[k - 1];
}

/* One call of the measured collective (kind: 0 bcast, 1 allgather, 2 allreduce, 3 barrier). */
static void call(int kind, int size, char *send, char *recv, double *dsend, double *drecv) {
    int doubles = size / 8 > 0 ? size / 8 : 1;
    switch (kind) {
        case 0: MPI_Bcast(send, size, MPI_CHAR, 0, MPI_COMM_WORLD); break;
        case 1: MPI_Allgather(send, size, MPI_CHAR, recv, size, MPI_CHAR, MPI_COMM_WORLD); break;
        case 2: MPI_Allreduce(dsend, drecv, doubles, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); break;
        default: MPI_Barrier(MPI_COMM_WORLD); break;
    }
}

int main(int argc, char **argv) {
    int rank, nranks;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);

    int sizes[MAX_SIZES] = {8, 32, 128, 256, 1024, 4096, 16384, 65536}, nsizes = 8;
    int iters = 1000, warmup = 100, prewarm = 0;
    if (argc < 2) usage(rank, "missing the operation");
    const char *op = argv[1];
    int kind = !strcmp(op, "bcast") ? 0 : !strcmp(op, "allgather") ? 1 : !strcmp(op, "allreduce") ? 2
             : !strcmp(op, "barrier") ? 3 : -1;
    if (kind < 0) usage(rank, "unknown operation");
    for (int i = 2; i < argc; i++) {
        if (i + 1 >= argc) usage(rank, "an option is missing its value");
        if (!strcmp(argv[i], "--sizes")) {
            nsizes = 0;
            for (char *t = strtok(argv[++i], ","); t; t = strtok(NULL, ",")) {
                if (nsizes == MAX_SIZES) usage(rank, "too many sizes");
                sizes[nsizes] = atoi(t);
                if (sizes[nsizes] < 0) usage(rank, "a size is negative");
                nsizes++;
            }
        } else if (!strcmp(argv[i], "--iters")) {
            iters = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--warmup")) {
            warmup = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--prewarm")) {
            prewarm = atoi(argv[++i]);
        } else {
            usage(rank, "unknown option");
        }
    }
    if (iters < 1 || warmup < 0 || prewarm < 0) usage(rank, "--iters must be at least 1, --warmup and --prewarm at least 0");
    if (kind == 3) {
        sizes[0] = 0;
        nsizes = 1;
    }

    int max = 0;
    for (int s = 0; s < nsizes; s++) max = sizes[s] > max ? sizes[s] : max;
    char *send = malloc(max + 8), *recv = malloc((size_t) (max + 8) * nranks);
    double *dsend = malloc(max + 8), *drecv = malloc(max + 8);
    double *t = malloc(sizeof(double) * iters);
    double *all = rank == 0 ? malloc(sizeof(double) * iters * nranks) : NULL;
    if (!send || !recv || !dsend || !drecv || !t || (rank == 0 && !all)) {
        fprintf(stderr, "osu_coll: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(send, rank + 1, max + 8);
    for (int i = 0; i < (max + 8) / 8; i++) dsend[i] = rank + i;

    /* The pre-warm pass: --prewarm calls shared out over the sizes, each size in turn, before any
       is measured, so that every size's path is warm (the Java peers' JIT compiles each path the
       first time it is taken, and a bcast takes another path beyond one datagram). */
    for (int s = 0; s < nsizes && prewarm > 0; s++) {
        for (int i = 0; i < (prewarm + nsizes - 1) / nsizes; i++) {
            call(kind, sizes[s], send, recv, dsend, drecv);
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }
    for (int s = 0; s < nsizes; s++) {
        int size = sizes[s];
        int w = warmup;
        MPI_Barrier(MPI_COMM_WORLD);
        double loop0 = 0, cpu0 = 0;
        for (int i = 0; i < w + iters; i++) {
            if (i == w) cpu0 = cpu_seconds();
            double t0 = MPI_Wtime();
            if (i == w) loop0 = t0;
            call(kind, size, send, recv, dsend, drecv);
            double dt = MPI_Wtime() - t0;
            if (i >= w) t[i - w] = dt * 1e6;
            MPI_Barrier(MPI_COMM_WORLD);
        }
        double loop = (MPI_Wtime() - loop0) * 1e6 / iters;
        double cpu = (cpu_seconds() - cpu0) * 1e6 / iters, cpu_all = 0;
        if (kind == 2 && drecv[0] != (double) nranks * (nranks - 1) / 2) {
            fprintf(stderr, "osu_coll: rank %d: allreduce gave %g, expected %g\n", rank, drecv[0],
                    (double) nranks * (nranks - 1) / 2);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        double sum = 0, avg_all = 0;
        for (int i = 0; i < iters; i++) sum += t[i];
        double mine = sum / iters;
        MPI_Reduce(&mine, &avg_all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Reduce(&cpu, &cpu_all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Gather(t, iters, MPI_DOUBLE, all, iters, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            long n = (long) iters * nranks;
            qsort(all, n, sizeof(double), cmp);
            printf("coll impl=openmpi op=%s n=%d size=%d avg_us=%.2f median_us=%.2f p99_us=%.2f loop_us=%.2f cpu_us=%.2f iters=%d samples=%ld\n",
                   op, nranks, size, avg_all / nranks, percentile(all, n, 50), percentile(all, n, 99), loop, cpu_all, iters, n);
            fflush(stdout);
        }
    }
    free(send); free(recv); free(dsend); free(drecv); free(t); free(all);
    MPI_Finalize();
    return 0;
}
