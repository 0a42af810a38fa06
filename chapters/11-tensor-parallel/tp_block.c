/* chapters/11-tensor-parallel/tp_block.c: a transformer block split across t
 * ranks of the virtual cluster the Megatron way (kernels/tensor_parallel.h),
 * checked against the unsplit block, its communication counted from the
 * trace, its memory per device counted.
 *
 *   ./build/ch11/tp_block                    the built-in shapes, t = 1..6
 *   ./build/ch11/tp_block -b 2 -s 8 -H 48 --heads 8 -t 1,2,4,8
 *   ./build/ch11/tp_block --mem-h 12288 --mem-heads 96 --mem-s 2048
 *
 * 1. The unsplit block's backward pass is itself checked first, by finite
 *    differences of its forward pass (a gradient that is wrong in both the
 *    split and the unsplit code would otherwise agree with itself).
 * 2. For every shape and t (tensor parallelism, TP), and every t that
 *    divides the sequence (TP + sequence parallelism, SP): the outputs Y, the
 *    input's gradient dX and all six weight gradients (every rank's slices,
 *    put back together) against the unsplit block; every rank must hold the
 *    same bits of Y (TP: the all-reduce forms each sum once). Then, from the
 *    cluster's trace, the bytes each rank sent, against 4 x 2(t-1)/t x 4 n h
 *    (SP: plus 2 x (t-1)/t x 4 n h, the re-gathers of the backward); the
 *    bytes each rank kept for the backward (its own accounting) against
 *    tp_stash_bytes; and the modelled time against tp_block_model, the same
 *    messages without data (what placement.c runs at full size).
 * 3. Memory per device at a realistic size (default one GPT-3 175B layer:
 *    h = 12288, 96 heads, s = 2048, one sequence): weights and activations
 *    for t = 1, 2, 4, 8, TP and TP + SP, beside Korthikanti et al.'s formula
 *    (16-bit activations) and data parallelism's full copy.
 *
 * --break gives every rank rank 0's slices (a slicing bug): the check must
 * catch it (exit 1, nothing written), which the tests assert.
 *
 * CSV (kind=quantity rows, common/results.h): variant comm_bytes / stash_bytes
 * (param tp or sp, threads = t, n = n h, value = bytes per rank, measured),
 * modelled (value = modelled seconds of one forward + backward); then the
 * memory table: variant weights, act_tp, act_sp, paper_tp, paper_sp, dp_copy
 * (threads = t, n = h, value = bytes per device).
 */
#include "check.h"
#include "cluster.h"
#include "collectives.h"
#include "options.h"
#include "results.h"
#include "tensor_parallel.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    tp_shape sh;
    bool sp, brk;
    const tp_weights *full;
    const float *x, *dy;
    float **y, **dx;          /* per rank, n x h */
    tp_weights *dw;           /* per rank, slices */
    double *stash;            /* per rank */
} job;

static void rank_fn(pw_rank *r, void *arg)
{
    job *j = arg;
    pw_comm c = coll_comm_cluster(r);
    tp_weights part;
    tp_weights_alloc(&part, &j->sh, c.size);
    tp_weights_slice(&j->sh, j->full, c.size, j->brk ? 0 : c.rank, &part);
    tp_rank_io io = { j->sh, j->sp, j->x, j->dy, &part, j->y[c.rank], j->dx[c.rank], &j->dw[c.rank], 0 };
    tp_block_rank(&c, &io);
    j->stash[c.rank] = io.stash_bytes;
    tp_weights_free(&part);
}

typedef struct { tp_shape sh; bool sp; } model_job;
static void model_fn(pw_rank *r, void *arg)
{
    model_job *m = arg;
    pw_comm c = coll_comm_cluster(r);
    tp_block_model(&c, &m->sh, m->sp);
}

/* Largest |got - ref| over the largest |ref|: the error relative to the
 * array's scale (a gradient's small entries carry the absolute error of
 * the large ones they were summed with). */
static double rel_err(const float *got, const float *ref, size_t n)
{
    double e = 0, m = 0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)got[i] - ref[i]);
        if (!(d <= e)) e = d;                         /* NaN wins */
        if (fabs(ref[i]) > m) m = fabs(ref[i]);
    }
    return m > 0 ? e / m : e;
}

/* The tolerance, relative to each array's largest entry. fp32 rounds by
 * 2^-24 = 6e-8; the split changes the order of the longest sums (the W2
 * product's 4h terms, cut into t partial sums, then added by the ring), and
 * each order's rounding is bounded by k 2^-24 of the sum of |terms| (k = 96
 * terms at h = 24: 6e-6 in the worst case, about sqrt(k) 2^-24 = 6e-7 for
 * random signs). Layer norm divides by a standard deviation near 1; 1e-5
 * leaves a margin of
 * thirty over the worst seen here (3e-7 at h = 24, t = 2..6), while a wrong slice,
 * a missing all-reduce or a sum taken twice are off by 10% and more. */
#define TOL 1e-5

static double dot_double(const float *a, const float *b, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) s += (double)a[i] * b[i];
    return s;
}

/* 1. finite differences of L = sum(Y .* dY) against the reference's
 * gradients, a few entries of each weight and of X. */
static int check_reference(const char *prog, const tp_shape *sh)
{
    size_t n = tp_tokens(sh), h = (size_t)sh->h, nw = tp_weight_floats(sh, 1);
    tp_weights w, dw;
    tp_weights_alloc(&w, sh, 1);
    tp_weights_alloc(&dw, sh, 1);
    tp_weights_init(&w, sh, 11);
    float *x = pw_alloc_floats(n * h), *dy = pw_alloc_floats(n * h), *y = pw_alloc_floats(n * h), *dx = pw_alloc_floats(n * h);
    pw_fill_random(x, n * h, 21, -1, 1);
    pw_fill_random(dy, n * h, 22, -1, 1);
    tp_block_reference(sh, &w, x, dy, y, dx, &dw);
    /* central differences in float with step 1e-2: truncation about
     * eps^2 = 1e-4 of the third derivative, rounding about 1e-6 L / eps;
     * a wrong formula is off by the size of the gradient itself */
    const float eps = 1e-2f;
    double worst = 0;
    int bad = 0;
    float *wf = tp_weights_flat(&w), *gf = tp_weights_flat(&dw);
    size_t picks = 0;
    for (int which = 0; which < 2; which++) {
        float *v = which ? x : wf, *g = which ? dx : gf;
        size_t len = which ? n * h : nw, step = len / 23 + 1;
        for (size_t i = 7 % len; i < len; i += step, picks++) {
            float keep = v[i];
            v[i] = keep + eps;
            tp_block_forward_reference(sh, &w, x, y);
            double lp = dot_double(y, dy, n * h);
            v[i] = keep - eps;
            tp_block_forward_reference(sh, &w, x, y);
            double lm = dot_double(y, dy, n * h);
            v[i] = keep;
            double fd = (lp - lm) / (2 * eps), err = fabs(fd - g[i]) / (1 + fabs(g[i]));
            if (err > worst) worst = err;
            if (err > 2e-2) {
                if (bad++ < 5)
                    fprintf(stderr, "%s: the unsplit block's backward: d L / d %s[%zu] = %.6g, finite differences give %.6g\n",
                            prog, which ? "x" : "weights", i, (double)g[i], fd);
            }
        }
    }
    printf("1. the unsplit block's gradients against finite differences (%zu entries of the weights and x):\n"
           "   largest |fd - grad| / (1 + |grad|) = %.2g (limit 2e-2): %s\n", picks, worst, bad ? "WRONG" : "ok");
    tp_weights_free(&w);
    tp_weights_free(&dw);
    pw_free(x); pw_free(dy); pw_free(y); pw_free(dx);
    return bad != 0;
}

typedef struct { double ey, edx, edw, bytes, want_bytes, stash, want_stash, time, model_time; } outcome;

/* 2. one shape, one t, TP or SP: run, check, count. */
static int run_split(const char *prog, const pw_cluster_flags *lf, const tp_shape *sh, int t, bool sp, bool brk,
                     outcome *out)
{
    size_t n = tp_tokens(sh), h = (size_t)sh->h;
    tp_weights full, rdw, gdw;
    tp_weights_alloc(&full, sh, 1);
    tp_weights_alloc(&rdw, sh, 1);
    tp_weights_alloc(&gdw, sh, 1);
    tp_weights_init(&full, sh, 11);
    float *x = pw_alloc_floats(n * h), *dy = pw_alloc_floats(n * h), *ry = pw_alloc_floats(n * h), *rdx = pw_alloc_floats(n * h);
    float *gy = pw_alloc_floats(n * h), *gdx = pw_alloc_floats(n * h);
    pw_fill_random(x, n * h, 21, -1, 1);
    pw_fill_random(dy, n * h, 22, -1, 1);
    tp_block_reference(sh, &full, x, dy, ry, rdx, &rdw);

    float **y = calloc((size_t)t, sizeof *y), **dx = calloc((size_t)t, sizeof *dx);
    tp_weights *dw = calloc((size_t)t, sizeof *dw);
    double *stash = calloc((size_t)t, sizeof *stash);
    for (int r = 0; r < t; r++) {
        y[r] = pw_alloc_floats(n * h);
        dx[r] = pw_alloc_floats(n * h);
        memset(y[r], 0, n * h * sizeof(float));
        memset(dx[r], 0, n * h * sizeof(float));
        tp_weights_alloc(&dw[r], sh, t);
    }
    job j = { *sh, sp, brk, &full, x, dy, y, dx, dw, stash };
    pw_cluster_config cfg = pw_cluster_config_for(t, lf);
    cfg.ranks_per_node = t;                       /* a tensor group on one node (placement.c tries the other way) */
    cfg.trace = true;
    pw_cluster_check_or_exit(prog, &cfg);
    pw_cluster *c = pw_cluster_create(&cfg);
    int bad = 0;
    if (pw_cluster_run(c, rank_fn, &j) != PW_CLUSTER_OK) {
        fprintf(stderr, "%s: the cluster run failed:\n%s", prog, pw_cluster_report(c));
        bad = 1;
    }
    out->time = pw_cluster_time(c);
    size_t nev;
    const pw_trace_event *ev = pw_cluster_trace(c, &nev);
    double *sent = calloc((size_t)t, sizeof *sent);
    for (size_t i = 0; i < nev; i++)
        if (!strcmp(ev[i].kind, "send")) sent[ev[i].rank] += ev[i].bytes;

    /* assemble: TP every rank holds all of Y and dX (rank 0's are checked,
     * the others must be the same bits); SP each rank its tokens */
    for (int r = 0; r < t; r++) {
        size_t r0 = 0, rows = n;
        if (sp) tp_seq_rows(sh, t, r, &r0, &rows);
        else if (r > 0 && (memcmp(y[r], y[0], n * h * sizeof(float)) || memcmp(dx[r], dx[0], n * h * sizeof(float)))) {
            fprintf(stderr, "%s: t = %d: rank %d's Y or dX differ from rank 0's in the last bits\n", prog, t, r);
            bad = 1;
        }
        memcpy(gy + r0 * h, y[r] + r0 * h, rows * h * sizeof(float));
        memcpy(gdx + r0 * h, dx[r] + r0 * h, rows * h * sizeof(float));
        tp_weights_unslice(sh, &dw[r], t, r, &gdw);
    }
    out->ey = rel_err(gy, ry, n * h);
    out->edx = rel_err(gdx, rdx, n * h);
    out->edw = 0;
    const float *gw[6] = { gdw.wq, gdw.wk, gdw.wv, gdw.wo, gdw.w1, gdw.w2 };
    const float *rw[6] = { rdw.wq, rdw.wk, rdw.wv, rdw.wo, rdw.w1, rdw.w2 };
    static const char *names[6] = { "dWq", "dWk", "dWv", "dWo", "dW1", "dW2" };
    size_t hh = h * h, sizes[6] = { hh, hh, hh, hh, 4 * hh, 4 * hh };
    const char *worst = names[0];
    for (int k = 0; k < 6; k++) {
        double e = rel_err(gw[k], rw[k], sizes[k]);
        if (!(e <= out->edw)) { out->edw = e; worst = names[k]; }
    }
    char what[96];
    snprintf(what, sizeof what, "b %d s %d h %d heads %d, t = %d, %s", sh->b, sh->s, sh->h, sh->heads, t, sp ? "TP+SP" : "TP");
    if (!(out->ey <= TOL)) { fprintf(stderr, "%s: %s: Y is off by %.3g of its scale (tolerance %.0e)\n", prog, what, out->ey, TOL); bad = 1; }
    if (!(out->edx <= TOL)) { fprintf(stderr, "%s: %s: dX is off by %.3g of its scale (tolerance %.0e)\n", prog, what, out->edx, TOL); bad = 1; }
    if (!(out->edw <= TOL)) { fprintf(stderr, "%s: %s: %s is off by %.3g of its scale (tolerance %.0e)\n", prog, what, worst, out->edw, TOL); bad = 1; }

    /* bytes per rank from the trace, every rank: exact when t divides n h */
    out->want_bytes = tp_comm_bytes(sh, t, sp);
    out->bytes = sent[0];
    for (int r = 0; r < t; r++)
        if (fabs(sent[r] - out->want_bytes) > 0.5) {
            fprintf(stderr, "%s: %s: rank %d sent %.0f bytes, the formula says %.0f\n", prog, what, r, sent[r], out->want_bytes);
            bad = 1;
        }
    out->want_stash = tp_stash_bytes(sh, t, sp);
    out->stash = stash[0];
    for (int r = 0; r < t; r++)
        if (stash[r] != out->want_stash) {
            fprintf(stderr, "%s: %s: rank %d kept %.0f bytes for the backward, tp_stash_bytes says %.0f\n", prog, what, r, stash[r], out->want_stash);
            bad = 1;
        }
    pw_cluster_destroy(c);

    /* the phantom model: the same messages and flops, so the same clock */
    cfg.trace = false;
    c = pw_cluster_create(&cfg);
    model_job mj = { *sh, sp };
    if (pw_cluster_run(c, model_fn, &mj) != PW_CLUSTER_OK) bad = 1;
    out->model_time = pw_cluster_time(c);
    pw_cluster_destroy(c);
    if (fabs(out->model_time - out->time) > 1e-12 * out->time) {
        fprintf(stderr, "%s: %s: modelled time %.9g s, the phantom model's %.9g s\n", prog, what, out->time, out->model_time);
        bad = 1;
    }

    for (int r = 0; r < t; r++) { pw_free(y[r]); pw_free(dx[r]); tp_weights_free(&dw[r]); }
    free(y); free(dx); free(dw); free(stash); free(sent);
    tp_weights_free(&full); tp_weights_free(&rdw); tp_weights_free(&gdw);
    pw_free(x); pw_free(dy); pw_free(ry); pw_free(rdx); pw_free(gy); pw_free(gdx);
    return bad;
}

static const char *gib(double bytes, char *buf, size_t len)
{
    snprintf(buf, len, "%.3f", bytes / (1u << 30));
    return buf;
}

int main(int argc, char **argv)
{
    long long b = -1, s = -1, hid = -1, heads = -1, mh = 12288, mheads = 96, ms = 2048, mb = 1;
    pw_list ts = { .n = 0 };
    bool brk = false;
    pw_cluster_flags lf = pw_cluster_flag_defaults();
    pw_opt opts[10 + PW_CLUSTER_NFLAGS] = {
        { "-b", "--batch", PW_OPT_INT, &b, "B", "sequences (with -s, -H, --heads: one shape instead of the built-in ones)", 1, 64 },
        { "-s", "--seq", PW_OPT_INT, &s, "S", "tokens per sequence", 1, 512 },
        { "-H", "--hidden", PW_OPT_INT, &hid, "H", "hidden size", 1, 1024 },
        { NULL, "--heads", PW_OPT_INT, &heads, "A", "attention heads (divides H)", 1, 256 },
        { "-t", "--tp", PW_OPT_SIZES, &ts, "T[,T...]", "tensor-parallel ranks (divide the heads; default: every divisor up to 8)", 1, 256 },
        { NULL, "--mem-h", PW_OPT_INT, &mh, "H", "memory table: hidden size (default 12288, GPT-3 175B)", 1, 1 << 20 },
        { NULL, "--mem-heads", PW_OPT_INT, &mheads, "A", "memory table: heads (default 96)", 1, 1 << 16 },
        { NULL, "--mem-s", PW_OPT_INT, &ms, "S", "memory table: sequence length (default 2048)", 1, 1 << 24 },
        { NULL, "--mem-b", PW_OPT_INT, &mb, "B", "memory table: sequences per micro-batch (default 1)", 1, 1 << 20 },
        { NULL, "--break", PW_OPT_FLAG, &brk, NULL, "give every rank rank 0's slices: the check must fail", 0, 0 },
    };
    pw_common_opts common;
    int nopts = 10 + pw_cluster_flag_opts(&lf, opts + 10, false);   /* no --per-node: the group is one node */
    pw_parse_or_exit(argc, argv, "a transformer block split across t ranks (Megatron), checked against the unsplit one",
                     opts, nopts, &common);
    const char *prog = common.prog;

    /* the shapes: odd sizes on purpose (h = 24 and 20, 5 and 6 heads, t = 3, 5, 6) */
    tp_shape builtin[] = { { 2, 8, 24, 4 }, { 3, 6, 24, 6 }, { 1, 5, 20, 5 } };
    tp_shape *shapes = builtin;
    int nshapes = common.tiny ? 2 : 3;
    tp_shape one;
    int given = (b > 0) + (s > 0) + (hid > 0) + (heads > 0);
    if (given && given < 4) {
        fprintf(stderr, "%s: a shape needs all of -b, -s, -H and --heads\n", prog);
        return PW_EXIT_USAGE;
    }
    if (given) {
        one = (tp_shape){ (int)b, (int)s, (int)hid, (int)heads };
        shapes = &one;
        nshapes = 1;
    }
    char why[160];
    for (int k = 0; k < ts.n; k++)
        for (int i = 0; i < nshapes; i++)
            if (tp_shape_check(&shapes[i], (int)ts.v[k], false, why, sizeof why)) {
                fprintf(stderr, "%s: -t %lld: %s\n", prog, ts.v[k], why);
                return PW_EXIT_USAGE;
            }
    if (given && tp_shape_check(&one, 1, false, why, sizeof why)) {
        fprintf(stderr, "%s: %s\n", prog, why);
        return PW_EXIT_USAGE;
    }
    /* the largest run holds, for each of t ranks and the reference, about
     * one unsplit block's kept activations, a few n x h buffers and the weights */
    for (int i = 0; i < nshapes; i++) {
        long long tmax = 8;
        for (int k = 0; k < ts.n; k++) if (ts.v[k] > tmax) tmax = ts.v[k];
        double n = (double)tp_tokens(&shapes[i]), hh = shapes[i].h;
        double floats = tp_stash_bytes(&shapes[i], 1, false) / 4 + 8 * n * hh + 24 * hh * hh;
        pw_require_memory(prog, "-b/-s/-H", (long long)floats, sizeof(float), (int)tmax + 2);
    }
    tp_shape mem = { (int)mb, (int)ms, (int)mh, (int)mheads };
    if (tp_shape_check(&mem, 1, false, why, sizeof why)) {
        fprintf(stderr, "%s: memory table: %s\n", prog, why);
        return PW_EXIT_USAGE;
    }
    pw_cluster_config lcfg = pw_cluster_config_for(1, &lf);   /* bad link flags: one line, exit 2, before any run */
    pw_cluster_check_or_exit(prog, &lcfg);
    int bad = check_reference(prog, &shapes[0]);
    if (bad) { fprintf(stderr, "%s: the unsplit reference is wrong; nothing else checked\n", prog); return PW_EXIT_WRONG; }

    printf("\n2. the split block against the unsplit one (errors relative to each array's largest entry, tolerance %.0e),\n"
           "   bytes each rank sent (from the trace) and kept for the backward (its own count), modelled time\n", TOL);
    printf("%-22s %2s %-5s %8s %8s %8s %10s %10s %10s %10s %10s\n", "shape (b,s,h,heads)", "t", "mode", "Y err", "dX err",
           "dW err", "sent B", "formula", "kept B", "formula", "model us");
    typedef struct { tp_shape sh; int t; bool sp; outcome o; } row;
    row rows[3 * 2 * 64];
    int nrows = 0;
    for (int i = 0; i < nshapes; i++) {
        int tl[64], nt = 0;
        if (ts.n) for (int k = 0; k < ts.n; k++) tl[nt++] = (int)ts.v[k];
        else for (int t = 1; t <= 8; t++) if (shapes[i].heads % t == 0) tl[nt++] = t;
        for (int k = 0; k < nt; k++)
            for (int mode = 0; mode < 2; mode++) {
                bool sp = mode == 1;
                if (sp && (shapes[i].s % tl[k] || tl[k] == 1)) continue;
                row *rw = &rows[nrows++];
                rw->sh = shapes[i]; rw->t = tl[k]; rw->sp = sp;
                int wrong = run_split(prog, &lf, &shapes[i], tl[k], sp, brk, &rw->o);
                char sh[32];
                snprintf(sh, sizeof sh, "%d,%d,%d,%d", shapes[i].b, shapes[i].s, shapes[i].h, shapes[i].heads);
                printf("%-22s %2d %-5s %8.1e %8.1e %8.1e %10.0f %10.0f %10.0f %10.0f %10.3f%s\n", sh, tl[k], sp ? "TP+SP" : "TP",
                       rw->o.ey, rw->o.edx, rw->o.edw, rw->o.bytes, rw->o.want_bytes, rw->o.stash, rw->o.want_stash,
                       rw->o.time * 1e6, wrong ? "  WRONG" : "");
                bad |= wrong;
            }
    }
    if (bad) {
        fprintf(stderr, "%s: a split disagreed with the unsplit block or its formulas; nothing written\n", prog);
        return PW_EXIT_WRONG;
    }
    printf("all variants match: Y, dX and every weight gradient equal the unsplit block's within %.0e on every shape and t;\n"
           "  bytes sent equal 4 x 2(t-1)/t x 4 n h per rank (TP+SP: plus 2 x (t-1)/t x 4 n h), kept bytes their formula,\n"
           "  modelled times the phantom model's\n", TOL);
    /* The answers from the table: the split's error at t = 1 and above, and the bytes of the first shape as t grows. */
    double e1 = -1, emax = 0, ey = 0, edx = 0, edw = 0;
    int tlo = 0, thi = 0;
    double blo = 0, bhi = 0;
    for (int i = 0; i < nrows; i++) {
        const row *rw = &rows[i];
        double e = fmax(rw->o.ey, fmax(rw->o.edx, rw->o.edw));
        if (rw->t == 1) e1 = fmax(e1, e);
        else if (e > emax) { emax = e; ey = rw->o.ey; edx = rw->o.edx; edw = rw->o.edw; }
        if (i > 0 && (rw->sh.b != rows[0].sh.b || rw->sh.s != rows[0].sh.s || rw->sh.h != rows[0].sh.h ||
                      rw->sh.heads != rows[0].sh.heads))
            continue;
        if (rw->sp || rw->t == 1) continue;
        if (!tlo || rw->t < tlo) { tlo = rw->t; blo = rw->o.bytes; }
        if (rw->t > thi) { thi = rw->t; bhi = rw->o.bytes; }
    }
    if (e1 >= 0 && emax > 0)
        printf("answer: at t = 1 the split's largest error is %.1e (%s); at t > 1 %.1e of the scale (Y %.1e, dX %.1e,\n"
               "  dW %.1e): %.1f units of float rounding (2^-24)\n", e1, e1 == 0 ? "bit for bit" : "NOT bit for bit",
               emax, ey, edx, edw, emax / 0x1p-24);
    else
        printf("answer: not shown on this run: -t needs 1 and a count above 1 to compare (largest error %.1e)\n",
               e1 >= 0 ? e1 : emax);
    if (tlo && thi > tlo)
        printf("answer: at b = %d, s = %d, h = %d a rank sends %.0f bytes per block at t = %d and %.0f at t = %d: %.2fx for\n"
               "  %.1fx the ranks (the ring's 2(t-1)/t)\n", rows[0].sh.b, rows[0].sh.s, rows[0].sh.h, blo, tlo, bhi, thi,
               bhi / blo, (double)thi / tlo);
    else
        printf("answer: not shown on this run: the first shape ran at one t > 1 only, so no growth with t\n");
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);    /* only verified results are written */
    for (int i = 0; i < nrows; i++) {
        row *rw = &rows[i];
        long long nh = (long long)tp_tokens(&rw->sh) * rw->sh.h;
        const char *mode = rw->sp ? "sp" : "tp";
        pw_csv_quantity(csv, "comm_bytes", nh, rw->t, mode, rw->o.bytes);
        pw_csv_quantity(csv, "stash_bytes", nh, rw->t, mode, rw->o.stash);
        pw_csv_quantity(csv, "modelled", nh, rw->t, mode, rw->o.time);
    }
    /* the saving of sequence parallelism, measured on the last shape's largest t with both */
    for (int i = nrows - 1; i > 0; i--)
        if (rows[i].sp && !rows[i - 1].sp && rows[i - 1].t == rows[i].t) {
            row *p = &rows[i - 1], *q = &rows[i];
            double ours = q->o.stash / p->o.stash;
            double paper = tp_paper_activation_bytes(&q->sh, q->t, true) / tp_paper_activation_bytes(&q->sh, q->t, false);
            printf("sequence parallelism at t = %d (b %d, s %d, h %d): kept %.0f bytes instead of %.0f, %.2f of TP's;\n"
                   "  the paper's formula (16-bit, with dropout masks) gives %.2f; same all-reduce bytes, plus %.0f bytes of re-gathers\n",
                   q->t, q->sh.b, q->sh.s, q->sh.h, q->o.stash, p->o.stash, ours, paper, q->o.want_bytes - p->o.want_bytes);
            break;
        }

    /* 3. memory per device at a realistic size */
    char b1[32], b2[32], b3[32], b4[32], b5[32], b6[32];
    printf("\n3. memory per device, one layer of h = %d, %d heads, s = %d, b = %d (GiB; fp32 weights and activations,\n"
           "   the paper's columns with its 16-bit activations and dropout masks)\n", mem.h, mem.heads, mem.s, mem.b);
    printf("%3s %10s %10s %10s %12s %12s %12s\n", "t", "weights", "act TP", "act TP+SP", "paper TP", "paper TP+SP", "DP copy");
    double wfull = 4.0 * (double)tp_weight_floats(&mem, 1);
    for (int t = 1; t <= 8; t *= 2) {
        if (mem.heads % t) continue;
        double w = 4.0 * (double)tp_weight_floats(&mem, t), a = tp_stash_bytes(&mem, t, false), asp = tp_stash_bytes(&mem, t, true);
        double pa = tp_paper_activation_bytes(&mem, t, false), psp = tp_paper_activation_bytes(&mem, t, true);
        double dp = wfull + tp_stash_bytes(&mem, 1, false);
        printf("%3d %10s %10s %10s %12s %12s %12s\n", t, gib(w, b1, 32), gib(a, b2, 32), gib(asp, b3, 32), gib(pa, b4, 32),
               gib(psp, b5, 32), gib(dp, b6, 32));
        pw_csv_quantity(csv, "weights", mem.h, t, "", w);
        pw_csv_quantity(csv, "act_tp", mem.h, t, "", a);
        pw_csv_quantity(csv, "act_sp", mem.h, t, "", asp);
        pw_csv_quantity(csv, "paper_tp", mem.h, t, "", pa);
        pw_csv_quantity(csv, "paper_sp", mem.h, t, "", psp);
        pw_csv_quantity(csv, "dp_copy", mem.h, t, "", dp);
    }
    double a8 = tp_stash_bytes(&mem, 8, false), a1 = tp_stash_bytes(&mem, 1, false);
    if (mem.heads % 8 == 0)
        printf("answer: at t = 8 a device holds 1/8 of the weights, but %.2f of the activations with TP alone (the layer\n"
               "  norms' inputs and outputs stay whole on every rank) and %.3f with TP+SP\n", a8 / a1,
               tp_stash_bytes(&mem, 8, true) / a1);
    else
        printf("answer: not shown on this run: %d heads do not split 8 ways\n", mem.heads);
    return pw_csv_close(csv);
}
