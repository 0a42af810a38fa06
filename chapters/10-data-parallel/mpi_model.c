/* chapters/10-data-parallel/mpi_model.c: the virtual cluster's alpha-beta
 * model checked against this machine's real MPI transport.
 *
 *   mpirun -np 2 ./build/ch10/mpi_model --csv m2.csv         (ping-pong, fit, prediction)
 *   mpirun --oversubscribe -np 4 ./build/ch10/mpi_model --fit m2.csv
 *
 * 1. Ping-pong (ranks 0 and 1, MPI_Send/MPI_Recv; the other ranks wait
 *    without spinning): one-way time = half a round trip, powers of two from
 *    1 byte to --max-bytes, median of the samples. Fit t = alpha + n beta
 *    (kernels/alphabeta.h: relative residuals, every size alike), then the
 *    two lines that fit best: where one line fails, named against Open MPI's
 *    eager limit (read through MPI_T) and the caches (common/probe.h).
 *    Both directions at once (MPI_Sendrecv) at the large sizes: the model's
 *    links are full duplex; a shared-memory copy is the CPU's and memory's.
 *    --fit FILE takes alpha and beta from the CSV of an earlier run instead
 *    (run.sh fits once, on 2 processes, and predicts 3 and 4 from it).
 * 2. Predict, then measure: the workbook's naive, tree and ring all-reduce
 *    (kernels/collectives.c) on the virtual cluster with the fitted alpha
 *    and beta (one node of p ranks: modelled, no spread), then the same code
 *    over MPI and MPI_Allreduce, timed here (the slowest process per repeat,
 *    median and IQR over the repeats). measured/modelled per size. The model
 *    leaves out what a CPU spends besides the message: MPI_Bsend's copy of
 *    every byte sent into its buffer (kernels/collectives_mpi.c), the
 *    reduction's additions and the fresh pages of the ring's scratch buffer
 *    (a new malloc each call); each is measured here on its own and printed
 *    beside the gap, never folded into the model.
 * 3. One data-parallel step of chapter 10's MLP (kernels/dp_train.c):
 *    modelled = the virtual cluster with this machine's compute rate
 *    (measured: mlp_grad_sum on a shard) and the fitted link; measured = the
 *    same step over MPI, median over the steps after the first.
 * More processes on a host than it has cores (the probe's logical_cores;
 * MPI_Comm_split_type groups the processes by host) is said: the model
 * gives every rank its own core, oversubscribed ranks take turns.
 *
 * CSV: pingpong (summary, n = bytes, param one_way; bidir), fit (modelled
 * rows of the line; quantities alpha_s, beta_s_per_byte, rms_rel, max_rel,
 * split_bytes, below_*, above_*), allreduce rows (modelled: variant
 * ALGO, param model; summary: param mpi; quantity ratio), dp_step rows.
 * n is bytes throughout.
 */
#define _POSIX_C_SOURCE 200809L     /* nanosleep, under -std=c11 */
#include "alphabeta.h"
#include "check.h"
#include "cluster.h"
#include "collectives.h"
#include "collectives_mpi.h"
#include "dp_train.h"
#include "errcheck.h"
#include "options.h"
#include "probe.h"
#include "results.h"
#include "timing.h"
#include "util.h"

#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_PP 40

static int rank, size;

/* Ranks not in the ping-pong wait here without spinning: a busy-polling
 * MPI_Barrier would take the cores the two measured ranks need. */
static void wait_politely(void)
{
    MPI_Request req;
    int done = 0;
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    while (!done) {
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (!done) nanosleep(&(struct timespec){ 0, 200000 }, NULL);
    }
}

static double stat_median(double *x, int n, double *q1, double *q3)
{
    pw_bench_stats st;
    pw_summarize(x, n, &st);
    if (q1) *q1 = st.q1;
    if (q3) *q3 = st.q3;
    return st.median;
}

/* One-way time of n bytes between ranks 0 and 1: half a round trip, `inner`
 * round trips per sample so that a sample of small messages is long enough
 * for the clock. bidir: both send at once (MPI_Sendrecv), one exchange per
 * sample. */
static void pingpong(char *buf, char *buf2, size_t n, int reps, bool bidir, pw_bench_stats *st)
{
    int inner = bidir ? 1 : n <= 65536 ? 32 : n <= (1 << 20) ? 4 : 1, other = 1 - rank;
    double s[PW_MAX_SAMPLES];
    for (int k = -2; k < reps; k++) {        /* two warm-up samples: first touch, connection set-up */
        double t0 = MPI_Wtime();
        for (int i = 0; i < inner; i++) {
            if (bidir) {
                MPI_Sendrecv(buf, (int)n, MPI_BYTE, other, 1, buf2, (int)n, MPI_BYTE, other, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 0) {
                MPI_Send(buf, (int)n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(buf, (int)n, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buf, (int)n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, (int)n, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
        }
        if (k >= 0) s[k] = (MPI_Wtime() - t0) / inner / (bidir ? 1 : 2);
    }
    pw_summarize(s, reps, st);
}

/* ---- the virtual cluster's prediction ------------------------------------------ */

typedef struct { coll_allreduce_fn fn; size_t n; const dp_job *job; double *step_s; } vjob;

static void v_allreduce(pw_rank *r, void *arg)
{
    vjob *j = arg;
    pw_comm comm = coll_comm_cluster(r);
    j->fn(&comm, NULL, j->n);               /* a phantom buffer: the clocks, no data */
}

static void v_train(pw_rank *r, void *arg)
{
    vjob *j = arg;
    pw_comm comm = coll_comm_cluster(r);
    size_t np = mlp_nparams(j->job->s);
    float *w = pw_alloc_floats(np);
    mlp_init(j->job->s, w, 7);
    dp_replica(&comm, j->job, w, NULL, comm.rank == 0 ? j->step_s : NULL);
    pw_free(w);
}

static pw_cluster_config model_config(double alpha, double beta, double gflops)
{
    pw_cluster_config cfg = pw_cluster_defaults(size);
    cfg.ranks_per_node = size;               /* one link kind: the one the ping-pong measured */
    cfg.intra_alpha = cfg.inter_alpha = alpha;
    cfg.intra_gbs = cfg.inter_gbs = 1e-9 / beta;
    if (gflops > 0) cfg.device_gflops = gflops;
    pw_cluster_check_or_exit("mpi_model", &cfg);
    return cfg;
}

static double v_run(const pw_cluster_config *cfg, pw_rank_fn fn, vjob *j)
{
    pw_cluster *c = pw_cluster_create(cfg);
    if (pw_cluster_run(c, fn, j) != 0) {
        fprintf(stderr, "%s", pw_cluster_report(c));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    double t = pw_cluster_time(c);
    pw_cluster_destroy(c);
    return t;
}

/* ---- --fit FILE ------------------------------------------------------------------- */

typedef struct { double alpha, beta, split, lo_a, lo_b, hi_a, hi_b; } fit_read;

static void on_fit(const char *param, double v, void *ctx)
{
    fit_read *f = ctx;
    if (!strcmp(param, "alpha_s")) f->alpha = v;
    if (!strcmp(param, "beta_s_per_byte")) f->beta = v;
    if (!strcmp(param, "split_bytes")) f->split = v;
    if (!strcmp(param, "below_alpha_s")) f->lo_a = v;
    if (!strcmp(param, "below_beta_s_per_byte")) f->lo_b = v;
    if (!strcmp(param, "above_alpha_s")) f->hi_a = v;
    if (!strcmp(param, "above_beta_s_per_byte")) f->hi_b = v;
}

/* ---- measured pieces the model leaves out ----------------------------------------- */

static double time_copy(float *dst, const float *src, size_t floats, int reps)
{
    double s[PW_MAX_SAMPLES];
    for (int k = -1; k < reps; k++) {
        double t0 = MPI_Wtime();
        memcpy(dst, src, floats * sizeof(float));
        pw_consume(dst);
        if (k >= 0) s[k] = MPI_Wtime() - t0;
    }
    return stat_median(s, reps, NULL, NULL);
}

static double time_add(float *dst, const float *src, size_t floats, int reps)
{
    double s[PW_MAX_SAMPLES];
    for (int k = -1; k < reps; k++) {
        double t0 = MPI_Wtime();
        for (size_t i = 0; i < floats; i++) dst[i] += src[i];
        pw_consume(dst);
        if (k >= 0) s[k] = MPI_Wtime() - t0;
    }
    return stat_median(s, reps, NULL, NULL);
}

/* The ring's scratch buffer (n/p floats, kernels/collectives.c) is a new
 * malloc each call. Past glibc's mmap threshold (128 KiB, rising to 32 MiB at
 * most) that is fresh pages from the kernel, each faulted in and zeroed on
 * first touch: the cost of touching new pages minus touching warm ones. */
static double time_fresh_pages(float *warm, size_t floats, int reps)
{
    double s[PW_MAX_SAMPLES], w[PW_MAX_SAMPLES];
    size_t bytes = floats * sizeof(float);
    for (int k = -1; k < reps; k++) {
        double t0 = MPI_Wtime();
        float *fresh = malloc(bytes ? bytes : 1);
        PW_CHECK_ALLOC(fresh, bytes);
        memset(fresh, 1, bytes);
        pw_consume(fresh);
        free(fresh);
        double t1 = MPI_Wtime();
        memset(warm, 1, bytes);
        pw_consume(warm);
        if (k >= 0) { s[k] = t1 - t0; w[k] = MPI_Wtime() - t1; }
    }
    double d = stat_median(s, reps, NULL, NULL) - stat_median(w, reps, NULL, NULL);
    return d > 0 ? d : 0;
}

/* The ring taken apart in place: the same coll_allreduce_ring through a
 * pw_comm whose send and receive are MPI's, each call timed (a wrapper, as
 * chapter 16 counts bytes). Time in MPI_Bsend is its copy into the buffer;
 * time in MPI_Recv is waiting for the partner plus the transfer (and the
 * new pages of the scratch buffer it lands in); the rest of the total is
 * the ring's own work (the additions, the scratch's malloc). */
static pw_comm timed_inner;
static double t_in_send, t_in_recv;
static void timed_send(pw_comm *c, int dst, int tag, const void *b, size_t bytes)
{
    (void)c;
    double t0 = MPI_Wtime();
    timed_inner.send(&timed_inner, dst, tag, b, bytes);
    t_in_send += MPI_Wtime() - t0;
}
static void timed_recv(pw_comm *c, int src, int tag, void *b, size_t bytes)
{
    (void)c;
    double t0 = MPI_Wtime();
    timed_inner.recv(&timed_inner, src, tag, b, bytes);
    t_in_recv += MPI_Wtime() - t0;
}
/* ph[0..2] = median seconds in send, in recv, in total, over reps on this rank. */
static void ring_apart(pw_comm *comm, float *buf, const float *src, size_t n, int reps, double ph[3])
{
    double s[3][PW_MAX_SAMPLES];
    timed_inner = *comm;
    pw_comm c = *comm;
    c.send = timed_send, c.recv = timed_recv;
    for (int k = -1; k < reps; k++) {
        memcpy(buf, src, n * sizeof(float));
        MPI_Barrier(MPI_COMM_WORLD);
        t_in_send = t_in_recv = 0;
        double t0 = MPI_Wtime();
        coll_allreduce_ring(&c, buf, n);
        double t = MPI_Wtime() - t0;
        if (k >= 0) s[0][k] = t_in_send, s[1][k] = t_in_recv, s[2][k] = t;
    }
    for (int i = 0; i < 3; i++) ph[i] = stat_median(s[i], reps, NULL, NULL);
}

static const char *fmt_time(double s, char *b, size_t len)
{
    if (s < 1e-3) snprintf(b, len, "%.2f us", s * 1e6);
    else snprintf(b, len, "%.3f ms", s * 1e3);
    return b;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long long max_bytes = -1, batch = 250, steps = -1;
    pw_list sizes = { .n = 0 };
    const char *fit_file = NULL;
    pw_opt opts[] = {
        { NULL, "--max-bytes", PW_OPT_INT, &max_bytes, "B", "largest ping-pong message (default 64M; --tiny: 1M)", 1, 1LL << 30 },
        { "-n", "--bytes", PW_OPT_SIZES, &sizes, "B[,B...]", "all-reduce sizes in bytes, multiples of 4 (default 4K,16K,...,64M; --tiny: 4K,64K,1M)", 4, 1LL << 28 },
        { NULL, "--fit", PW_OPT_STRING, &fit_file, "FILE", "alpha and beta from the CSV of an earlier run (no ping-pong)", 0, 0 },
        { "-b", "--batch", PW_OPT_INT, &batch, "B", "the data-parallel step's global batch (default 250)", 1, 1 << 20 },
        { "-s", "--steps", PW_OPT_INT, &steps, "S", "data-parallel steps timed (default 40; --tiny: 8)", 3, 100000 },
    };
    pw_common_opts common;
    if (rank != 0 && !freopen("/dev/null", "w", stdout)) return 1;
    int prc = pw_parse(argc, argv, "the alpha-beta model against this machine's MPI: ping-pong fit, all-reduce and a DP step predicted and measured",
                       opts, 5, &common);
    if (prc != PW_PARSE_OK) { MPI_Finalize(); return prc == PW_PARSE_HELP ? 0 : 2; }
    const char *prog = common.prog;
    int usage = 0;
    if (size < 2) { if (rank == 0) fprintf(stderr, "%s: %d process: the model needs two at least (mpirun -np 2 %s)\n", prog, size, prog); usage = 1; }
    if (!usage && fit_file && max_bytes > 0) { if (rank == 0) fprintf(stderr, "%s: --fit and --max-bytes: a fit read from a file measures no ping-pong\n", prog); usage = 1; }
    for (int i = 0; !usage && i < sizes.n; i++)
        if (sizes.v[i] % 4) { if (rank == 0) fprintf(stderr, "%s: -n %lld: not a whole number of floats (a multiple of 4 bytes)\n", prog, sizes.v[i]); usage = 1; }
    if (usage) { MPI_Finalize(); return PW_EXIT_USAGE; }
    if (max_bytes < 0) max_bytes = common.tiny ? 1 << 20 : 64 << 20;
    if (steps < 0) steps = common.tiny ? 8 : 40;
    if (sizes.n == 0) sizes = common.tiny ? (pw_list)PW_LIST(4096, 65536, 1 << 20)
                                          : (pw_list)PW_LIST(4096, 16384, 65536, 262144, 1 << 20, 4 << 20, 16 << 20, 64 << 20);
    size_t nmax = (size_t)pw_list_max(&sizes) / sizeof(float);
    size_t need = (size_t)size * (nmax * sizeof(float) + MPI_BSEND_OVERHEAD) + 4096;
    if (need > (size_t)INT_MAX) {
        if (rank == 0) fprintf(stderr, "%s: -n %zu bytes on %d processes: MPI_Bsend would need %.1f GiB, more than the INT_MAX bytes MPI_Buffer_attach takes\n",
                               prog, nmax * sizeof(float), size, (double)need / (1 << 30));
        MPI_Finalize();
        return PW_EXIT_USAGE;
    }
    pw_require_memory(prog, "-n", (long long)nmax, sizeof(float), 4 + size);
    pw_bench_config bc = pw_bench_from_opts(&common);
    int reps = bc.min_reps < 3 ? 3 : bc.min_reps > PW_MAX_SAMPLES ? PW_MAX_SAMPLES : bc.min_reps;
    pw_csv *csv = rank == 0 ? pw_csv_open(common.csv, argc, argv) : NULL;

    /* Processes per host against the host's cores. */
    pw_hw hw;
    pw_probe_static(&hw);
    MPI_Comm host;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &host);
    int on_host, over = 0, hosts = 0, first = 0, host_rank;
    MPI_Comm_size(host, &on_host);
    MPI_Comm_rank(host, &host_rank);
    first = host_rank == 0;
    int mine = on_host > hw.logical_cores, most = on_host, cores = hw.logical_cores;
    MPI_Allreduce(&mine, &over, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&first, &hosts, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &cores, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Comm_free(&host);
    char eager[64] = "", copy[64] = "";
    int have_eager = coll_mpi_cvar("btl_vader_eager_limit", eager, sizeof eager) == 0;
    if (coll_mpi_cvar("btl_vader_single_copy_mechanism", copy, sizeof copy) != 0) snprintf(copy, sizeof copy, "unknown");
    printf("%d processes on %d host%s, at most %d on a host of %d logical cores (common/probe.h)%s\n", size, hosts,
           hosts == 1 ? "" : "s", most, cores, over ? ": OVERSUBSCRIBED, ranks take turns on the cores" : "");
    pw_csv_meta(csv, "processes", "%d", size);
    pw_csv_meta(csv, "hosts", "%d", hosts);
    pw_csv_meta(csv, "oversubscribed", "%d", over);
    if (have_eager) pw_csv_meta(csv, "btl_vader_eager_limit", "%s", eager);

    /* ---- 1. ping-pong and fit ------------------------------------------------------- */
    double alpha = 0, beta = 0, one_way_big = 0;
    double seg[5] = { 0, 0, 0, 0, 0 };      /* split bytes, below alpha, beta, above alpha, beta (0: none) */
    double ppn[MAX_PP], ppt[MAX_PP];
    static pw_bench_stats ppst[MAX_PP];
    int npp = 0;
    char b1[32], b2[32], b3[32], b4[32];
    if (!fit_file) {
        for (long long n = 1; n <= max_bytes && npp < MAX_PP; n *= 2) ppn[npp++] = (double)n;
        char *pb = pw_alloc_bytes((size_t)max_bytes), *pb2 = pw_alloc_bytes((size_t)max_bytes);
        memset(pb, 1, (size_t)max_bytes);
        memset(pb2, 2, (size_t)max_bytes);
        double bidir_n[2] = { 1 << 20, (double)max_bytes }, bidir_t[2] = { 0, 0 }, bidir_one[2] = { 0, 0 };
        if (rank < 2) {
            for (int i = 0; i < npp; i++) {
                pingpong(pb, pb2, (size_t)ppn[i], reps, false, &ppst[i]);
                ppt[i] = ppst[i].median;
            }
            for (int i = 0; i < 2; i++)
                if (bidir_n[i] <= max_bytes && (i == 0 || bidir_n[1] != bidir_n[0])) {
                    pw_bench_stats st;
                    pingpong(pb, pb2, (size_t)bidir_n[i], reps, true, &st);
                    bidir_t[i] = st.median;
                    for (int k = 0; k < npp; k++) if (ppn[k] == bidir_n[i]) bidir_one[i] = ppt[k];
                }
        }
        wait_politely();
        pw_free(pb);
        pw_free(pb2);
        ab_line line, lo, hi;
        int split = -1;
        if (rank == 0) {
            if (ab_fit(ppn, ppt, 0, npp, &line) != 0) {
                fprintf(stderr, "%s: --max-bytes %lld: the fit needs two message sizes at least\n", prog, max_bytes);
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
            alpha = line.alpha;
            beta = line.beta;
            split = ab_fit_two_segments(ppn, ppt, npp, 3, &lo, &hi);
            printf("\nping-pong between ranks 0 and 1 (MPI_Send/MPI_Recv), one-way time = half a round trip, median of %d\n", reps);
            printf("%10s %12s %7s %14s %9s %9s\n", "bytes", "measured", "IQR", "fit (modelled)", "fit/meas", "GB/s");
            for (int i = 0; i < npp; i++) {
                double f = alpha + beta * ppn[i];
                printf("%10s %9.3f us %6.1f%% %11.3f us %+8.1f%% %9.3f\n", pw_fmt_bytes(ppn[i], b1, sizeof b1), ppt[i] * 1e6,
                       100 * (ppst[i].q3 - ppst[i].q1) / ppt[i], f * 1e6, 100 * ab_residual(&line, ppn[i], ppt[i]), ppn[i] / ppt[i] * 1e-9);
                pw_csv_summary(csv, "pingpong", (long long)ppn[i], 2, "one_way", &ppst[i], 0, ppn[i]);
                pw_csv_modelled(csv, "fit", (long long)ppn[i], 2, "one_line", f, 0, ppn[i]);
                pw_csv_quantity(csv, "fit", (long long)ppn[i], 2, "residual", ab_residual(&line, ppn[i], ppt[i]));
                if (split > 0) pw_csv_modelled(csv, i < split ? "fit_below" : "fit_above", (long long)ppn[i], 2, "segment",
                                               (i < split ? lo.alpha + lo.beta * ppn[i] : hi.alpha + hi.beta * ppn[i]), 0, ppn[i]);
            }
            printf("fit: alpha = %.3f us, beta = %.4f ns/KiB = %.3f GB/s (1/beta); weighted by 1/t^2, so every size counts alike\n",
                   alpha * 1e6, beta * 1024 * 1e9, 1e-9 / beta);
            printf("  residuals: rms %.1f%%, worst %+.1f%% at %s\n", 100 * line.rms_rel,
                   100 * ab_residual(&line, ppn[line.worst], ppt[line.worst]), pw_fmt_bytes(ppn[line.worst], b1, sizeof b1));
            pw_csv_quantity(csv, "fit", 0, 2, "alpha_s", alpha);
            pw_csv_quantity(csv, "fit", 0, 2, "beta_s_per_byte", beta);
            pw_csv_quantity(csv, "fit", 0, 2, "rms_rel", line.rms_rel);
            pw_csv_quantity(csv, "fit", 0, 2, "max_rel", line.max_rel);
            if (split > 0) {
                double sb = ppn[split];
                printf("where one line fails: two lines fit best split between %s and %s (rms %.1f%% and %.1f%% against one line's %.1f%%)\n",
                       pw_fmt_bytes(ppn[split - 1], b1, sizeof b1), pw_fmt_bytes(sb, b2, sizeof b2), 100 * lo.rms_rel, 100 * hi.rms_rel, 100 * line.rms_rel);
                printf("  below: alpha %.3f us, %.3f GB/s; above: alpha %.3f us, %.3f GB/s\n", lo.alpha * 1e6, 1e-9 / lo.beta,
                       hi.alpha * 1e6, 1e-9 / hi.beta);
                /* What sits at the split: Open MPI's eager limit, or a cache. */
                double eg = have_eager ? atof(eager) : 0;
                const char *why = NULL;
                char whyb[256];
                if (eg > 0 && eg >= ppn[split - 1] && eg < sb * 2) {
                    snprintf(whyb, sizeof whyb, "Open MPI's eager limit (btl_vader_eager_limit = %s bytes, read through MPI_T): "
                             "copied through a shared buffer below, a rendezvous (handshake, then one %s copy) above", eager, copy);
                    why = whyb;
                } else if (hw.l2 > 0 && hw.l2 >= ppn[split - 1] / 2 && hw.l2 <= sb * 2) {
                    snprintf(whyb, sizeof whyb, "the L2 cache (%s a core): larger messages come from farther away", pw_fmt_bytes((double)hw.l2, b3, sizeof b3));
                    why = whyb;
                } else if (hw.l3 > 0 && hw.l3 >= ppn[split - 1] / 2 && hw.l3 <= sb * 2) {
                    snprintf(whyb, sizeof whyb, "the L3 cache (%s): larger messages come from DRAM", pw_fmt_bytes((double)hw.l3, b3, sizeof b3));
                    why = whyb;
                }
                printf("  at the split: %s\n", why ? why : "neither the eager limit nor a cache size this program knows: look at the table");
                seg[0] = sb; seg[1] = lo.alpha; seg[2] = lo.beta; seg[3] = hi.alpha; seg[4] = hi.beta;
                pw_csv_quantity(csv, "fit", 0, 2, "split_bytes", sb);
                pw_csv_quantity(csv, "fit", 0, 2, "below_alpha_s", lo.alpha);
                pw_csv_quantity(csv, "fit", 0, 2, "below_beta_s_per_byte", lo.beta);
                pw_csv_quantity(csv, "fit", 0, 2, "above_alpha_s", hi.alpha);
                pw_csv_quantity(csv, "fit", 0, 2, "above_beta_s_per_byte", hi.beta);
            }
            for (int i = 0; i < 2; i++)
                if (bidir_t[i] > 0 && bidir_one[i] > 0 && (i == 0 || bidir_n[1] != bidir_n[0])) {
                    printf("both directions at once (MPI_Sendrecv), %s: %.3f GB/s each way against %.3f GB/s one way: "
                           "the model's full-duplex link says equal; here the two copies share the memory\n",
                           pw_fmt_bytes(bidir_n[i], b1, sizeof b1), bidir_n[i] / bidir_t[i] * 1e-9, bidir_n[i] / bidir_one[i] * 1e-9);
                    pw_csv_quantity(csv, "bidir_over_one_way", (long long)bidir_n[i], 2, "time_ratio", bidir_t[i] / bidir_one[i]);
                }
            one_way_big = ppt[npp - 1];
        }
    } else if (rank == 0) {
        fit_read f = { 0, 0, 0, 0, 0, 0, 0 };
        if (pw_csv_read_quantities(fit_file, "fit", 0, "", on_fit, &f) < 0 || !(f.beta > 0) || !(f.alpha >= 0)) {
            fprintf(stderr, "%s: --fit %s: no fit there (write one with mpirun -np 2 %s --csv FILE)\n", prog, fit_file, prog);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        alpha = f.alpha;
        beta = f.beta;
        if (f.split > 0 && f.lo_b > 0 && f.hi_b > 0) {
            seg[0] = f.split; seg[1] = f.lo_a; seg[2] = f.lo_b; seg[3] = f.hi_a; seg[4] = f.hi_b;
            pw_csv_quantity(csv, "fit", 0, 2, "split_bytes", seg[0]);
            pw_csv_quantity(csv, "fit", 0, 2, "below_alpha_s", seg[1]);
            pw_csv_quantity(csv, "fit", 0, 2, "below_beta_s_per_byte", seg[2]);
            pw_csv_quantity(csv, "fit", 0, 2, "above_alpha_s", seg[3]);
            pw_csv_quantity(csv, "fit", 0, 2, "above_beta_s_per_byte", seg[4]);
        }
        printf("fit read from %s: alpha = %.3f us, beta = %.3f GB/s (1/beta)\n", fit_file, alpha * 1e6, 1e-9 / beta);
        pw_csv_meta(csv, "fit_from", "%s", fit_file);
        pw_csv_quantity(csv, "fit", 0, 2, "alpha_s", alpha);
        pw_csv_quantity(csv, "fit", 0, 2, "beta_s_per_byte", beta);
    }
    (void)one_way_big;
    MPI_Bcast(&alpha, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Bcast(&beta, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Bcast(seg, 5, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int i = 1; i <= 3; i += 2) if (seg[i] < 0) seg[i] = 0;   /* the cluster takes no negative latency */
    if (alpha < 0) {
        /* A negative intercept is what the data say, but the cluster takes no
         * negative latency: said, and clamped to 0 for the prediction only. */
        if (rank == 0) printf("the fitted alpha is negative (%.3f us): the prediction uses alpha = 0\n", alpha * 1e6);
        alpha = 0;
    }

    /* ---- 2. all-reduce: predicted, then measured ------------------------------------- */
    pw_comm comm = coll_comm_mpi(need);
    float *src = pw_alloc_floats(nmax), *buf = pw_alloc_floats(nmax), *want = pw_alloc_floats(nmax), *tmp = pw_alloc_floats(nmax);
    pw_cluster_config cfg = model_config(alpha, beta, 0);
    bool two = seg[0] > 0;
    printf("\nall-reduce on %d processes%s: modelled = the virtual cluster with the one-line fit (alpha %.3f us, %.3f GB/s);\n",
           size, over ? " (oversubscribed)" : "", alpha * 1e6, 1e-9 / beta);
    if (two)
        printf("  two lines = the same with the line of the two-line fit that covers the algorithm's message (below or above %s);\n",
               pw_fmt_bytes(seg[0], b1, sizeof b1));
    printf("  modelled times have no spread; measured = this run, the slowest process per repeat, median of %d (IQR)\n", reps);
    printf("%10s %-14s %12s %12s %12s %7s %9s %9s\n", "bytes", "algorithm", "modelled", two ? "two lines" : "", "measured", "IQR",
           "meas/mod", two ? "meas/two" : "");
    int nalg = coll_allreduce_nalgos + 1, bad = 0;
    double ring_lo[2] = { INFINITY, INFINITY }, ring_hi[2] = { 0, 0 };
    int ring_in[2] = { 0, 0 }, ring_from = 0;
    char misses[2][512] = { "", "" };
    double last_ring_model = 0, last_ring_meas = 0;
    for (int si = 0; si < sizes.n; si++) {
        size_t n = (size_t)sizes.v[si] / sizeof(float);
        pw_fill_random(src, n, 99 + (uint64_t)rank, -1, 1);
        memcpy(want, src, n * sizeof(float));
        MPI_Allreduce(MPI_IN_PLACE, want, (int)n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        for (int a = 0; a < nalg; a++) {
            bool mpi = a == coll_allreduce_nalgos;
            const char *name = mpi ? "MPI_Allreduce" : coll_allreduce_algos[a].name;
            double model[2] = { 0, 0 };
            if (!mpi && rank == 0) {
                vjob j = { coll_allreduce_algos[a].fn, n, NULL, NULL };
                model[0] = v_run(&cfg, v_allreduce, &j);
                if (two) {
                    /* the message this algorithm sends: a chunk of n/p for the ring, the whole buffer otherwise */
                    double msg = !strcmp(name, "ring") ? (double)n * sizeof(float) / size : (double)n * sizeof(float);
                    bool above = msg >= seg[0];
                    pw_cluster_config c2 = model_config(above ? seg[3] : seg[1], above ? seg[4] : seg[2], 0);
                    model[1] = v_run(&c2, v_allreduce, &j);
                }
            }
            double s[PW_MAX_SAMPLES];
            int wrong = 0;
            for (int k = -1; k < reps; k++) {      /* k = -1: the check, and a warm-up */
                memcpy(buf, src, n * sizeof(float));
                MPI_Barrier(MPI_COMM_WORLD);
                double t0 = MPI_Wtime();
                if (mpi) MPI_Allreduce(MPI_IN_PLACE, buf, (int)n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
                else coll_allreduce_algos[a].fn(&comm, buf, n);
                double t = MPI_Wtime() - t0;
                MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
                if (k >= 0) s[k] = t;
                else {
                    char what[80];
                    snprintf(what, sizeof what, "%s %zu bytes rank %d", name, n * sizeof(float), rank);
                    wrong = pw_check_floats(what, buf, want, n, (double)size * size * 6e-8 + 1e-7, 0);
                }
            }
            bad |= wrong;
            if (rank != 0) continue;
            double bytes = (double)n * sizeof(float);
            pw_bench_stats st;
            pw_summarize(s, reps, &st);
            double med = st.median, iqr = 100 * (st.q3 - st.q1) / med;
            pw_csv_summary(csv, name, (long long)bytes, size, "mpi", &st, 0, bytes);
            if (mpi) {
                printf("%10s %-14s %12s %12s %12s %6.1f%%\n", pw_fmt_bytes(bytes, b1, sizeof b1), name, "(no model)", "",
                       fmt_time(med, b2, sizeof b2), iqr);
                continue;
            }
            double ratio = med / model[0], ratio2 = two ? med / model[1] : 0;
            printf("%10s %-14s %12s %12s %12s %6.1f%% %9.2f", pw_fmt_bytes(bytes, b1, sizeof b1), name, fmt_time(model[0], b3, sizeof b3),
                   two ? fmt_time(model[1], b4, sizeof b4) : "", fmt_time(med, b2, sizeof b2), iqr, ratio);
            if (two) printf(" %9.2f", ratio2);
            printf("\n");
            pw_csv_modelled(csv, name, (long long)bytes, size, "model", model[0], 0, bytes);
            pw_csv_quantity(csv, name, (long long)bytes, size, "measured_over_modelled", ratio);
            if (two) {
                pw_csv_modelled(csv, name, (long long)bytes, size, "model_two_lines", model[1], 0, bytes);
                pw_csv_quantity(csv, name, (long long)bytes, size, "measured_over_two_lines", ratio2);
            }
            if (!strcmp(name, "ring") && bytes >= (1 << 20)) {
                ring_from++;
                for (int m = 0; m < (two ? 2 : 1); m++) {
                    double r = m ? ratio2 : ratio;
                    ring_lo[m] = fmin(ring_lo[m], r);
                    ring_hi[m] = fmax(ring_hi[m], r);
                    if (fabs(r - 1) <= 0.25) ring_in[m]++;
                    else {
                        size_t l = strlen(misses[m]);
                        snprintf(misses[m] + l, sizeof misses[m] - l, "%s%s (%.2f)", l ? ", " : "", pw_fmt_bytes(bytes, b1, sizeof b1), r);
                    }
                }
                last_ring_model = two ? model[1] : model[0];
                last_ring_meas = med;
            }
        }
    }
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (bad) {
        if (rank == 0) fprintf(stderr, "%s: an all-reduce over MPI gave a wrong sum; nothing more measured\n", prog);
        MPI_Finalize();
        return PW_EXIT_WRONG;
    }
    /* What the model leaves out, measured on rank 0 at the largest size. */
    size_t nl = (size_t)pw_list_max(&sizes) / sizeof(float);
    double sent = 2.0 * (size - 1) / size * (double)nl * sizeof(float);     /* bytes each rank sends in the ring */
    size_t sent_f = (size_t)(sent / sizeof(float)), add_f = (size_t)((double)(size - 1) / size * (double)nl);
    size_t chunk_f = nl / (size_t)size + 1;                          /* the ring's scratch */
    double t_copy = 0, t_add = 0, t_fresh = 0, ph[3];
    ring_apart(&comm, buf, src, nl, reps, ph);
    if (rank == 0) {
        t_copy = time_copy(tmp, src, sent_f < nmax ? sent_f : nmax, reps) * (sent_f > nmax ? (double)sent_f / nmax : 1);
        t_add = time_add(tmp, src, add_f, reps);
        t_fresh = time_fresh_pages(tmp, chunk_f < nmax ? chunk_f : nmax, reps) * (chunk_f > nmax ? (double)chunk_f / nmax : 1);
    }
    if (rank == 0) {
        if (ring_from > 0) {
            for (int m = 0; m < (two ? 2 : 1); m++)
                printf("%s ring from 1 MiB up, %s: measured/modelled %.2f to %.2f; within 25%% at %d of %d sizes%s%s\n",
                       m ? "       " : "answer:", m ? "two lines" : "one line", ring_lo[m], ring_hi[m], ring_in[m], ring_from,
                       ring_in[m] < ring_from ? "; missed at " : "", misses[m]);
            printf("  at %s the model leaves out, measured here alone: MPI_Bsend's copy of the %s each rank sends %s, the additions "
                   "of %zu floats %s,\n", pw_fmt_bytes((double)nl * sizeof(float), b1, sizeof b1), pw_fmt_bytes(sent, b2, sizeof b2),
                   fmt_time(t_copy, b3, sizeof b3), add_f, fmt_time(t_add, b4, sizeof b4));
            printf("  the new pages of the ring's %s scratch buffer (faulted in on first touch) %s;\n",
                   pw_fmt_bytes((double)chunk_f * sizeof(float), b1, sizeof b1), fmt_time(t_fresh, b3, sizeof b3));
            double left = t_copy + t_add + t_fresh;
            printf("  modelled%s %.3f ms + those %.3f ms = %.3f ms against %.3f ms measured (%.2fx)%s\n", two ? " (two lines)" : "", last_ring_model * 1e3,
                   left * 1e3, (last_ring_model + left) * 1e3, last_ring_meas * 1e3,
                   last_ring_meas / (last_ring_model + left),
                   over ? "; oversubscribed: the ranks take turns on the cores, which no link model sees" : "");
            printf("  the ring taken apart in place on rank 0 (its calls timed, median of %d): %s in MPI_Bsend (the copy), %s in MPI_Recv\n"
                   "  (waiting for the partner, the transfer, the scratch's new pages), %s in the ring's own work (additions, malloc), of %s\n",
                   reps, fmt_time(ph[0], b1, sizeof b1), fmt_time(ph[1], b2, sizeof b2), fmt_time(ph[2] - ph[0] - ph[1], b3, sizeof b3),
                   fmt_time(ph[2], b4, sizeof b4));
            pw_csv_quantity(csv, "left_out", (long long)(nl * sizeof(float)), size, "bsend_copy_s", t_copy);
            pw_csv_quantity(csv, "left_out", (long long)(nl * sizeof(float)), size, "additions_s", t_add);
            pw_csv_quantity(csv, "left_out", (long long)(nl * sizeof(float)), size, "scratch_pages_s", t_fresh);
            pw_csv_quantity(csv, "ring_apart", (long long)(nl * sizeof(float)), size, "in_bsend_s", ph[0]);
            pw_csv_quantity(csv, "ring_apart", (long long)(nl * sizeof(float)), size, "in_recv_s", ph[1]);
            pw_csv_quantity(csv, "ring_apart", (long long)(nl * sizeof(float)), size, "total_s", ph[2]);
        } else {
            printf("answer: no size of 1 MiB or more in this run: the 25%% target is not tested\n");
        }
    }

    /* ---- 3. one data-parallel step ------------------------------------------------------- */
    mlp_shape sh = { 16, 64, 4 };
    size_t np = mlp_nparams(sh), total = (size_t)batch * (size_t)steps;
    pw_require_memory(prog, "-b", (long long)total, (size_t)(sh.d + sh.o) * sizeof(float), 1);
    float *x = pw_alloc_floats(total * (size_t)sh.d), *y = pw_alloc_floats(total * (size_t)sh.o);
    float *w = pw_alloc_floats(np), *g = pw_alloc_floats(np), *scratch = pw_alloc_floats((size_t)(sh.k + sh.o));
    mlp_make_data(sh, total, 2024, x, y);
    mlp_init(sh, w, 7);
    size_t shard = ((size_t)batch + (size_t)size - 1) / (size_t)size;     /* the largest shard sets the pace */
    double cs[PW_MAX_SAMPLES];
    for (int k = -1; k < reps; k++) {
        double t0 = MPI_Wtime();
        mlp_grad_sum(sh, w, x, y, shard, g, scratch);
        if (k >= 0) cs[k] = MPI_Wtime() - t0;
    }
    double t_comp = stat_median(cs, reps, NULL, NULL);
    MPI_Allreduce(MPI_IN_PLACE, &t_comp, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    double gflops = mlp_flops_per_sample(sh) * (double)shard / t_comp * 1e-9;
    dp_job job = { sh, x, y, (size_t)batch, (int)steps, 0.05f, 1, coll_allreduce_ring };
    double *step_s = calloc((size_t)steps, sizeof *step_s), modelled = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    dp_replica(&comm, &job, w, NULL, step_s);
    MPI_Allreduce(MPI_IN_PLACE, step_s, (int)steps, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0) {
        pw_bench_stats st;
        pw_summarize(step_s + 1, (int)steps - 1, &st);        /* the first step warms caches */
        dp_job vj = job;
        vj.steps = 2;
        double *vs = calloc(2, sizeof *vs);
        pw_cluster_config dcfg = model_config(alpha, beta, gflops);
        vjob j = { NULL, 0, &vj, vs };
        v_run(&dcfg, v_train, &j);
        modelled = vs[1];
        double comm_model = coll_model_ring(size, np + 1, sizeof(float), alpha, beta);
        printf("\none data-parallel step of the %d-%d-%d MLP (%zu parameters), batch %lld on %d processes, ring all-reduce:\n",
               sh.d, sh.k, sh.o, np, batch, size);
        printf("  modelled %s: compute %s (%zu samples at %.2f GFLOP/s, the rate mlp_grad_sum ran at here) + all-reduce %s (the fit)\n",
               fmt_time(modelled, b1, sizeof b1), fmt_time(t_comp, b2, sizeof b2), shard, gflops, fmt_time(comm_model, b3, sizeof b3));
        printf("  measured %s (median of %lld steps after the first, IQR %.1f%%): measured/modelled %.2f\n",
               fmt_time(st.median, b1, sizeof b1), steps - 1, 100 * (st.q3 - st.q1) / st.median, st.median / modelled);
        pw_csv_modelled(csv, "dp_step", batch, size, "model", modelled, 0, 0);
        pw_csv_summary(csv, "dp_step", batch, size, "mpi", &st, 0, 0);
        pw_csv_quantity(csv, "dp_step", batch, size, "measured_over_modelled", st.median / modelled);
        free(vs);
    }
    free(step_s);
    pw_free(x); pw_free(y); pw_free(w); pw_free(g); pw_free(scratch);
    pw_free(src); pw_free(buf); pw_free(want); pw_free(tmp);
    coll_comm_mpi_end(&comm);
    int rc = pw_csv_close(csv);
    MPI_Finalize();
    return rc;
}
