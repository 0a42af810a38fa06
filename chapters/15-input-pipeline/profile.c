/* chapters/15-input-pipeline/profile.c: profile first. Where does a training
 * step's time go when the loop makes its own batches, and what does
 * prefetching on loader threads change?
 *
 *   ./build/ch15/profile                 60 steps, no prefetch, then cores - 1 loaders
 *   ./build/ch15/profile -L 2 --rounds 400
 *
 * Run 1, "no_prefetch": each step decodes and augments its batch (kernels/
 * loader.c), then computes the gradient and the update of the MLP
 * (kernels/mlp.c): load and compute take turns on one thread, so the step
 * is load + compute. Run 2, "prefetch": L loader threads make the batches
 * ahead into a bounded queue while the training thread computes; the step's
 * "load" is now only the time spent waiting at the queue. Ideally the step
 * becomes max(compute, load / L) (when L threads have L cores of their own).
 *
 * Checked before anything is printed: both runs see the same batches (a
 * fingerprint of each) and end with the same weights, bit for bit: the
 * loaders change when a batch is made, never what it holds.
 *
 * CSV: kind=event rows (a Gantt chart): variant no_prefetch / prefetch,
 * threads = 0 for the training thread (param "load" or "wait", "compute")
 * and 1.. for loader t - 1 (param "decode"), n = the batch, times from the
 * run's start. Summary rows, variant the run, param "step", "load" or
 * "compute": the mean per-step times over the steps after the first (the
 * first fills the pipeline).
 */
#include "check.h"
#include "loader.h"
#include "overlap.h"
#include "results.h"
#include "setup.h"
#include "timing.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { double load, compute, step; } split;

/* Means over steps 1..S-1 (step 0 waits for the first batch in every run).
 * Means, not medians: with a queue a slow step lets the loaders run ahead and
 * the next steps find their batches ready, so only the total over the steps
 * (the throughput) says what the pipeline gives; the median of a run with one
 * long stall would look faster than the loaders can possibly be. */
static split mean_split(const ld_step *st, int S)
{
    split m = { 0, 0, 0 };
    for (int i = 1; i < S; i++) {
        m.load += st[i].load_s / (S - 1);
        m.compute += st[i].compute_s / (S - 1);
    }
    m.step = m.load + m.compute;
    return m;
}

static void write_events(pw_csv *csv, const char *variant, const ld_step *st, int S, const ld_pool_stats *pool,
                         const char *load_name)
{
    for (int k = 0; k < S; k++) {
        pw_csv_event(csv, variant, k, 0, load_name, st[k].start_s, st[k].start_s + st[k].load_s, 0);
        pw_csv_event(csv, variant, k, 0, "compute", st[k].start_s + st[k].load_s,
                     st[k].start_s + st[k].load_s + st[k].compute_s, 0);
        if (pool) pw_csv_event(csv, variant, k, pool->made_by[k] + 1, "decode", pool->start[k], pool->end[k], 0);
    }
}

static void write_split(pw_csv *csv, const char *variant, int L, split m)
{
    pw_csv_value(csv, variant, 0, L, "load", m.load, 0, 0);
    pw_csv_value(csv, variant, 0, L, "compute", m.compute, 0, 0);
    pw_csv_value(csv, variant, 0, L, "step", m.step, 0, 0);
}

int main(int argc, char **argv)
{
    ch15_opts o = ch15_defaults();
    long long loaders = 0, show = 8;   /* loaders 0: not given, cores - 1 below */
    pw_opt opts[CH15_NOPTS + 2];
    ch15_opt_table(&o, opts);
    opts[CH15_NOPTS] = (pw_opt){ "-L", "--loaders", PW_OPT_INT, &loaders, "L", "loader threads of the prefetch run (default cores - 1, at least 1)", 1, 256 };
    opts[CH15_NOPTS + 1] = (pw_opt){ NULL, "--show", PW_OPT_INT, &show, "N", "steps printed one by one (default 8)", 1, 100000 };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "profile a training step: load against compute, without and with prefetching",
                     opts, CH15_NOPTS + 2, &common);
    /* One core for the training thread, the rest for loaders: as many as can
     * run beside it (exercise 15.1 asks how many are needed). */
    if (!loaders) loaders = pw_cores() > 2 ? pw_cores() - 1 : 1;
    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    ld_dataset ds;
    ch15_dataset(&o, &common, &ds);
    int S = (int)o.steps, L = (int)loaders;
    mlp_shape s = ds.c.s;
    size_t np = mlp_nparams(s);
    float *w0 = pw_alloc_floats(np), *w_sync = pw_alloc_floats(np), *w_pre = pw_alloc_floats(np);
    mlp_init(s, w0, 7);
    memcpy(w_sync, w0, np * sizeof(float));
    memcpy(w_pre, w0, np * sizeof(float));
    ld_step *st_sync = calloc((size_t)S, sizeof *st_sync), *st_pre = calloc((size_t)S, sizeof *st_pre);
    uint64_t *fp_sync = calloc((size_t)S, sizeof *fp_sync), *fp_pre = calloc((size_t)S, sizeof *fp_pre);
    ld_trace tr_sync = { st_sync, fp_sync, NULL, { 0 } }, tr_pre = { st_pre, fp_pre, NULL, { 0 } };

    int bad = ld_train(&ds, 0, 0, w_sync, (float)o.lr, &tr_sync);
    pw_overlap ov = { 0 };
    pw_overlap_mark mark = pw_overlap_begin();
    bad |= ld_train(&ds, L, (int)o.capacity, w_pre, (float)o.lr, &tr_pre);
    pw_overlap_end(&ov, mark);
    for (int k = 0; k < S && !bad; k++)
        if (fp_sync[k] != fp_pre[k]) {
            fprintf(stderr, "prefetch: batch %d differs from the one the loop made itself: the loaders are not deterministic\n", k);
            bad = 1;
        }
    /* Bit for bit: the same batches in the same order through the same
     * single-threaded arithmetic. Any difference is a bug, not rounding. */
    if (!bad) bad |= pw_check_floats("prefetch weights vs no prefetch", w_pre, w_sync, np, 0, 0);
    if (bad) {
        fprintf(stderr, "profile: a check failed: nothing is printed or written\n");
        return PW_EXIT_WRONG;
    }
    printf("input pipeline: MLP %d-%d-%d, batch %lld, %d steps; decode %lld rounds per word, noise %.3g, queue %lld\n",
           s.d, s.k, s.o, o.batch, S, o.rounds, o.noise, o.capacity);
    printf("all variants match: with %d loader%s the %d batches have the same fingerprints, in the same order, and the\n"
           "  weights are bit for bit those of the loop that loads its own batches\n", L, L > 1 ? "s" : "", S);
    printf("queue: %d batches made and %d taken, each once and in order; at most %d of the %lld slots held at once\n\n",
           tr_pre.pool.produced, tr_pre.pool.consumed, tr_pre.pool.max_held, o.capacity);

    printf("step   no prefetch: load  compute     step  |  prefetch, %d loader%s: wait  compute     step\n", L, L > 1 ? "s" : "");
    for (int k = 0; k < S && k < show; k++)
        printf("%4d   %15.3f ms %5.3f ms %5.3f ms  |  %22.3f ms %5.3f ms %5.3f ms\n", k, st_sync[k].load_s * 1e3,
               st_sync[k].compute_s * 1e3, (st_sync[k].load_s + st_sync[k].compute_s) * 1e3, st_pre[k].load_s * 1e3,
               st_pre[k].compute_s * 1e3, (st_pre[k].load_s + st_pre[k].compute_s) * 1e3);
    split a = mean_split(st_sync, S), b = mean_split(st_pre, S);
    printf("per step, the mean over steps 1..%d (the throughput):\n", S - 1);
    printf("  no_prefetch   load %.3f ms + compute %.3f ms = step %.3f ms: loading is %.0f%% of the step\n", a.load * 1e3,
           a.compute * 1e3, a.step * 1e3, 100 * a.load / a.step);
    printf("  prefetch      wait %.3f ms + compute %.3f ms = step %.3f ms: waiting is %.0f%% of the step\n", b.load * 1e3,
           b.compute * 1e3, b.step * 1e3, 100 * b.load / b.step);
    write_events(csv, "no_prefetch", st_sync, S, NULL, "load");
    write_events(csv, "prefetch", st_pre, S, &tr_pre.pool, "wait");
    write_split(csv, "no_prefetch", 0, a);
    write_split(csv, "prefetch", L, b);

    /* The answers, from this run. The best prefetching can do with L loaders
     * is max(compute, load / L) per step (L loaders on L free cores). */
    double bound = fmax(a.compute, a.load / L);
    printf("\nanswer: profile first: %s\n",
           a.load > a.compute ? "the loop spends more time loading than computing: it is input bound, and a\n"
                                "  faster model, or more devices, would not make it faster"
                              : "here the loop computes longer than it loads: it is compute bound already");
    printf("answer: prefetch with %d loader%s: %.3f -> %.3f ms per step (%.2fx); the best it could be is\n"
           "  max(compute, load / %d) = %.3f ms\n", L, L > 1 ? "s" : "", a.step * 1e3, b.step * 1e3, a.step / b.step, L,
           bound * 1e3);
    int cores = pw_cores();
    int threads = L + 1 < cores ? L + 1 : cores;
    /* Did the threads run side by side? A pipeline's threads are not all
     * busy all the time: the training thread waits for data, the loaders
     * for room. The most CPU the work allows at once is its total over the
     * best step, (load + compute) / max(compute, load / L), and at most
     * min(L + 1, cores): with this run's 0.16 ms load and 0.06 ms compute
     * and one loader, 1.39 cores. common/overlap.h's share assumes every
     * thread always busy (here 2 cores), which would call a perfect overlap
     * 39%; so the share is judged against what the work allows. */
    double c_got = pw_overlap_concurrency(&ov);
    double c_max = fmin((double)threads, (a.load + a.compute) / bound);
    double share = c_max > 1 ? fmin(1, fmax(0, (c_got - 1) / (c_max - 1))) : 0;
    if (c_max <= 1 || share < PW_OVERLAP_SUSPECT) {
        printf("suspect, prefetch (loaders and the training thread): they got %.2f cores' worth of CPU where the work\n"
               "  allows %.2f (%d threads on %d cores): they ran side by side for as little as %.0f%% of what they could\n",
               c_got, c_max, L + 1, cores, 100 * share);
        printf("  so this run could not show what prefetching gives: the loaders took turns with the training thread\n");
    } else if (b.step < 0.9 * a.step)
        printf("  the loaders ran beside the training thread (%d threads on %d cores, %.2f cores' worth of CPU of the\n"
               "  %.2f the work allows): loading is hidden %s\n", L + 1, cores, c_got, c_max,
               b.load < 0.1 * b.step ? "entirely: the loop is compute bound now" : "in part: the loop still waits");
    else
        printf("  could not show it: prefetching gained less than 10%% in this run (%d threads, %d cores)\n", threads, cores);
    free(st_sync); free(st_pre); free(fp_sync); free(fp_pre);
    ld_pool_stats_free(&tr_pre.pool);
    pw_free(w0); pw_free(w_sync); pw_free(w_pre);
    ld_dataset_free(&ds);
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
