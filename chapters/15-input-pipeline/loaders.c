/* chapters/15-input-pipeline/loaders.c: how many loader threads does the
 * loop need, and where do more stop helping?
 *
 *   ./build/ch15/loaders                  loaders 1, 2, ... cores, 2 x cores
 *   ./build/ch15/loaders -t 1,2,3,4,8 --rounds 400
 *
 * The same training run (kernels/loader.c: ld_train) with 1, 2, ... loader
 * threads prefetching into a bounded queue, against the loop that loads its
 * own batches (the baseline of the speedups). Every run is checked first:
 * the same batches in the same order (fingerprints) and the same weights,
 * bit for bit, as the baseline, whatever the number of loaders.
 *
 * What to expect (theory): the step is about max(compute, load / L) while L
 * loaders have cores of their own beside the training thread; once
 * load / L < compute the loop is compute bound and more loaders change
 * nothing; past the cores they only take turns (and the training thread
 * loses its core to them). The sweep goes through common/scaling.h (speedup,
 * efficiency, Karp-Flatt, the Amdahl fit); a point whose threads did not run
 * at the same time is marked suspect (common/overlap.h).
 *
 * CSV: the scaling rows of common/scaling.h (variant "prefetch", threads =
 * loaders, n = steps; the training thread runs beside them, so L loaders are
 * L + 1 threads, and the overlap column judges the loaders' L), plus quantity
 * rows, variant "split": param "wait" and "compute", the mean per-step
 * seconds at each loader count (threads).
 */
#include "loader.h"
#include "overlap.h"
#include "results.h"
#include "scaling.h"
#include "setup.h"
#include "timing.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const ld_dataset *ds;
    int loaders, capacity;
    float lr;
    const float *w0, *w_ref;        /* start, and the baseline's end */
    const uint64_t *fp_ref;         /* the baseline's fingerprints */
    float *w;
    uint64_t *fp;
    ld_step *st;
    double wait_sum, compute_sum;   /* over every timed and untimed call */
    long calls;
    int bad;
    pw_overlap ov;
} point;

/* One whole training run, checked against the baseline (pw_bench calls it). */
static void run_point(void *arg)
{
    point *p = arg;
    const ld_dataset *ds = p->ds;
    size_t np = mlp_nparams(ds->c.s);
    memcpy(p->w, p->w0, np * sizeof(float));
    ld_trace tr = { p->st, p->fp, NULL, { 0 } };
    pw_overlap_mark m = pw_overlap_begin();
    int bad = ld_train(ds, p->loaders, p->capacity, p->w, p->lr, &tr);
    pw_overlap_end(&p->ov, m);
    if (p->loaders > 0) ld_pool_stats_free(&tr.pool);
    if (p->w_ref) {
        bad |= memcmp(p->w, p->w_ref, np * sizeof(float)) != 0;
        bad |= memcmp(p->fp, p->fp_ref, (size_t)ds->c.batches * sizeof(uint64_t)) != 0;
    }
    p->bad |= bad;
    for (int k = 1; k < ds->c.batches; k++) {
        p->wait_sum += p->st[k].load_s;
        p->compute_sum += p->st[k].compute_s;
    }
    p->calls++;
}

int main(int argc, char **argv)
{
    ch15_opts o = ch15_defaults();
    pw_list threads = { .n = 0 };
    pw_opt opts[CH15_NOPTS + 1];
    ch15_opt_table(&o, opts);
    opts[CH15_NOPTS] = (pw_opt){ "-t", "--loaders", PW_OPT_SIZES, &threads, "L[,L...]",
                                 "loader counts (default 1..cores, then 2 x cores; THREADS=...)", 1, PW_MAX_THREADS };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "sweep the loader threads of a prefetching input pipeline", opts, CH15_NOPTS + 1, &common);
    if (!threads.n) pw_default_threads(&threads, common.prog);
    if (threads.n + 1 > PW_MAX_LIST) {
        fprintf(stderr, "%s: -t: at most %d loader counts\n", common.prog, PW_MAX_LIST - 1);
        return PW_EXIT_USAGE;
    }
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    ld_dataset ds;
    ch15_dataset(&o, &common, &ds);
    int S = (int)o.steps, n = threads.n, cores = pw_cores();
    size_t np = mlp_nparams(ds.c.s);
    float *w0 = pw_alloc_floats(np);
    mlp_init(ds.c.s, w0, 7);

    /* Point 0: the baseline, no loader threads. Its weights and fingerprints
     * are what every other point must reproduce. */
    point *pts = calloc((size_t)n + 1, sizeof *pts);
    for (int i = 0; i <= n; i++) {
        pts[i] = (point){ .ds = &ds, .loaders = i ? (int)threads.v[i - 1] : 0, .capacity = (int)o.capacity,
                          .lr = (float)o.lr, .w0 = w0 };
        pts[i].w = pw_alloc_floats(np);
        pts[i].fp = calloc((size_t)S, sizeof(uint64_t));
        pts[i].st = calloc((size_t)S, sizeof(ld_step));
    }
    run_point(&pts[0]);
    for (int i = 1; i <= n; i++) {
        pts[i].w_ref = pts[0].w;
        pts[i].fp_ref = pts[0].fp;
        run_point(&pts[i]);   /* checked once before any timing */
    }
    int bad = 0;
    for (int i = 1; i <= n; i++)
        if (pts[i].bad) {
            fprintf(stderr, "%s: %d loaders: the batches or the weights differ from the loop without loaders\n",
                    common.prog, pts[i].loaders);
            bad = 1;
        }
    if (bad) return PW_EXIT_WRONG;
    printf("input pipeline: MLP 16-64-4, batch %lld, %d steps; decode %lld rounds per word; queue %lld; %d cores\n",
           o.batch, S, o.rounds, o.capacity, cores);
    printf("all variants match: loaders ");
    for (int i = 0; i < n; i++) printf("%s%lld", i ? ", " : "", threads.v[i]);
    printf(" give the same %d batches in the same order and the same weights, bit for bit, as no loader\n\n", S);

    /* Timed: every point's samples interleaved (pw_bench_sweep); the sums
     * start again, so they cover the timed calls (and their warm-ups) only. */
    for (int i = 0; i <= n; i++) {
        pts[i].wait_sum = pts[i].compute_sum = 0;
        pts[i].calls = 0;
        pts[i].ov = (pw_overlap){ 0 };
    }
    pw_bench_config cfg = pw_bench_from_opts(&common);
    cfg.min_sample_s = 0;   /* one whole run per sample */
    pw_work_fn fns[PW_MAX_LIST];
    void *ctxs[PW_MAX_LIST];
    pw_bench_stats *st = calloc((size_t)n + 1, sizeof *st);
    for (int i = 0; i <= n; i++) { fns[i] = run_point; ctxs[i] = &pts[i]; }
    pw_bench_sweep(&cfg, fns, ctxs, n + 1, st);
    for (int i = 1; i <= n; i++) bad |= pts[i].bad;
    if (bad) {
        fprintf(stderr, "%s: a timed run's batches or weights differed from the baseline's\n", common.prog);
        return PW_EXIT_WRONG;
    }
    double per = 1.0 / (S - 1);
    double base_wait = pts[0].wait_sum / pts[0].calls * per, base_comp = pts[0].compute_sum / pts[0].calls * per;
    printf("no loaders (the loop loads): %.3f ms per run, per step load %.3f ms + compute %.3f ms\n\n", st[0].median * 1e3,
           base_wait * 1e3, base_comp * 1e3);

    pw_scaling_point sp[PW_MAX_LIST];
    pw_overlap ov[PW_MAX_LIST];
    for (int i = 0; i < n; i++) {
        sp[i] = (pw_scaling_point){ pts[i + 1].loaders, st[i + 1] };
        ov[i] = pts[i + 1].ov;
    }
    double flops = mlp_flops_per_sample(ds.c.s) * (double)o.batch * S;
    pw_scaling_fit fit = pw_scaling_report_overlap(csv, "prefetch", S, "loaders", st[0].median, sp, n, flops, 0, cores, ov);

    printf("\nloaders   wait/step  compute/step  bound max(compute, load/L)  waiting\n");
    double wait[PW_MAX_LIST];
    for (int i = 0; i < n; i++) {
        point *p = &pts[i + 1];
        wait[i] = p->wait_sum / p->calls * per;
        double comp = p->compute_sum / p->calls * per, bound = fmax(base_comp, base_wait / p->loaders);
        printf("%7d   %6.3f ms   %8.3f ms   %20.3f ms       %3.0f%%\n", p->loaders, wait[i] * 1e3, comp * 1e3, bound * 1e3,
               100 * wait[i] / (wait[i] + comp));
        pw_csv_quantity(csv, "split", S, p->loaders, "wait", wait[i]);
        pw_csv_quantity(csv, "split", S, p->loaders, "compute", comp);
    }

    /* The answers, from this run's numbers. */
    int best = 0, stop = -1, bound_at = -1;
    for (int i = 0; i < n; i++) if (st[i + 1].median < st[best + 1].median) best = i;
    for (int i = 0; i < n; i++)
        if (bound_at < 0 && wait[i] < 0.1 * (wait[i] + pts[i + 1].compute_sum / pts[i + 1].calls * per)) bound_at = i;
    /* Where more loaders stop helping: the first count within 5% of the
     * fastest run (5%: about the spread of one point on a quiet machine). */
    for (int i = 0; i < n && stop < 0; i++)
        if (st[i + 1].median <= 1.05 * st[best + 1].median) stop = i;
    printf("\nanswer: the fastest run had %d loader%s: %.2fx the loop without loaders", pts[best + 1].loaders,
           pts[best + 1].loaders > 1 ? "s" : "", fit.speedup[best]);
    {   /* a tie: other loader counts within the noise of the fastest */
        double med[PW_MAX_LIST];
        int tie[PW_MAX_LIST], m = n < PW_MAX_LIST ? n : PW_MAX_LIST;
        for (int i = 0; i < m; i++) med[i] = st[i + 1].median;
        int nt = pw_ties(med, m, best, PW_TIE_SHARE, tie);
        for (int k = 0; k < nt; k++) printf("%s%d", k ? ", " : "; a tie, within 5%, with ", pts[tie[k] + 1].loaders);
        printf("\n");
    }
    if (bound_at >= 0)
        printf("answer: with %d loader%s the loop first waits less than 10%% of its step: it is compute bound there\n",
               pts[bound_at + 1].loaders, pts[bound_at + 1].loaders > 1 ? "s" : "");
    else {
        /* "at best": the smallest share in the table's waiting column */
        double least = 1;
        for (int i = 0; i < n; i++) {
            double comp = pts[i + 1].compute_sum / pts[i + 1].calls * per;
            least = fmin(least, wait[i] / (wait[i] + comp));
        }
        printf("answer: no loader count made the loop compute bound here: it still waits %.0f%% of the step at best\n",
               100 * least);
    }
    if (stop < n - 1)
        printf("answer: more loaders stopped helping at %d: it came within 5%% of the fastest run; this machine has\n"
               "  %d cores, one of them busy with the training thread\n", pts[stop + 1].loaders, cores);
    else
        printf("answer: the most loaders tried (%d) were the fastest by 5%% or more: more may still help\n", pts[n].loaders);
    if (fit.suspect)
        printf("  could not show it on every point: %d point%s ran with threads taking turns (suspect above)\n", fit.suspect,
               fit.suspect > 1 ? "s" : "");
    for (int i = 0; i <= n; i++) { pw_free(pts[i].w); free(pts[i].fp); free(pts[i].st); }
    free(pts); free(st); pw_free(w0);
    ld_dataset_free(&ds);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
