/* chapters/16-sharded-data-parallel/buckets.c: gradient buckets overlapped
 * with the backward pass, as PyTorch DDP does it, swept from buckets smaller
 * than one tensor to one bucket for the whole model; and FSDP's all-gather
 * of each layer's parameters, with and without prefetching the next layer.
 * Every time here is modelled (the virtual cluster's clocks), none measured.
 *
 *   ./build/ch16/buckets                       8 replicas on 2 nodes of 4, 16 layers
 *   ./build/ch16/buckets -b 1M,8M,64M          chosen bucket sizes (bytes)
 *   ./build/ch16/buckets --inter-alpha 50      a slower network start-up: the best bucket grows
 *   ./build/ch16/buckets --inter-gbs 400       a faster network: bandwidth hides, latency stays
 *
 * The model: L transformer-like layers of hidden size H, each holding four
 * weight tensors, 12 H^2 parameters (attention qkv 3H^2, its output
 * projection H^2, MLP up 4H^2, MLP down 4H^2; biases and norms left out),
 * fp32 gradients (4 bytes a parameter). A replica's forward pass costs
 * 2 x params x tokens flops, the backward pass twice that; the backward pass
 * runs last layer first and, inside a layer, last tensor first, and a
 * tensor's gradient is ready when its share of the backward pass (by size)
 * is done, as autograd's hooks tell DDP.
 *
 * DDP scenario (Li et al., "PyTorch Distributed: Experiences on Accelerating
 * Data Parallel Training", VLDB 2020; 25 MB buckets by default): the
 * gradients, in backward order, are cut into buckets of B bytes; a bucket
 * fires as soon as its last byte is ready, the partial one last, when the
 * backward pass ends. Each bucket is all-reduced with the real ring
 * (kernels/collectives.h, phantom buffers: the messages and their modelled
 * time are real, no data moves) on a second stream, modelled with the
 * rank's clock as in chapters/10-data-parallel/overlap.c: remember the
 * compute clock, run the collective from when the communication stream is
 * free, note when it ends, put the compute clock back (pw_rank_set_now).
 * One link per rank serves one message at a time (cluster.h), so one
 * communication stream is the honest model of it. (DDP never splits a
 * tensor between buckets; here a bucket is exactly B bytes, so the sweep can
 * go below one tensor and show what many small messages cost.)
 *
 * FSDP scenario (Zhao et al., "PyTorch FSDP: Experiences on Scaling Fully
 * Sharded Data Parallel", VLDB 2023, arXiv:2304.11277), ZeRO-3: every rank
 * holds 1/p of each layer's parameters; before a layer's forward, and again
 * before its backward, the layer is all-gathered (ring); after its backward
 * its gradients are reduce-scattered. Without prefetch a gather is issued
 * only when its layer is due, and the compute stream waits for it; with
 * prefetch the next layer's gather is issued as the current layer starts
 * computing (in the backward pass before the current reduce-scatter, as
 * FSDP's BACKWARD_PRE does), so it hides behind that compute.
 *
 * Checks, before any table: one bucket's step equals forward + backward +
 * the ring's closed form (coll_model_ring) to 1e-9 relative; every bucketed
 * step lies between the compute alone and the same buckets reduced one after
 * another after the backward pass (forward + backward + the sum of their
 * closed forms); FSDP without prefetch waits in its forward pass exactly L
 * ring all-gathers ((p-1)(alpha + n/p beta) each), and with prefetch its
 * step is never below the compute nor above the step without. Exit 1 if any
 * fails.
 *
 * CSV (common/results.h), all rows modelled:
 *   kind=event, one Gantt bar each, for a few bucket sizes and both FSDP
 *   runs: variant = "forward", "backward" (compute stream), "allreduce",
 *   "allgather", "reduce_scatter" (communication stream), threads = the
 *   rank, param = the scenario ("ddp_<bucket bytes>", "fsdp_no_prefetch",
 *   "fsdp_prefetch"; the Gantt runs are a quarter of the best bucket, the
 *   best and one bucket), n = the bucket (or layer) index, -1 for compute,
 *   bytes = the bucket's bytes; start in min_s, end in max_s.
 *   kind=modelled, per bucket size (n = bucket bytes, param "ddp"):
 *   variants "step", "exposed" (step - compute), "compute", "latency"
 *   (messages x alpha) and "last_bucket" (its ring all-reduce alone, closed
 *   form), the time in value; kind=quantity "buckets" and "messages" (sent
 *   per rank).
 *   kind=modelled for FSDP (param = scenario, n = one layer's bytes):
 *   "step", "exposed_gather" (compute stream waiting for parameters) and
 *   "exposed_tail" (waiting for the last reduce-scatter).
 *   Metadata: ranks, the link's alpha (us), model and layer bytes, the best
 *   bucket (best_bucket_bytes) and the Gantt scenarios (gantt).
 */
#include "cluster.h"
#include "collectives.h"
#include "options.h"
#include "results.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NTENSORS 4
/* Tensors of one layer in backward order (the backward pass meets the MLP
 * down projection first), as multiples of H^2: 4 + 4 + 1 + 3 = 12. */
static const int tensor_h2[NTENSORS] = { 4, 4, 1, 3 };

/* More buckets than this is a typo: each is one all-reduce to simulate. */
#define MAX_BUCKETS (1 << 16)

typedef struct {
    int layers;
    size_t h2;              /* H^2: a layer holds 12 h2 parameters */
    double tokens;          /* per replica */
    size_t bucket;          /* elements per bucket (DDP) */
    bool prefetch;          /* FSDP */
    bool trace;             /* add the Gantt bars (pw_rank_trace) */
    double *wait_gather;    /* FSDP, per rank: compute stream waiting for a gather */
    double *wait_gather_fwd;/* the same, forward pass only */
    double *wait_tail;      /* per rank: waiting for the communication stream at the end */
} step_job;

/* The communication stream of one rank: when it is next free. */
typedef struct {
    pw_rank *r;
    pw_comm comm;
    double free_at;
    bool trace;
} comm_stream;

typedef void (*collective_fn)(pw_comm *c, float *buf, size_t n);

/* Run a collective of n elements on the communication stream, issued at
 * the compute clock's now; returns when it ends. The compute clock is left
 * where it was. */
static double on_stream(comm_stream *s, collective_fn fn, size_t n, const char *kind, int index)
{
    double now = pw_rank_now(s->r), start = fmax(now, s->free_at);
    pw_rank_set_now(s->r, start);
    fn(&s->comm, NULL, n);                                  /* phantom: real messages, no data */
    s->free_at = pw_rank_now(s->r);
    if (s->trace) pw_rank_trace(s->r, kind, start, s->free_at, 4.0 * (double)n, index);
    pw_rank_set_now(s->r, now);
    return s->free_at;
}

/* Wait on the compute stream until t; returns how long it waited. */
static double wait_until(pw_rank *r, double t)
{
    double now = pw_rank_now(r);
    if (t <= now) return 0;
    pw_rank_set_now(r, t);
    return t - now;
}

/* ---- DDP: buckets filled in backward order ------------------------------------ */
static void ddp_step(pw_rank *r, void *arg)
{
    step_job *j = arg;
    comm_stream s = { r, coll_comm_cluster(r), 0, j->trace };
    double layer_params = 12.0 * (double)j->h2;
    for (int l = 0; l < j->layers; l++) pw_compute(r, 2 * layer_params * j->tokens, "forward");
    size_t filled = 0;                                      /* elements in the open bucket */
    int k = 0;                                              /* buckets fired */
    for (int l = j->layers - 1; l >= 0; l--) {
        for (int t = 0; t < NTENSORS; t++) {
            size_t ready = (size_t)tensor_h2[t] * j->h2;    /* this tensor's gradients */
            pw_compute(r, 4.0 * (double)ready * j->tokens, "backward");
            while (filled + ready >= j->bucket) {           /* the open bucket is full: it fires */
                ready -= j->bucket - filled;
                filled = 0;
                on_stream(&s, coll_allreduce_ring, j->bucket, "allreduce", k++);
            }
            filled += ready;
        }
    }
    if (filled > 0) on_stream(&s, coll_allreduce_ring, filled, "allreduce", k++);   /* the partial one */
    j->wait_tail[pw_rank_id(r)] = wait_until(r, s.free_at);
}

/* ---- FSDP: a gather before each layer's forward and backward ------------------- */
static void fsdp_step(pw_rank *r, void *arg)
{
    step_job *j = arg;
    comm_stream s = { r, coll_comm_cluster(r), 0, j->trace };
    int L = j->layers, nblocks = 2 * L, me = pw_rank_id(r);
    size_t layer = 12 * j->h2;
    double fwd = 2.0 * (double)layer * j->tokens, waited = 0, waited_fwd = 0;
    /* block b < L: forward of layer b; b >= L: backward of layer 2L-1-b */
    double ready = 0;                                       /* when block b's parameters are here */
    if (j->prefetch) ready = on_stream(&s, coll_allgather_ring, layer, "allgather", 0);
    for (int b = 0; b < nblocks; b++) {
        int l = b < L ? b : nblocks - 1 - b;
        if (!j->prefetch) ready = on_stream(&s, coll_allgather_ring, layer, "allgather", l);
        double w = wait_until(r, ready);
        waited += w;
        if (b < L) waited_fwd += w;
        /* the next layer's gather, while this one computes; in the backward
         * pass it goes ahead of this layer's reduce-scatter on the stream,
         * as FSDP's BACKWARD_PRE orders them */
        if (j->prefetch && b + 1 < nblocks)
            ready = on_stream(&s, coll_allgather_ring, layer, "allgather", b + 1 < L ? b + 1 : nblocks - 2 - b);
        pw_compute(r, b < L ? fwd : 2 * fwd, b < L ? "forward" : "backward");
        if (b >= L) on_stream(&s, coll_reduce_scatter_ring, layer, "reduce_scatter", l);   /* its gradients are ready */
    }
    j->wait_gather[me] = waited;
    j->wait_gather_fwd[me] = waited_fwd;
    j->wait_tail[me] = wait_until(r, s.free_at);
}

/* ---- running and recording ------------------------------------------------------ */
typedef struct {
    double step;
    double messages;        /* sent per rank */
    double bytes;           /* sent per rank */
    double wait_gather, wait_gather_fwd, wait_tail;   /* rank 0's (all ranks are alike) */
} run_result;

static bool keep_event(const char *kind)
{
    static const char *const kinds[] = { "forward", "backward", "allreduce", "allgather", "reduce_scatter" };
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (strcmp(kind, kinds[i]) == 0) return true;
    return false;
}

/* One step of fn on a fresh cluster; with csv, its Gantt bars as event rows. */
static run_result run_step(const pw_cluster_config *base, pw_rank_fn fn, step_job *j, pw_csv *csv, const char *scenario)
{
    pw_cluster_config cfg = *base;
    cfg.trace = j->trace = csv != NULL;
    pw_cluster *c = pw_cluster_create(&cfg);
    if (pw_cluster_run(c, fn, j) != 0) {
        fprintf(stderr, "%s", pw_cluster_report(c));
        exit(PW_EXIT_WRONG);
    }
    run_result res = { .step = pw_cluster_time(c), .wait_gather = j->wait_gather[0],
                       .wait_gather_fwd = j->wait_gather_fwd[0], .wait_tail = j->wait_tail[0] };
    long long msgs;
    double bytes;
    pw_cluster_traffic(c, &msgs, &bytes);
    res.messages = (double)msgs / cfg.ranks;
    res.bytes = bytes / cfg.ranks;
    if (csv) {
        size_t n;
        const pw_trace_event *e = pw_cluster_trace(c, &n);
        for (size_t i = 0; i < n; i++)
            if (keep_event(e[i].kind))
                pw_csv_event(csv, e[i].kind, e[i].peer, e[i].rank, scenario, e[i].start, e[i].end, e[i].bytes);
    }
    pw_cluster_destroy(c);
    return res;
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* Exposed time beyond the last bucket's own all-reduce: the stream still busy
 * with earlier buckets when the backward pass ended. The closed form of an
 * uneven last bucket rounds its chunk up, so a few ns below zero is zero. */
static double backlog(double exposed, double last) { return fmax(0, exposed - last); }

/* "4 MiB", "192 KiB", "12.5 MiB": bucket sizes as people say them. */
static const char *mib(double bytes, char *buf, size_t len) { return pw_fmt_bytes(bytes, buf, len); }

int main(int argc, char **argv)
{
    long long ranks = -1, per_node = -1, layers = -1, hidden = -1, tokens = -1;   /* -1: the defaults below */
    pw_list sizes = { .n = 0 };
    pw_cluster_flags links = pw_cluster_flag_defaults();
    pw_opt opts[6 + PW_CLUSTER_NFLAGS] = {
        { "-p", "--ranks", PW_OPT_INT, &ranks, "P", "replicas (default 8)", 2, 1024 },
        { NULL, "--per-node", PW_OPT_INT, &per_node, "N", "replicas per node (default 4: two nodes)", 1, 1024 },
        { "-L", "--layers", PW_OPT_INT, &layers, "L", "layers (default 16)", 1, 4096 },
        { "-H", "--hidden", PW_OPT_INT, &hidden, "H", "hidden size: 12 H^2 parameters a layer (default 512: 3.1M)", 1, 1 << 16 },
        { NULL, "--tokens", PW_OPT_INT, &tokens, "N", "tokens per replica (default 4096)", 1, 1LL << 40 },
        { "-b", "--bucket-bytes", PW_OPT_SIZES, &sizes, "B[,B...]",
          "bucket sizes in bytes, multiples of 4 (default: powers of 2 from 1/4 of the smallest tensor, and the whole model)",
          1, PW_SIZE_MAX },
    };
    pw_common_opts common;
    int nopts = 6 + pw_cluster_flag_opts(&links, opts + 6, false);   /* it has its own --per-node */
    pw_parse_or_exit(argc, argv, "gradient buckets overlapped with the backward pass (DDP), and FSDP's prefetch (modelled)",
                     opts, nopts, &common);
    /* --tiny picks smaller defaults; flags given win */
    if (ranks < 0) ranks = common.tiny ? 4 : 8;
    if (per_node < 0) per_node = common.tiny ? 2 : 4;
    if (layers < 0) layers = common.tiny ? 4 : 16;
    if (hidden < 0) hidden = common.tiny ? 64 : 512;
    if (tokens < 0) tokens = common.tiny ? 65536 : 4096;

    size_t h2 = (size_t)hidden * (size_t)hidden;
    double model_elems = 12.0 * (double)h2 * (double)layers, model_bytes = 4 * model_elems;
    char b1[32], b2[32];
    if (model_elems > 1e15) {   /* far past any trace or counter we keep */
        fprintf(stderr, "%s: -L %lld -H %lld: %.3g parameters, more than this model is meant for (at most 1e15)\n",
                common.prog, layers, hidden, model_elems);
        return PW_EXIT_USAGE;
    }
    if (sizes.n == 0) {          /* powers of two from a quarter of the smallest tensor (at most 4096 buckets), then the whole model */
        double b0 = 4.0 * (double)h2 / 4;
        while (model_bytes / b0 > 4096) b0 *= 2;
        for (double b = b0; b < model_bytes && sizes.n < PW_MAX_LIST - 1; b *= 2)
            sizes.v[sizes.n++] = (long long)b;
        sizes.v[sizes.n++] = (long long)model_bytes;
    }
    for (int i = 0; i < sizes.n; i++) {
        long long b = sizes.v[i];
        if (b % 4 != 0) {
            fprintf(stderr, "%s: -b %lld: a bucket holds whole fp32 gradients: give a multiple of 4 bytes\n", common.prog, b);
            return PW_EXIT_USAGE;
        }
        if ((double)b > model_bytes) sizes.v[i] = (long long)model_bytes;   /* past the model: one bucket */
        double nb = ceil(model_bytes / (double)sizes.v[i]);
        if (nb > MAX_BUCKETS) {
            fprintf(stderr, "%s: -b %lld: %.0f buckets of a %s model; at most %d (each is one all-reduce to simulate)\n",
                    common.prog, b, nb, mib(model_bytes, b1, sizeof b1), MAX_BUCKETS);
            return PW_EXIT_USAGE;
        }
    }
    qsort(sizes.v, (size_t)sizes.n, sizeof *sizes.v, cmp_ll);
    int ns = 0;                  /* distinct sizes only */
    for (int i = 0; i < sizes.n; i++)
        if (ns == 0 || sizes.v[i] != sizes.v[ns - 1]) sizes.v[ns++] = sizes.v[i];
    sizes.n = ns;

    links.per_node = per_node;
    pw_cluster_config cfg = pw_cluster_config_for((int)ranks, &links);
    cfg.ranks_per_node = (int)per_node;
    pw_cluster_check_or_exit(common.prog, &cfg);
    int P = (int)ranks;
    /* The Gantt runs (with --csv) keep every send and receive of the trace for a moment:
     * 4(p-1) events a bucket on each rank, for the smallest bucket. */
    double max_events = ceil(model_bytes / (double)sizes.v[0]) * 4.0 * (P - 1) * P + 16.0 * (double)layers * P;
    if (common.csv) pw_require_memory(common.prog, "-b (trace events of the Gantt runs)", (long long)max_events, sizeof(pw_trace_event), 1);
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);

    bool multi = ranks > per_node;   /* the ring then runs at the inter-node link's pace */
    double a = multi ? cfg.inter_alpha : cfg.intra_alpha, beta = 1 / ((multi ? cfg.inter_gbs : cfg.intra_gbs) * 1e9);
    double rate = cfg.device_gflops * 1e9;
    double fwd_time = 2 * model_elems * (double)tokens / rate, compute = 3 * fwd_time;

    double *waits = calloc(3 * (size_t)P, sizeof *waits);
    if (!waits) { fprintf(stderr, "%s: out of memory\n", common.prog); return PW_EXIT_WRONG; }
    step_job j = { (int)layers, h2, (double)tokens, 0, false, false, waits, waits + P, waits + 2 * P };

    /* ---- the DDP sweep -------------------------------------------------------- */
    int n = sizes.n;
    double *step = malloc(3 * (size_t)n * sizeof *step), *exposed = step + n, *serial = step + 2 * n;
    run_result *res = malloc((size_t)n * sizeof *res);
    int *ties = malloc((size_t)n * sizeof *ties);
    if (!step || !res || !ties) { fprintf(stderr, "%s: out of memory\n", common.prog); return PW_EXIT_WRONG; }
    bool good = true;
    for (int i = 0; i < n; i++) {
        j.bucket = (size_t)sizes.v[i] / 4;
        res[i] = run_step(&cfg, ddp_step, &j, NULL, NULL);
        step[i] = res[i].step;
        exposed[i] = step[i] - compute;
        /* the same buckets reduced one after another once the backward pass is done */
        size_t elems = (size_t)model_elems, full = elems / j.bucket, rest = elems % j.bucket;
        serial[i] = compute + (double)full * coll_model_ring(P, j.bucket, 4, a, beta)
                    + (rest ? coll_model_ring(P, rest, 4, a, beta) : 0);
        if (step[i] < compute * (1 - 1e-12) || step[i] > serial[i] * (1 + 1e-9)) {
            fprintf(stderr, "%s: bucket %lld bytes: step %.9g s outside [compute %.9g s, the same buckets without overlap %.9g s]\n",
                    common.prog, sizes.v[i], step[i], compute, serial[i]);
            good = false;
        }
    }
    double ring_all = coll_model_ring(P, (size_t)model_elems, 4, a, beta);
    double one = compute + ring_all;
    bool exact = (size_t)model_elems % (size_t)P == 0;
    /* one bucket for the whole model: in the sweep's last row, or run for the check alone */
    double one_step = step[n - 1];
    if ((double)sizes.v[n - 1] < model_bytes) {
        j.bucket = (size_t)model_elems;
        one_step = run_step(&cfg, ddp_step, &j, NULL, NULL).step;
    }
    if (exact && fabs(one_step - one) > 1e-9 * one) {
        fprintf(stderr, "%s: one bucket: step %.12g s, but forward + backward + ring closed form = %.12g s\n",
                common.prog, one_step, one);
        good = false;
    }

    /* ---- FSDP, without and with prefetch ------------------------------------------ */
    size_t layer = 12 * h2;
    double gather_one = (P - 1) * (a + (double)pw_ceil_div(layer, (size_t)P) * 4 * beta);
    run_result fs[2];
    for (int pf = 0; pf < 2; pf++) {
        j.prefetch = pf;
        fs[pf] = run_step(&cfg, fsdp_step, &j, NULL, NULL);
    }
    bool layer_exact = layer % (size_t)P == 0;
    if (layer_exact && fabs(fs[0].wait_gather_fwd - layers * gather_one) > 1e-9 * layers * gather_one) {
        fprintf(stderr, "%s: FSDP without prefetch waits %.12g s for gathers in the forward pass, want L x ring all-gather = %.12g s\n",
                common.prog, fs[0].wait_gather_fwd, layers * gather_one);
        good = false;
    }
    if (fs[1].step < compute * (1 - 1e-12) || fs[1].step > fs[0].step * (1 + 1e-12)) {
        fprintf(stderr, "%s: FSDP with prefetch: step %.9g s outside [compute %.9g s, without prefetch %.9g s]\n",
                common.prog, fs[1].step, compute, fs[0].step);
        good = false;
    }
    if (!good) return PW_EXIT_WRONG;
    printf("all variants match: one bucket = forward + backward + ring closed form%s; "
           "compute <= every bucketed step <= its buckets without overlap; FSDP's forward waits L ring all-gathers%s; "
           "compute <= FSDP with prefetch <= without\n\n",
           exact ? "" : " (not checked: p does not divide the model)",
           layer_exact ? "" : " (not checked: p does not divide a layer)");

    /* ---- the table ------------------------------------------------------------------ */
    printf("modelled: %lld replicas (%lld per node), %lld layers of %.2fM parameters (H = %lld, %s of fp32 gradients each), "
           "%s in all, %lld tokens per replica\n",
           ranks, per_node, layers, 12.0 * (double)h2 / 1e6, hidden, mib(4.0 * (double)layer, b1, sizeof b1),
           mib(model_bytes, b2, sizeof b2), tokens);
    printf("ring link: alpha %.3g us, %.4g GB/s; device %.4g TFLOP/s\n", a * 1e6, 1 / beta / 1e9, cfg.device_gflops / 1e3);
    printf("compute: forward %.3f ms + backward %.3f ms = %.3f ms; one ring all-reduce of all gradients %.3f ms\n\n",
           fwd_time * 1e3, 2 * fwd_time * 1e3, compute * 1e3, ring_all * 1e3);
    printf("DDP, gradients all-reduced in buckets during the backward pass (modelled)\n");
    printf("%10s %8s %9s %11s %10s %10s %10s %11s\n", "bucket", "buckets", "messages", "msgs*alpha", "step", "exposed",
           "= backlog", "+ last bucket");
    int best = 0;
    for (int i = 1; i < n; i++)
        if (exposed[i] < exposed[best]) best = i;
    double *last = malloc((size_t)n * sizeof *last);
    if (!last) { fprintf(stderr, "%s: out of memory\n", common.prog); return PW_EXIT_WRONG; }
    for (int i = 0; i < n; i++) {
        size_t bk = (size_t)sizes.v[i] / 4, rest = (size_t)model_elems % bk;
        last[i] = coll_model_ring(P, rest ? rest : bk, 4, a, beta);   /* the last bucket's all-reduce, alone */
        printf("%10s %8.0f %9.0f %8.3f ms %7.3f ms %7.3f ms %7.3f ms %10.3f ms%s\n", mib((double)sizes.v[i], b1, sizeof b1),
               ceil(model_bytes / (double)sizes.v[i]), res[i].messages, res[i].messages * a * 1e3,
               step[i] * 1e3, exposed[i] * 1e3, backlog(exposed[i], last[i]) * 1e3, last[i] * 1e3, i == best ? "  <- best" : "");
    }
    printf("(messages: sent by each rank, 2(p-1) = %d per bucket; exposed = step - compute = backlog (the stream still busy\n"
           " with earlier buckets when the backward pass ends) + the last bucket's ring all-reduce (closed form))\n\n",
           2 * (P - 1));

    printf("FSDP / ZeRO-3, each layer all-gathered before its forward and its backward, gradients reduce-scattered (modelled)\n");
    printf("%-18s %10s %16s %13s\n", "scenario", "step", "exposed gather", "exposed tail");
    const char *fsdp_name[2] = { "fsdp_no_prefetch", "fsdp_prefetch" };
    for (int pf = 0; pf < 2; pf++)
        printf("%-18s %7.3f ms %13.3f ms %10.3f ms\n", fsdp_name[pf], fs[pf].step * 1e3, fs[pf].wait_gather * 1e3,
               fs[pf].wait_tail * 1e3);
    printf("(one layer's ring all-gather %.3f ms, its forward %.3f ms, its backward %.3f ms; "
           "exposed gather: the compute stream waiting for parameters)\n\n",
           gather_one * 1e3, fwd_time / layers * 1e3, 2 * fwd_time / layers * 1e3);

    /* ---- the answers, from this run's numbers ------------------------------------------ */
    int nt = pw_ties(exposed, n, best, PW_TIE_SHARE, ties);
    printf("answer: the best bucket is %s: %.3f ms of communication exposed (step %.3f ms, compute %.3f ms)",
           mib((double)sizes.v[best], b1, sizeof b1), exposed[best] * 1e3, step[best] * 1e3, compute * 1e3);
    if (nt > 0) {
        printf("; a tie (within %.0f%%) with", 100 * PW_TIE_SHARE);
        for (int t = 0; t < nt; t++)
            printf("%s %s (%.3f ms)", t ? "," : "", mib((double)sizes.v[ties[t]], b2, sizeof b2), exposed[ties[t]] * 1e3);
    }
    printf("\n");
    if (best > 0) {
        int s = best - 1;   /* the next smaller bucket, and the smallest */
        printf("answer: smaller is worse: %s buckets send %.0f messages per rank and each pays alpha = %.3g us: "
               "%.3f ms of latency (%.3f ms at %s); their all-reduces take %.3f ms in all against the backward pass's %.3f ms, "
               "and fall behind it by %.3f ms (%.3f ms at the best)",
               mib((double)sizes.v[s], b1, sizeof b1), res[s].messages, a * 1e6, res[s].messages * a * 1e3,
               res[best].messages * a * 1e3, mib((double)sizes.v[best], b2, sizeof b2),
               (serial[s] - compute) * 1e3, 2 * fwd_time * 1e3,
               backlog(exposed[s], last[s]) * 1e3, backlog(exposed[best], last[best]) * 1e3);
        if (s > 0)
            printf("; at %s, %.0f x %.3g us = %.3f ms of latency alone, %.3f ms exposed",
                   mib((double)sizes.v[0], b1, sizeof b1), res[0].messages, a * 1e6, res[0].messages * a * 1e3,
                   exposed[0] * 1e3);
        printf("\n");
    } else
        printf("answer: no smaller bucket was swept: the per-message latency (%.0f messages x %.3g us = %.3f ms) does not show\n",
               res[0].messages, a * 1e6, res[0].messages * a * 1e3);
    if (best < n - 1) {
        int g = best + 1;   /* the next larger bucket, and the largest */
        printf("answer: larger is worse: the last bucket fires only when the backward pass ends and nothing hides its reduce: "
               "%.3f ms for %s buckets (%.3f ms exposed), %.3f ms for the best's",
               last[g] * 1e3, mib((double)sizes.v[g], b1, sizeof b1), exposed[g] * 1e3, last[best] * 1e3);
        if (g < n - 1)
            printf("; one bucket of %s: %.3f ms, all of its all-reduce", mib((double)sizes.v[n - 1], b1, sizeof b1),
                   exposed[n - 1] * 1e3);
        printf("\n");
    } else
        printf("answer: no larger bucket was swept: the exposed tail of a bigger last bucket does not show\n");
    printf("answer: FSDP exposes %.3f ms of all-gathers without prefetch and %.3f ms with it "
           "(step %.3f -> %.3f ms): the next layer's gather hides behind this layer's compute%s\n",
           fs[0].wait_gather * 1e3, fs[1].wait_gather * 1e3, fs[0].step * 1e3, fs[1].step * 1e3,
           fs[1].wait_gather > gather_one * (1 + 1e-9)
               ? " only in part: a gather and a reduce-scatter take longer than a layer's compute"
               : "; only the first layer's gather, with nothing before it, stays exposed");

    /* ---- CSV: the sweep, then the Gantt runs ------------------------------------------- */
    pw_csv_meta(csv, "ranks", "%lld", ranks);
    pw_csv_meta(csv, "alpha_us", "%.6g", a * 1e6);
    pw_csv_meta(csv, "model_bytes", "%.0f", model_bytes);
    pw_csv_meta(csv, "layer_bytes", "%.0f", 4.0 * (double)layer);
    pw_csv_meta(csv, "compute_s", "%.9g", compute);
    pw_csv_meta(csv, "best_bucket_bytes", "%lld", sizes.v[best]);
    /* Gantt: a bucket a quarter of the best (or the smallest), the best, the whole model */
    int gi[3] = { best >= 2 ? best - 2 : 0, best, n - 1 }, ng = 0;
    char gname[3][48], glist[160] = "";
    for (int g = 0; g < 3; g++) {
        bool dup = false;
        for (int h = 0; h < g; h++) dup |= gi[h] == gi[g];
        if (dup) continue;
        snprintf(gname[ng], sizeof gname[ng], "ddp_%lld", sizes.v[gi[g]]);
        gi[ng] = gi[g];
        snprintf(glist + strlen(glist), sizeof glist - strlen(glist), "%s%s", ng ? " " : "", gname[ng]);
        ng++;
    }
    pw_csv_meta(csv, "gantt", "%s fsdp_no_prefetch fsdp_prefetch", glist);
    double flops = 3 * 2 * model_elems * (double)tokens;
    for (int i = 0; i < n; i++) {
        pw_csv_modelled(csv, "step", sizes.v[i], P, "ddp", step[i], flops, res[i].bytes);
        pw_csv_modelled(csv, "exposed", sizes.v[i], P, "ddp", exposed[i], 0, res[i].bytes);
        pw_csv_modelled(csv, "compute", sizes.v[i], P, "ddp", compute, flops, 0);
        pw_csv_modelled(csv, "latency", sizes.v[i], P, "ddp", res[i].messages * a, 0, 0);
        pw_csv_modelled(csv, "last_bucket", sizes.v[i], P, "ddp", last[i], 0, 0);
        pw_csv_quantity(csv, "buckets", sizes.v[i], P, "ddp", ceil(model_bytes / (double)sizes.v[i]));
        pw_csv_quantity(csv, "messages", sizes.v[i], P, "ddp", res[i].messages);
    }
    for (int pf = 0; pf < 2; pf++) {
        long long lb = (long long)(4 * layer);
        pw_csv_modelled(csv, "step", lb, P, fsdp_name[pf], fs[pf].step, flops, fs[pf].bytes);
        pw_csv_modelled(csv, "exposed_gather", lb, P, fsdp_name[pf], fs[pf].wait_gather, 0, 0);
        pw_csv_modelled(csv, "exposed_tail", lb, P, fsdp_name[pf], fs[pf].wait_tail, 0, 0);
    }
    if (csv) {
        for (int g = 0; g < ng; g++) {
            j.bucket = (size_t)sizes.v[gi[g]] / 4;
            run_step(&cfg, ddp_step, &j, csv, gname[g]);
        }
        for (int pf = 0; pf < 2; pf++) {
            j.prefetch = pf;
            run_step(&cfg, fsdp_step, &j, csv, fsdp_name[pf]);
        }
    }
    free(last);
    free(ties);
    free(res);
    free(step);
    free(waits);
    return pw_csv_close(csv);
}
