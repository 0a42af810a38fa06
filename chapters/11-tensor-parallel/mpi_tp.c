/* chapters/11-tensor-parallel/mpi_tp.c: the tensor-parallel block of
 * tp_block.c across real processes. Each MPI process is one rank of the
 * split (t = the process count) and runs tp_block_rank
 * (kernels/tensor_parallel.c), the very function the virtual cluster runs,
 * over kernels/collectives_mpi.c's pw_comm.
 *
 *   mpirun --oversubscribe -np 4 ./build/ch11/mpi_tp     (make chapter-11 MPI=1)
 *   mpirun -np 2 ./build/ch11/mpi_tp -b 4 -s 64 -H 128 --heads 8
 *
 * Checks, on process 0:
 *   - it runs the same split on the virtual cluster in-process (t ranks)
 *     and compares every process's Y, dX and weight gradients with the
 *     cluster rank's BIT FOR BIT: the ring all-reduce adds the chunks in an
 *     order fixed by the rank numbers alone (kernels/collectives.c), not by
 *     which message came first, and the matmuls are the same code, so the
 *     same floats are added in the same order on both transports;
 *   - and the unsplit block within 1e-5 of each array's scale (the
 *     summation order differs there: tp_block.c explains the tolerance).
 * Then the time of one forward + backward: median over repeats of the
 * slowest process's time (a step ends when the last rank is done), beside
 * the modelled time of the cluster run (default links: one node, 450 GB/s,
 * 1 us; 100 TFLOP/s). They measure different machines: the model an H100
 * node, this run a laptop's processes over shared memory. Both TP and, when
 * t divides the sequence, TP + sequence parallelism.
 *
 * A process count that does not divide the heads is refused in one line
 * (exit 2 on every process).
 */
#include "check.h"
#include "cluster.h"
#include "collectives.h"
#include "collectives_mpi.h"
#include "options.h"
#include "results.h"
#include "tensor_parallel.h"
#include "util.h"

#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one rank produced: Y, dX (n x h each) and its weight gradients. */
typedef struct { float *y, *dx; tp_weights dw; } outputs;

static void outputs_alloc(outputs *o, const tp_shape *sh, int t)
{
    size_t nh = tp_tokens(sh) * (size_t)sh->h;
    o->y = pw_alloc_floats(nh);
    o->dx = pw_alloc_floats(nh);
    memset(o->y, 0, nh * sizeof(float));      /* SP leaves other ranks' rows untouched: zero on both sides */
    memset(o->dx, 0, nh * sizeof(float));
    tp_weights_alloc(&o->dw, sh, t);
}
static void outputs_free(outputs *o) { pw_free(o->y); pw_free(o->dx); tp_weights_free(&o->dw); }

typedef struct {
    tp_shape sh;
    bool sp;
    const tp_weights *full;
    const float *x, *dy;
    outputs *out;             /* per rank */
} job;

static void run_rank(pw_comm *c, job *j, outputs *o)
{
    tp_weights part;
    tp_weights_alloc(&part, &j->sh, c->size);
    tp_weights_slice(&j->sh, j->full, c->size, c->rank, &part);
    tp_rank_io io = { j->sh, j->sp, j->x, j->dy, &part, o->y, o->dx, &o->dw, 0 };
    tp_block_rank(c, &io);
    tp_weights_free(&part);
}

static void cluster_rank(pw_rank *r, void *arg)
{
    job *j = arg;
    pw_comm c = coll_comm_cluster(r);
    run_rank(&c, j, &j->out[c.rank]);
}

static double rel_err(const float *got, const float *ref, size_t n)
{
    double e = 0, m = 0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)got[i] - ref[i]);
        if (!(d <= e)) e = d;
        if (fabs(ref[i]) > m) m = fabs(ref[i]);
    }
    return m > 0 ? e / m : e;
}

/* First index where two float arrays differ in their bits, or -1. */
static long long first_diff(const float *a, const float *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp(&a[i], &b[i], sizeof(float))) return (long long)i;
    return -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, t;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &t);
    long long b = -1, s = -1, hid = -1, heads = -1;
    pw_opt opts[] = {
        { "-b", "--batch", PW_OPT_INT, &b, "B", "sequences (default 2)", 1, 64 },
        { "-s", "--seq", PW_OPT_INT, &s, "S", "tokens per sequence (default 32; --tiny 8)", 1, 1024 },
        { "-H", "--hidden", PW_OPT_INT, &hid, "H", "hidden size (default 96; --tiny 24)", 1, 2048 },
        { NULL, "--heads", PW_OPT_INT, &heads, "A", "heads (default 12; --tiny 12)", 1, 256 },
    };
    pw_common_opts common;
    if (rank != 0 && !freopen("/dev/null", "w", stdout)) return PW_EXIT_USAGE;   /* one copy of the tables */
    int prc = pw_parse(argc, argv, "the tensor-parallel block over MPI processes, against the virtual cluster",
                       opts, 4, &common);
    if (prc != PW_PARSE_OK) { MPI_Finalize(); return prc == PW_PARSE_HELP ? 0 : PW_EXIT_USAGE; }
    const char *prog = common.prog;
    /* 12 heads: t = 1, 2, 3, 4, 6 and 12 processes all split it */
    tp_shape sh = { b > 0 ? (int)b : 2, s > 0 ? (int)s : common.tiny ? 8 : 32, hid > 0 ? (int)hid : common.tiny ? 24 : 96,
                    heads > 0 ? (int)heads : 12 };
    char why[160];
    if (tp_shape_check(&sh, t, false, why, sizeof why)) {
        if (rank == 0) fprintf(stderr, "%s: %d processes: %s (mpirun -np T with T dividing %d)\n", prog, t, why, sh.heads);
        MPI_Finalize();
        return PW_EXIT_USAGE;
    }
    /* process 0 holds the reference, t gathered outputs and the cluster's t ranks: about
     * 2 t + 2 copies of a block's kept activations, buffers and weights */
    double want = 4 * (2.0 * t + 2) * (tp_stash_bytes(&sh, 1, false) / 4 + 8.0 * tp_tokens(&sh) * sh.h + 24.0 * sh.h * sh.h);
    int too_big = rank == 0 && want > pw_available_memory();
    MPI_Bcast(&too_big, 1, MPI_INT, 0, MPI_COMM_WORLD);       /* one line, from process 0; every process exits 2 */
    if (too_big) {
        if (rank == 0)
            fprintf(stderr, "%s: -b/-s/-H: about %.1f GiB needed on process 0, only %.1f GiB of memory available\n", prog,
                    want / (1 << 30), pw_available_memory() / (1 << 30));
        MPI_Finalize();
        return PW_EXIT_USAGE;
    }
    size_t n = tp_tokens(&sh), h = (size_t)sh.h, nh = n * h, nw = tp_weight_floats(&sh, t);
    /* Bsend: a ring step has one chunk of n h / t floats in flight per
     * process; room for a whole activation, twice, is plenty */
    size_t need = 2 * (nh * sizeof(float) + MPI_BSEND_OVERHEAD) + 4096;
    if (need > (size_t)INT_MAX) {
        if (rank == 0) fprintf(stderr, "%s: n h = %zu floats need a Bsend buffer over INT_MAX bytes\n", prog, nh);
        MPI_Finalize();
        return PW_EXIT_USAGE;
    }
    pw_comm world = coll_comm_mpi(need);

    tp_weights full;
    tp_weights_alloc(&full, &sh, 1);
    tp_weights_init(&full, &sh, 11);
    float *x = pw_alloc_floats(nh), *dy = pw_alloc_floats(nh);
    pw_fill_random(x, nh, 21, -1, 1);
    pw_fill_random(dy, nh, 22, -1, 1);

    /* the unsplit block, on process 0 */
    tp_weights rdw;
    float *ry = NULL, *rdx = NULL;
    if (rank == 0) {
        tp_weights_alloc(&rdw, &sh, 1);
        ry = pw_alloc_floats(nh);
        rdx = pw_alloc_floats(nh);
        tp_block_reference(&sh, &full, x, dy, ry, rdx, &rdw);
    }
    printf("tensor-parallel block (b %d, s %d, h %d, %d heads) on %d MPI processes, t = %d\n\n", sh.b, sh.s, sh.h, sh.heads, t, t);
    printf("%-6s %18s %12s %12s %12s %12s\n", "mode", "MPI vs cluster", "err vs ref", "measured", "IQR", "modelled");
    int bad = 0, reps = common.reps > 0 ? common.reps : 15, nres = 0;
    struct { bool sp; double med, modelled; } res[2];
    for (int mode = 0; mode < 2; mode++) {
        bool sp = mode == 1;
        if (sp && (t == 1 || sh.s % t)) continue;
        job j = { sh, sp, &full, x, dy, NULL };
        outputs mine;
        outputs_alloc(&mine, &sh, t);
        run_rank(&world, &j, &mine);
        /* everything to process 0 */
        outputs *all = NULL;
        float *gy = NULL, *gdx = NULL, *gw = NULL;
        if (rank == 0) {
            gy = pw_alloc_floats(nh * (size_t)t);
            gdx = pw_alloc_floats(nh * (size_t)t);
            gw = pw_alloc_floats(nw * (size_t)t);
        }
        coll_mpi_count_fits(nh * (size_t)t * sizeof(float), "the gathered outputs");
        MPI_Gather(mine.y, (int)nh, MPI_FLOAT, gy, (int)nh, MPI_FLOAT, 0, MPI_COMM_WORLD);
        MPI_Gather(mine.dx, (int)nh, MPI_FLOAT, gdx, (int)nh, MPI_FLOAT, 0, MPI_COMM_WORLD);
        MPI_Gather(tp_weights_flat(&mine.dw), (int)nw, MPI_FLOAT, gw, (int)nw, MPI_FLOAT, 0, MPI_COMM_WORLD);
        char same[32] = "", errs[32] = "";
        double modelled = 0;
        int wrong = 0;
        if (rank == 0) {
            /* the cluster, in-process, t ranks, default links */
            all = calloc((size_t)t, sizeof *all);
            for (int r = 0; r < t; r++) outputs_alloc(&all[r], &sh, t);
            j.out = all;
            pw_cluster_config cfg = pw_cluster_defaults(t);
            pw_cluster *c = pw_cluster_create(&cfg);
            if (pw_cluster_run(c, cluster_rank, &j) != PW_CLUSTER_OK) {
                fprintf(stderr, "%s: the cluster run failed:\n%s", prog, pw_cluster_report(c));
                wrong = 1;
            }
            modelled = pw_cluster_time(c);
            pw_cluster_destroy(c);
            for (int r = 0; r < t && !wrong; r++) {
                const float *py = gy + (size_t)r * nh, *pdx = gdx + (size_t)r * nh, *pw = gw + (size_t)r * nw;
                long long iy = first_diff(py, all[r].y, nh), idx = first_diff(pdx, all[r].dx, nh),
                          iw = first_diff(pw, tp_weights_flat(&all[r].dw), nw);
                if (iy >= 0 || idx >= 0 || iw >= 0) {
                    const char *what = iy >= 0 ? "Y" : idx >= 0 ? "dX" : "the weight gradients";
                    long long i = iy >= 0 ? iy : idx >= 0 ? idx : iw;
                    const float *a = iy >= 0 ? py : idx >= 0 ? pdx : pw;
                    const float *z = iy >= 0 ? all[r].y : idx >= 0 ? all[r].dx : tp_weights_flat(&all[r].dw);
                    fprintf(stderr, "%s: %s: process %d's %s differ from cluster rank %d's at element %lld: %.9g against %.9g\n",
                            prog, sp ? "TP+SP" : "TP", r, what, r, i, (double)a[i], (double)z[i]);
                    wrong = 1;
                }
            }
            snprintf(same, sizeof same, "%s", wrong ? "DIFFER" : "same bits");
            /* against the unsplit block, assembled as tp_block.c does */
            float *ay = pw_alloc_floats(nh), *adx = pw_alloc_floats(nh);
            tp_weights adw;
            tp_weights_alloc(&adw, &sh, 1);
            for (int r = 0; r < t; r++) {
                size_t r0 = 0, rows = n;
                if (sp) tp_seq_rows(&sh, t, r, &r0, &rows);
                memcpy(ay + r0 * h, gy + (size_t)r * nh + r0 * h, rows * h * sizeof(float));
                memcpy(adx + r0 * h, gdx + (size_t)r * nh + r0 * h, rows * h * sizeof(float));
                tp_weights part = { 0 };
                tp_weights_alloc(&part, &sh, t);
                memcpy(tp_weights_flat(&part), gw + (size_t)r * nw, nw * sizeof(float));
                tp_weights_unslice(&sh, &part, t, r, &adw);
                tp_weights_free(&part);
            }
            double e = fmax(rel_err(ay, ry, nh), fmax(rel_err(adx, rdx, nh),
                            rel_err(tp_weights_flat(&adw), tp_weights_flat(&rdw), tp_weight_floats(&sh, 1))));
            if (!(e <= 1e-5)) {
                fprintf(stderr, "%s: %s: the MPI run is %.3g off the unsplit block (tolerance 1e-5)\n", prog, sp ? "TP+SP" : "TP", e);
                wrong = 1;
            }
            snprintf(errs, sizeof errs, "%.1e", e);
            pw_free(ay);
            pw_free(adx);
            tp_weights_free(&adw);
            for (int r = 0; r < t; r++) outputs_free(&all[r]);
            free(all);
            pw_free(gy); pw_free(gdx); pw_free(gw);
        }
        MPI_Bcast(&wrong, 1, MPI_INT, 0, MPI_COMM_WORLD);
        bad |= wrong;
        if (wrong) {
            outputs_free(&mine);
            printf("%-6s %18s %12s\n", sp ? "TP+SP" : "TP", same, errs);
            break;
        }
        /* the time: the slowest process's, per repeat; one warm-up first */
        double *times = malloc((size_t)reps * sizeof *times);
        for (int k = -1; k < reps; k++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            run_rank(&world, &j, &mine);
            double dt = MPI_Wtime() - t0;
            MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            if (k >= 0) times[k] = dt;
        }
        qsort(times, (size_t)reps, sizeof *times, cmp_double);
        double med = times[reps / 2], q1 = times[reps / 4], q3 = times[(3 * reps) / 4];
        printf("%-6s %18s %12s %9.3f ms %11.1f%% %9.4f ms\n", sp ? "TP+SP" : "TP", same, errs, med * 1e3,
               100 * (q3 - q1) / med, modelled * 1e3);
        res[nres].sp = sp;
        res[nres].med = med;
        res[nres++].modelled = modelled;
        free(times);
        outputs_free(&mine);
    }
    int rc = PW_EXIT_WRONG;
    if (bad) {
        if (rank == 0) fprintf(stderr, "%s: the MPI run disagreed; nothing written\n", prog);
    } else {
        printf("all variants match: every process's Y, dX and weight gradients are the cluster rank's bits, and the unsplit\n"
               "  block's within 1e-5; measured: the slowest of %d processes here, median of %d; modelled: an H100 node's links\n", t, reps);
        printf("\nanswer: over MPI every process holds the cluster rank's bits, the same adds in the same order; the measured\n"
               "  block took");
        for (int k = 0; k < nres; k++)
            printf("%s %.0fx the modelled one (%s)", k ? "," : "", res[k].med / res[k].modelled, res[k].sp ? "TP+SP" : "TP");
        printf(": %d processes on this machine against an H100 node\n", t);
        pw_csv *csv = rank == 0 ? pw_csv_open(common.csv, argc, argv) : NULL;
        for (int k = 0; k < nres; k++) {
            const char *mode = res[k].sp ? "sp" : "tp";
            pw_csv_value(csv, "measured", (long long)nh, t, mode, res[k].med,
                         tp_flops_forward(&sh, t) + tp_flops_backward(&sh, t), tp_comm_bytes(&sh, t, res[k].sp));
            pw_csv_value(csv, "modelled", (long long)nh, t, mode, res[k].modelled, 0, tp_comm_bytes(&sh, t, res[k].sp));
        }
        rc = pw_csv_close(csv);
    }
    if (rank == 0) {
        tp_weights_free(&rdw);
        pw_free(ry);
        pw_free(rdx);
    }
    tp_weights_free(&full);
    pw_free(x);
    pw_free(dy);
    coll_comm_mpi_end(&world);
    MPI_Finalize();
    return rc;
}
