/* chapters/10-data-parallel/mpi_allreduce.c: the chapter's collectives
 * (kernels/collectives.c, the very code the virtual cluster runs) across real
 * processes with MPI point-to-point, checked against MPI_Allreduce.
 *
 *   mpirun -np 4 ./build/ch10/mpi_allreduce            (make chapter-10 MPI=1)
 *   mpirun --oversubscribe -np 4 ./build/ch10/mpi_allreduce -n 1M
 *
 * The adapter (kernels/collectives_mpi.c): pw_comm's send is MPI_Bsend
 * (buffered: it never waits for the receiver, as the cluster's eager sends
 * never do; with a plain MPI_Send a ring where every rank sends first could
 * deadlock once messages are too big for MPI's eager protocol), recv is
 * MPI_Recv.
 *
 * Groups: the processes as a 2-row grid, split into rows and columns by the
 * workbook's coll_comm_split; the ring in each against MPI_Comm_split and
 * MPI_Allreduce (check_groups).
 *
 * Check: ring and tree against MPI_Allreduce(MPI_SUM) on random data, on
 * lengths the process count does not divide; every process must hold the
 * same bits (compared through an MPI_Allreduce of a checksum with MPI_BAND /
 * MPI_BOR). Then time each (median over repeats, the slowest process's time
 * per repeat). Built only where mpicc exists (mk/mpi.mk). After the table,
 * the ratio of MPI_Allreduce's time to our fastest algorithm's, per size,
 * from this run's medians: which is faster depends on the machine, the
 * process count and the load, and the program says which it was here.
 *
 * Sizes: -n wins over --tiny (--tiny only changes the defaults). MPI counts
 * are ints, and MPI_Bsend's buffer (MPI_Buffer_attach) holds at most INT_MAX
 * bytes: it must hold the naive root's p-1 whole buffers in flight, so a
 * size that needs more is refused in one line (exit 2), before anything is
 * allocated.
 */
#include "check.h"
#include "collectives.h"
#include "collectives_mpi.h"
#include "options.h"
#include "results.h"
#include "timing.h"
#include "util.h"

#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a over the bytes: equal on every process iff the results are equal
 * (to a 2^-64 chance), so one small collective compares all of them. */
static uint64_t checksum(const float *x, size_t n)
{
    const unsigned char *p = (const unsigned char *)x;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n * sizeof *x; i++) h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

/* Groups over MPI: the processes as a grid of 2 rows (1 when their count is
 * odd), split into rows and columns by coll_comm_split, the workbook's own
 * MPI_Comm_split on point-to-point; a ring all-reduce in every row, then in
 * every column, against MPI_Comm_split + MPI_Allreduce on the same groups. */
static int check_groups(pw_comm *world, float *src, float *buf, float *want, size_t n)
{
    int rank = world->rank, size = world->size, rows = size % 2 ? 1 : 2, cols = size / rows;
    int row = rank / cols, col = rank % cols, bad = 0;
    pw_comm groups[2];
    coll_comm_split(world, row, col, &groups[0]);
    coll_comm_split(world, col, row, &groups[1]);
    for (int g = 0; g < 2; g++) {
        MPI_Comm mc;
        MPI_Comm_split(MPI_COMM_WORLD, g == 0 ? row : col, g == 0 ? col : row, &mc);
        int mrank;
        MPI_Comm_rank(mc, &mrank);
        pw_fill_random(src, n, 991 + (uint64_t)rank, -1, 1);
        memcpy(want, src, n * sizeof(float));
        memcpy(buf, src, n * sizeof(float));
        MPI_Allreduce(MPI_IN_PLACE, want, (int)n, MPI_FLOAT, MPI_SUM, mc);
        coll_allreduce_ring(&groups[g], buf, n);
        char what[96];
        snprintf(what, sizeof what, "ring in the %s of a %d x %d grid, rank %d", g == 0 ? "rows" : "columns", rows, cols, rank);
        if (mrank != groups[g].rank) {
            fprintf(stderr, "%s: rank %d in our group, %d in MPI_Comm_split's\n", what, groups[g].rank, mrank);
            bad = 1;
        }
        bad |= pw_check_floats(what, buf, want, n, (double)size * size * 6e-8 + 1e-7, 0);
        MPI_Comm_free(&mc);
        coll_comm_free(&groups[g]);
    }
    return bad;
}

typedef struct { pw_comm *comm; coll_allreduce_fn fn; float *buf; const float *src; size_t n; bool mpi; } timed;

static void run_one(void *arg)
{
    timed *t = arg;
    memcpy(t->buf, t->src, t->n * sizeof(float));
    MPI_Barrier(MPI_COMM_WORLD);
    if (t->mpi) MPI_Allreduce(MPI_IN_PLACE, t->buf, (int)t->n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    else t->fn(t->comm, t->buf, t->n);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    pw_list sizes = { .n = 0 };        /* empty: not given, the defaults below */
    pw_opt opts[] = {
        { "-n", "--size", PW_OPT_SIZES, &sizes, "N[,N...]", "floats per buffer (default 1001,65537,1048579; --tiny: 1001,4099; -n wins)", 1, 1 << 28 },
    };
    pw_common_opts common;
    if (rank != 0) freopen("/dev/null", "w", stdout);      /* one copy of the tables */
    int prc = pw_parse(argc, argv, "ring and tree all-reduce over MPI point-to-point, against MPI_Allreduce",
                       opts, 1, &common);
    if (prc != PW_PARSE_OK) { MPI_Finalize(); return prc == PW_PARSE_HELP ? 0 : 2; }
    if (sizes.n == 0) sizes = common.tiny ? (pw_list)PW_LIST(1001, 4099) : (pw_list)PW_LIST(1001, 65537, 1048579);
    size_t nmax = (size_t)pw_list_max(&sizes);

    /* Bsend needs room for every message in flight: the naive root's p-1
     * whole buffers at most (p of them, to be safe), in one int-sized buffer. */
    size_t need = (size_t)size * (nmax * sizeof(float) + MPI_BSEND_OVERHEAD) + 4096;
    if (need > (size_t)INT_MAX) {
        size_t most = (((size_t)INT_MAX - 4096) / (size_t)size - MPI_BSEND_OVERHEAD) / sizeof(float);
        if (rank == 0)
            fprintf(stderr, "%s: -n %zu: on %d processes MPI_Bsend would need a %.1f GiB buffer, more than the INT_MAX bytes "
                    "MPI_Buffer_attach takes; at most %zu floats here\n", common.prog, nmax, size, (double)need / (1 << 30), most);
        MPI_Finalize();
        return PW_EXIT_USAGE;
    }
    pw_require_memory(common.prog, "-n", (long long)nmax, sizeof(float), 3 + size);   /* src, buf, want and the Bsend buffer */
    pw_comm comm = coll_comm_mpi(need);

    float *src = pw_alloc_floats(nmax), *buf = pw_alloc_floats(nmax), *want = pw_alloc_floats(nmax);
    int bad = 0;
    for (int s = 0; s < sizes.n; s++) {
        size_t n = (size_t)sizes.v[s];
        pw_fill_random(src, n, 77 + (uint64_t)rank, -1, 1);
        memcpy(want, src, n * sizeof(float));
        MPI_Allreduce(MPI_IN_PLACE, want, (int)n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        for (int a = 0; a < coll_allreduce_nalgos; a++) {
            memcpy(buf, src, n * sizeof(float));
            coll_allreduce_algos[a].fn(&comm, buf, n);
            char what[64];
            snprintf(what, sizeof what, "%s n=%zu rank %d", coll_allreduce_algos[a].name, n, rank);
            /* another summation order than MPI's: p-1 roundings of partial sums below p */
            int mine = pw_check_floats(what, buf, want, n, (double)size * size * 6e-8 + 1e-7, 0);
            uint64_t h = checksum(buf, n), hand = h, hor = h;
            MPI_Allreduce(MPI_IN_PLACE, &hand, 1, MPI_UINT64_T, MPI_BAND, MPI_COMM_WORLD);
            MPI_Allreduce(MPI_IN_PLACE, &hor, 1, MPI_UINT64_T, MPI_BOR, MPI_COMM_WORLD);
            if (hand != hor && rank == 0) {
                fprintf(stderr, "%s n=%zu: the processes do not hold identical bits\n", coll_allreduce_algos[a].name, n);
                mine = 1;
            }
            bad |= mine;
        }
    }
    bad |= check_groups(&comm, src, buf, want, (size_t)sizes.v[0]);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (bad) {
        if (rank == 0) fprintf(stderr, "%s: a collective disagreed with MPI_Allreduce; nothing timed\n", common.prog);
        MPI_Finalize();
        return PW_EXIT_WRONG;
    }
    printf("all variants match: naive, tree, ring over MPI point-to-point equal MPI_Allreduce on %d processes\n"
           "  (n = ", size);
    for (int s = 0; s < sizes.n; s++) printf("%s%lld", s ? ", " : "", sizes.v[s]);
    printf(" floats), every process holding the same bits; and in groups: the rows and columns of a %d x %d grid\n"
           "  (coll_comm_split) sum what MPI_Comm_split + MPI_Allreduce sum\n\n", size % 2 ? 1 : 2, size % 2 ? size : size / 2);

    pw_csv *csv = rank == 0 ? pw_csv_open(common.csv, argc, argv) : NULL;
    pw_bench_config cfg = pw_bench_from_opts(&common);
    cfg.min_sample_s = 0;            /* one collective per sample: every process must take part in each */
    cfg.min_time_s = 0;              /* and the same count on every process: a time limit could differ */
    printf("%10s %-15s %12s %9s %10s\n", "floats", "algorithm", "median", "IQR", "GB/s/rank");
    double *ours = calloc((size_t)sizes.n, sizeof *ours), *theirs = calloc((size_t)sizes.n, sizeof *theirs);
    const char **ours_name = calloc((size_t)sizes.n, sizeof *ours_name);
    for (int s = 0; s < sizes.n; s++) {
        size_t n = (size_t)sizes.v[s];
        pw_fill_random(src, n, 77 + (uint64_t)rank, -1, 1);
        for (int a = 0; a <= coll_allreduce_nalgos; a++) {
            bool mpi = a == coll_allreduce_nalgos;
            timed t = { &comm, mpi ? NULL : coll_allreduce_algos[a].fn, buf, src, n, mpi };
            pw_bench_stats st;
            pw_bench(&cfg, run_one, &t, &st);
            /* the job's time is the slowest process's */
            MPI_Allreduce(MPI_IN_PLACE, &st.median, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            MPI_Allreduce(MPI_IN_PLACE, &st.q1, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            MPI_Allreduce(MPI_IN_PLACE, &st.q3, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            const char *name = mpi ? "MPI_Allreduce" : coll_allreduce_algos[a].name;
            /* bytes: the ring's traffic per rank, 2(p-1)/p of the buffer, for every algorithm alike */
            double bytes = 2.0 * (size - 1) / size * (double)n * sizeof(float);
            printf("%10zu %-15s %9.3f ms %8.1f%% %10.2f\n", n, name, st.median * 1e3,
                   100 * (st.q3 - st.q1) / st.median, bytes / st.median * 1e-9);
            pw_csv_summary(csv, name, (long long)n, size, "mpi", &st, 0, bytes);
            if (mpi) theirs[s] = st.median;
            else if (!ours_name[s] || st.median < ours[s]) { ours[s] = st.median; ours_name[s] = name; }
        }
    }
    /* The comparison, from the medians above (the slowest process's). */
    printf("\nMPI_Allreduce against our fastest algorithm, this run (%d processes):\n", size);
    for (int s = 0; s < sizes.n; s++) {
        double ratio = ours[s] / theirs[s];
        printf("%10lld floats: MPI_Allreduce %.3f ms, our %s %.3f ms: %s is %.2fx faster\n", sizes.v[s], theirs[s] * 1e3,
               ours_name[s], ours[s] * 1e3, ratio >= 1 ? "MPI_Allreduce" : ours_name[s], ratio >= 1 ? ratio : 1 / ratio);
        pw_csv_quantity(csv, "mpi_over_ours", (long long)sizes.v[s], size, "speedup", ratio);
    }
    /* The answer at the largest size, where bandwidth, not latency, should decide. */
    int L = sizes.n - 1;
    double rl = ours[L] / theirs[L];
    printf("answer: at %lld floats %s was %.2fx faster (MPI_Allreduce %.3f ms, our %s %.3f ms) on %d processes\n",
           sizes.v[L], rl >= 1 ? "MPI_Allreduce" : ours_name[L], rl >= 1 ? rl : 1 / rl, theirs[L] * 1e3, ours_name[L],
           ours[L] * 1e3, size);
    free(ours);
    free(theirs);
    free(ours_name);
    int rc = pw_csv_close(csv);
    coll_comm_mpi_end(&comm);
    pw_free(src);
    pw_free(buf);
    pw_free(want);
    MPI_Finalize();
    return rc;
}
