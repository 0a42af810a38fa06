/* chapters/16-sharded-data-parallel/zero.c: ZeRO stages 0-3 (plain data
 * parallelism, then optimizer states, gradients and weights sharded) on the
 * virtual cluster: what each device holds, what it sends, and that the
 * weights come out as one device's.
 *
 *   ./build/ch16/zero                      d = 1, 2, 3, 4, 5, 8; sweep to 1024 devices
 *   ./build/ch16/zero -d 2,6 -s 20 --slow-inter-gbs 5
 *
 * The rank's loop is kernels/zero.c (zero_replica, on a pw_comm), which
 * mpi_zero.c runs across Open MPI processes unchanged. What it prints:
 * 1. the check (before any result): every stage on every d trains the MLP
 *    (16-63-4: 1327 parameters, an odd count, so chunks differ by one) with
 *    Adam to one device's weights, within the tolerance explained below, bit
 *    for bit on one device; every rank ends with the same bits;
 * 2. memory per device, counted from the buffers each rank allocated,
 *    beside the formula (kernels/zero.h) for the same sizes, with the ratio;
 * 3. the ZeRO paper's Figure 1 (7.5B parameters, 64 devices) from the same
 *    formula beside the paper's numbers, with the ratio;
 * 4. bytes sent per step, counted as the collectives sent them, beside
 *    2 psi (d - 1) / d (stages 0-2) and 3 psi (d - 1) / d (stage 3);
 * 5. where it breaks (modelled): ZeRO-2 and ZeRO-3 step times of a 7.5B
 *    model on 1..1024 modelled H100s, on the default links and with a slower
 *    inter-node link, and the device count past which ZeRO-3's extra gather
 *    no longer hides behind the backward pass.
 *
 * CSV: kind=quantity rows. variant stage0..stage3, n = parameters, threads
 * = devices: param weights_bytes, grads_bytes, optimizer_bytes,
 * transient_bytes (counted, the largest rank), formula_*_bytes;
 * sent_bytes_per_step (mean over ranks), formula_bytes_per_step,
 * max_weight_diff. variant paper_fig1: param stageN_formula_gb and
 * stageN_paper_gb. kind=modelled rows: variant zero2, zero3,
 * zero3_prefetch, n = parameters, threads = devices, param the links
 * ("default" or "slow_inter"), value = the modelled step time in seconds.
 */
#include "check.h"
#include "cluster.h"
#include "collectives.h"
#include "mlp.h"
#include "options.h"
#include "results.h"
#include "util.h"
#include "zero.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NSTAGES 4
static const char *stage_name[NSTAGES] = { "stage0", "stage1", "stage2", "stage3" };
static const char *stage_label[NSTAGES] = { "0 (DP)", "1 (os)", "2 (os+g)", "3 (os+g+p)" };

/* ---- training on the cluster -------------------------------------------------- */

typedef struct {
    const zero_job *job;
    int stage;
    const float *w0;
    float **w;                  /* per rank: the trained weights it sees */
    zero_rank_report *rep;      /* per rank */
} train_arg;

static void rank_train(pw_rank *r, void *arg)
{
    train_arg *a = arg;
    pw_comm comm = coll_comm_cluster(r);
    zero_replica(&comm, a->job, a->stage, a->w0, a->w[comm.rank], &a->rep[comm.rank], ZERO_FAULT_NONE);
}

typedef struct {
    double max_diff;            /* max |w - w_one_device| of rank 0 */
    double sent_mean;           /* bytes a rank sent per step, mean over ranks */
    zero_rank_report big;       /* the rank that held the most (its kinds) */
    int bad;
} stage_result;

/* Why this tolerance. A gradient element is a sum over the batch of 250
 * float terms; d shards add it in another order, changing it by at most
 * 250 x 2^-24 = 1.5e-5 of the sum of the terms' magnitudes (sqrt(250) x
 * 2^-24 = 1e-6 typically). Adam divides m by sqrt(v): a relative change e
 * of every gradient changes m / sqrt(v) by about e, so an update of size
 * at most about lr moves by about lr x e, and `steps` updates add up. Only
 * an element whose sum nearly cancels (terms of both signs, sum near zero)
 * has a larger relative change, and for it Adam's update is g / |g|-like:
 * still at most about lr. With lr = 1e-3 and 10 steps, lr x steps x 1e-2
 * = 1e-4 absolute leaves a hundred times room over 1e-4 relative changes,
 * and still catches a stale chunk (a skipped all-gather leaves whole chunks
 * about lr x steps = 1e-2 away) or an update applied twice. */
static double tolerance(const zero_job *j) { return (double)j->adam.lr * j->steps * 1e-2; }

static stage_result train_stage(const zero_job *job, int stage, int d, const float *w0, const float *w_ref,
                                const pw_cluster_flags *links)
{
    size_t np = mlp_nparams(job->s);
    stage_result res = { 0, 0, { 0 }, 0 };
    float **w = calloc((size_t)d, sizeof *w);
    zero_rank_report *rep = calloc((size_t)d, sizeof *rep);
    for (int r = 0; r < d; r++) w[r] = pw_alloc_floats(np);
    train_arg a = { job, stage, w0, w, rep };
    pw_cluster_config cfg = pw_cluster_config_for(d, links);
    pw_cluster *c = pw_cluster_create(&cfg);
    if (pw_cluster_run(c, rank_train, &a) != 0) {
        fprintf(stderr, "%s", pw_cluster_report(c));
        res.bad = 1;
    }
    pw_cluster_destroy(c);
    for (int r = 1; r < d && !res.bad; r++)
        if (memcmp(w[r], w[0], np * sizeof(float)) != 0) {
            fprintf(stderr, "ZeRO %d, d=%d: rank %d's weights differ from rank 0's\n", stage, d, r);
            res.bad = 1;
        }
    for (size_t i = 0; i < np; i++) res.max_diff = fmax(res.max_diff, fabs((double)w[0][i] - w_ref[i]));
    char what[64];
    snprintf(what, sizeof what, "ZeRO %d on %d devices, weights vs one device", stage, d);
    res.bad |= pw_check_floats(what, w[0], w_ref, np, tolerance(job), 0);
    if (d == 1 && res.max_diff != 0) {
        fprintf(stderr, "%s: one device should give the reference's bits, differs by %g\n", what, res.max_diff);
        res.bad = 1;
    }
    double sum = 0, most = -1;
    for (int r = 0; r < d; r++) {
        sum += rep[r].sent;
        double h = rep[r].weights + rep[r].grads + rep[r].optimizer;
        if (h > most) { most = h; res.big = rep[r]; }
    }
    res.sent_mean = sum / d / job->steps;
    for (int r = 0; r < d; r++) pw_free(w[r]);
    free(w);
    free(rep);
    return res;
}

/* ---- where it breaks: modelled steps with phantom messages --------------------- */

typedef struct { int stage; double flops; size_t floats; } sweep_arg;

/* One step of a big model on phantom buffers: the same collectives, no data. */
static void rank_sweep(pw_rank *r, void *arg)
{
    sweep_arg *a = arg;
    pw_comm comm = coll_comm_cluster(r);
    if (a->stage == 3) coll_allgather_ring(&comm, NULL, a->floats);
    coll_compute(&comm, a->flops / 3, "F");
    if (a->stage == 3) coll_allgather_ring(&comm, NULL, a->floats);
    coll_compute(&comm, a->flops * 2 / 3, "B");
    coll_reduce_scatter_ring(&comm, NULL, a->floats);
    if (a->stage == 2) coll_allgather_ring(&comm, NULL, a->floats);
}

static double sweep_step(int stage, int d, double flops, size_t floats, const pw_cluster_flags *links)
{
    pw_cluster_config cfg = pw_cluster_config_for(d, links);
    pw_cluster *c = pw_cluster_create(&cfg);
    sweep_arg a = { stage, flops, floats };
    if (pw_cluster_run(c, rank_sweep, &a) != 0) {
        fprintf(stderr, "%s", pw_cluster_report(c));
        exit(PW_EXIT_WRONG);
    }
    double t = pw_cluster_time(c);
    pw_cluster_destroy(c);
    return t;
}

static double gb(double bytes) { return bytes / 1e9; }

int main(int argc, char **argv)
{
    pw_list devs = { .n = 0 }, sweep = { .n = 0 };
    long long batch = 250, steps = -1;
    double lr = 1e-3, psi = 7.5e9, tokens = -1, slow_gbs = 12.5;
    pw_cluster_flags links = pw_cluster_flag_defaults();
    pw_opt opts[8 + PW_CLUSTER_NFLAGS] = {
        { "-d", "--devices", PW_OPT_SIZES, &devs, "D[,D...]", "devices for training, memory and bytes (default 1,2,3,4,5,8; --tiny 1,2,3,5)", 1, 256 },
        { "-b", "--batch", PW_OPT_INT, &batch, "B", "global batch in samples (default 250)", 1, 1 << 20 },
        { "-s", "--steps", PW_OPT_INT, &steps, "S", "Adam steps (default 10; --tiny 4)", 1, 100000 },
        { NULL, "--lr", PW_OPT_DOUBLE, &lr, "LR", "Adam's learning rate (default 1e-3)", 0, 1 },
        { "-D", "--sweep", PW_OPT_SIZES, &sweep, "D[,D...]", "device counts of the modelled sweep (default 1,2,4,...,1024; --tiny to 64)", 1, 4096 },
        { NULL, "--psi", PW_OPT_DOUBLE, &psi, "P", "parameters of the swept model (default 7.5e9, the paper's)", 1e3, 1e13 },
        { NULL, "--tokens", PW_OPT_DOUBLE, &tokens, "T", "global batch of the sweep in tokens (default 524288; --tiny 32768)", 1, 1e12 },
        { NULL, "--slow-inter-gbs", PW_OPT_DOUBLE, &slow_gbs, "GB/S", "the slower inter-node link of the sweep (default 12.5: 100 Gb/s)", 0, 1e6 },
    };
    pw_common_opts common;
    int nopts = 8 + pw_cluster_flag_opts(&links, opts + 8, true);
    pw_parse_or_exit(argc, argv, "ZeRO-1/2/3 (FSDP): memory and bytes per device, and the same weights as one device", opts, nopts, &common);
    if (!devs.n) devs = common.tiny ? (pw_list)PW_LIST(1, 2, 3, 5) : (pw_list)PW_LIST(1, 2, 3, 4, 5, 8);
    if (!sweep.n) sweep = common.tiny ? (pw_list)PW_LIST(1, 2, 4, 8, 16, 32, 64)
                                      : (pw_list)PW_LIST(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024);
    if (steps < 0) steps = common.tiny ? 4 : 10;
    if (tokens < 0) tokens = common.tiny ? 32768 : 524288;
    if (slow_gbs <= 0) { fprintf(stderr, "%s: --slow-inter-gbs must be above 0\n", common.prog); return PW_EXIT_USAGE; }
    pw_cluster_flags slow = links;
    slow.inter_gbs = slow_gbs;
    for (int i = 0; i < devs.n; i++) {
        pw_cluster_config cfg = pw_cluster_config_for((int)devs.v[i], &links);
        pw_cluster_check_or_exit(common.prog, &cfg);
        if (devs.v[i] > batch) {
            fprintf(stderr, "%s: -d %lld: more devices than samples in the batch (-b %lld)\n", common.prog, devs.v[i], batch);
            return PW_EXIT_USAGE;
        }
    }
    for (int i = 0; i < sweep.n; i++) {
        pw_cluster_config cfg = pw_cluster_config_for((int)sweep.v[i], &slow);
        pw_cluster_check_or_exit(common.prog, &cfg);
        cfg = pw_cluster_config_for((int)sweep.v[i], &links);
        pw_cluster_check_or_exit(common.prog, &cfg);
    }
    mlp_shape s = { 16, 63, 4 };          /* 63 hidden units: 1327 parameters, odd */
    size_t np = mlp_nparams(s), total = (size_t)batch * (size_t)steps;
    pw_require_memory(common.prog, "-b", (long long)total, (size_t)(s.d + s.o) * sizeof(float), 1);
    pw_require_memory(common.prog, "-d", pw_list_max(&devs), np * sizeof(float), 8);
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);

    float *x = pw_alloc_floats(total * (size_t)s.d), *y = pw_alloc_floats(total * (size_t)s.o);
    mlp_make_data(s, total, 2024, x, y);
    float *w0 = pw_alloc_floats(np), *w_ref = pw_alloc_floats(np);
    mlp_init(s, w0, 7);
    memcpy(w_ref, w0, np * sizeof(float));
    zero_job job = { s, x, y, (size_t)batch, (int)steps, zero_adam_defaults((float)lr) };
    zero_one_device(&job, w_ref);

    /* 1. train everything, check, and only then print */
    int nd = devs.n, bad = 0;
    stage_result *res = calloc((size_t)(NSTAGES * nd), sizeof *res);
    for (int st = 0; st < NSTAGES; st++)
        for (int i = 0; i < nd; i++) {
            res[st * nd + i] = train_stage(&job, st, (int)devs.v[i], w0, w_ref, &links);
            bad |= res[st * nd + i].bad;
        }
    /* bytes: the collectives' count against the formula, every stage and d */
    for (int st = 0; st < NSTAGES; st++)
        for (int i = 0; i < nd; i++) {
            double want = zero_comm_elems((double)np, st, (int)devs.v[i]) * sizeof(float);
            if (fabs(res[st * nd + i].sent_mean - want) > 1e-9 * want) {
                fprintf(stderr, "ZeRO %d on %lld devices: sent %.1f bytes a step, the formula says %.1f\n", st, devs.v[i],
                        res[st * nd + i].sent_mean, want);
                bad = 1;
            }
        }
    if (bad) {
        fprintf(stderr, "%s: sharded training did not match; nothing written\n", common.prog);
        return PW_EXIT_WRONG;
    }
    double worst = 0;
    for (int i = 0; i < NSTAGES * nd; i++) worst = fmax(worst, res[i].max_diff);
    printf("all variants match: ZeRO stages 0-3 on d = ");
    for (int i = 0; i < nd; i++) printf("%s%lld", i ? "," : "", devs.v[i]);
    printf(" give one device's Adam weights after %lld steps\n  (max |w - w1| = %.3g, tolerance %.3g; d = 1 bit for bit); "
           "every rank holds the same bits; bytes sent = formula\n\n", steps, worst, tolerance(&job));
    pw_csv_meta(csv, "mlp", "%d-%d-%d", s.d, s.k, s.o);
    pw_csv_meta(csv, "batch", "%lld", batch);
    pw_csv_meta(csv, "steps", "%lld", steps);

    /* 2. memory, counted, at the largest d */
    int im = nd - 1, dm = (int)devs.v[im];
    printf("memory per device, MLP %d-%d-%d (%zu parameters) on %d devices: counted from each rank's buffers\n"
           "  (the rank holding the most), fp32 weights 4 B + fp32 gradients 4 B + Adam m, v 8 B a parameter;\n"
           "  formula: zero_model_states(%zu, stage, %d, 4, 4, 8)\n", s.d, s.k, s.o, np, dm, np, dm);
    printf("%-11s %9s %9s %9s %10s %10s %7s %11s\n", "stage", "weights", "grads", "Adam m,v", "held", "formula", "ratio", "transient");
    double held_at[NSTAGES];
    for (int st = 0; st < NSTAGES; st++) {
        zero_rank_report b = res[st * nd + im].big;
        zero_memory f = zero_model_states((double)np, st, dm, 4, 4, 8);
        double h = b.weights + b.grads + b.optimizer;
        held_at[st] = h;
        printf("%-11s %9.0f %9.0f %9.0f %10.0f %10.0f %7.3f %11.0f\n", stage_label[st], b.weights, b.grads, b.optimizer, h,
               f.total, h / f.total, b.transient);
        pw_csv_quantity(csv, stage_name[st], (long long)np, dm, "weights_bytes", b.weights);
        pw_csv_quantity(csv, stage_name[st], (long long)np, dm, "grads_bytes", b.grads);
        pw_csv_quantity(csv, stage_name[st], (long long)np, dm, "optimizer_bytes", b.optimizer);
        pw_csv_quantity(csv, stage_name[st], (long long)np, dm, "transient_bytes", b.transient);
        pw_csv_quantity(csv, stage_name[st], (long long)np, dm, "formula_weights_bytes", f.weights);
        pw_csv_quantity(csv, stage_name[st], (long long)np, dm, "formula_grads_bytes", f.grads);
        pw_csv_quantity(csv, stage_name[st], (long long)np, dm, "formula_optimizer_bytes", f.optimizer);
    }
    printf("  (bytes; ratio: held / formula, above 1 by the rounding of %zu / %d to whole chunks; transient: buffers\n"
           "  that live only inside a step: the whole gradient of the one-call backward (stages 2, 3) and the gathered\n"
           "  weights (stage 3), which a real ZeRO-2/FSDP holds one bucket or layer at a time)\n", np, dm);
    printf("answer: on %d devices a device holds %.0f B at stage 0, %.0f B at stage 3: %.2fx less (the formula: %dx)\n\n",
           dm, held_at[0], held_at[3], held_at[0] / held_at[3], dm);

    /* 3. the paper's Figure 1 */
    const double paper[NSTAGES] = { 120, 31.4, 16.6, 1.9 };   /* Rajbhandari et al. 2020, Figure 1, GB */
    printf("the ZeRO paper's Figure 1: 7.5B parameters on 64 devices, mixed-precision Adam (2 + 2 + 12 bytes)\n");
    printf("%-11s %12s %12s %12s %12s %8s\n", "stage", "weights GB", "grads GB", "optim GB", "formula GB", "paper GB");
    double ratio_lo = 1e300, ratio_hi = 0;
    for (int st = 0; st < NSTAGES; st++) {
        zero_memory f = zero_model_states(7.5e9, st, 64, 2, 2, 12);
        printf("%-11s %12.2f %12.2f %12.2f %12.2f %8.1f   ratio %.3f\n", stage_label[st], gb(f.weights), gb(f.grads),
               gb(f.optimizer), gb(f.total), paper[st], gb(f.total) / paper[st]);
        ratio_lo = fmin(ratio_lo, gb(f.total) / paper[st]);
        ratio_hi = fmax(ratio_hi, gb(f.total) / paper[st]);
        char p[32];
        snprintf(p, sizeof p, "stage%d_formula_gb", st);
        pw_csv_quantity(csv, "paper_fig1", 7500000000LL, 64, p, gb(f.total));
        snprintf(p, sizeof p, "stage%d_paper_gb", st);
        pw_csv_quantity(csv, "paper_fig1", 7500000000LL, 64, p, paper[st]);
    }
    printf("answer: the formula gives the paper's four figures within %.1f%% (ratios %.3f - %.3f; the paper rounds to 0.1 GB)\n\n",
           100 * fmax(ratio_hi - 1, 1 - ratio_lo), ratio_lo, ratio_hi);

    /* 4. bytes per step */
    printf("bytes one device sends per step (mean over the ranks, counted as the collectives sent them) vs the formula\n"
           "  2 psi (d-1)/d x 4 B (stages 0-2) and 3 psi (d-1)/d x 4 B (stage 3), psi = %zu\n", np);
    printf("%8s", "devices");
    for (int st = 0; st < NSTAGES; st++) printf(" %12s %10s", stage_name[st], "formula");
    printf("\n");
    for (int i = 0; i < nd; i++) {
        printf("%8lld", devs.v[i]);
        for (int st = 0; st < NSTAGES; st++) {
            double f = zero_comm_elems((double)np, st, (int)devs.v[i]) * sizeof(float);
            printf(" %12.1f %10.1f", res[st * nd + i].sent_mean, f);
            pw_csv_quantity(csv, stage_name[st], (long long)np, (int)devs.v[i], "sent_bytes_per_step", res[st * nd + i].sent_mean);
            pw_csv_quantity(csv, stage_name[st], (long long)np, (int)devs.v[i], "formula_bytes_per_step", f);
            pw_csv_quantity(csv, stage_name[st], (long long)np, (int)devs.v[i], "max_weight_diff", res[st * nd + i].max_diff);
        }
        printf("\n");
    }
    double r32 = 0;
    for (int i = 0; i < nd; i++)
        if (devs.v[i] > 1) r32 = res[3 * nd + i].sent_mean / res[2 * nd + i].sent_mean;
    if (r32 > 0)
        printf("answer: stages 1 and 2 send what plain DP sends (a reduce-scatter and an all-gather are an all-reduce);\n"
               "  stage 3 sends %.3fx stage 2 (the weights gathered a second time, for the backward)\n\n", r32);
    else
        printf("answer: not shown on this run: -d needs a count above 1 for any bytes to move\n\n");

    /* 5. where it breaks (modelled) */
    size_t floats = (size_t)(psi / 2);    /* fp16 weights and gradients on the wire: 2 bytes a parameter = psi / 2 floats */
    double flops = 6 * psi * tokens;      /* forward + backward of the whole global batch */
    printf("where it breaks (modelled on the virtual cluster, phantom messages): one step of %.3g parameters, %.0f tokens,\n"
           "  fp16 on the wire, %.0f TFLOP/s a device, %lld a node; ZeRO-3's extra gather is free if prefetched behind\n"
           "  the backward (2/3 of the compute) while it takes less; zero3+pf = zero2 + max(0, extra - backward)\n",
           psi, tokens, links.device_tflops, links.per_node);
    const pw_cluster_flags *which[2] = { &links, &slow };
    const char *wname[2] = { "default", "slow_inter" };
    for (int l = 0; l < 2; l++) {
        printf("links %s: within a node %.0f GB/s, between nodes %.1f GB/s\n", wname[l], which[l]->intra_gbs, which[l]->inter_gbs);
        printf("%8s %12s %12s %12s %12s %12s %12s\n", "devices", "compute ms", "zero2 ms", "zero3 ms", "extra ms", "backward ms", "zero3+pf ms");
        long long last_free = 0, first_paid = 0;
        for (int i = 0; i < sweep.n; i++) {
            int d = (int)sweep.v[i];
            double t2 = sweep_step(2, d, flops / d, floats, which[l]), t3 = sweep_step(3, d, flops / d, floats, which[l]);
            double comp = flops / d / (which[l]->device_tflops * 1e12), back = comp * 2 / 3, extra = t3 - t2;
            double pf = t2 + fmax(0, extra - back);
            printf("%8d %12.3f %12.3f %12.3f %12.3f %12.3f %12.3f\n", d, comp * 1e3, t2 * 1e3, t3 * 1e3, extra * 1e3, back * 1e3, pf * 1e3);
            pw_csv_modelled(csv, "zero2", (long long)psi, d, wname[l], t2, flops / d, zero_comm_elems(psi, 2, d) * 2);
            pw_csv_modelled(csv, "zero3", (long long)psi, d, wname[l], t3, flops / d, zero_comm_elems(psi, 3, d) * 2);
            pw_csv_modelled(csv, "zero3_prefetch", (long long)psi, d, wname[l], pf, flops / d, zero_comm_elems(psi, 3, d) * 2);
            if (d > 1 && extra > back && !first_paid) first_paid = d;
            if (d > 1 && extra <= back && !first_paid) last_free = d;
        }
        if (first_paid)
            printf("answer (%s links): ZeRO-3's extra gather hides behind the backward up to %lld devices; from %lld on it\n"
                   "  takes longer than the backward, and ZeRO-3 pays for its memory in step time\n",
                   wname[l], last_free, first_paid);
        else
            printf("answer (%s links): ZeRO-3's extra gather hides behind the backward at every device count swept (up to %lld):\n"
                   "  it never stops paying in this range\n", wname[l], sweep.v[sweep.n - 1]);
    }
    free(res);
    pw_free(x);
    pw_free(y);
    pw_free(w0);
    pw_free(w_ref);
    return pw_csv_close(csv);
}
