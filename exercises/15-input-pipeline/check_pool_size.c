/* exercises/15-input-pipeline/check_pool_size.c: the checker of exercise 15.1.
 *
 * Built with your exercises/15-input-pipeline/pool_size.c by `make ex-15.1`,
 * or with the solution by `make solution-15.1`. What it tries:
 *   1. fixed cases with exact answers: loading faster than compute (1),
 *      exact multiples (2), a fraction that must round up (2.5 -> 3, 3.2 ->
 *      4), just past and just short of an integer (2.0005 -> 3, 1.9995 -> 2),
 *      the core cap (10x slower loading on 4 cores -> 3, on 2 -> 1, on 1
 *      -> 1), a huge machine;
 *   2. a measurement of this run: the checker times making a batch
 *      (kernels/loader.c, the chapter's default work) and training on it
 *      (kernels/mlp.c), medians of 15 batches, asks loaders_needed() with
 *      those numbers and this machine's cores, and compares with the rule
 *      applied to the same numbers. Then, for information, it runs the
 *      chapter's training loop with your L and prints how much of the step
 *      was still waiting (on a busy machine it says it could not show it).
 * Last line "PASS: ..." and exit 0, or exit 1.
 */
#include "exercise.h"
#include "loader.h"
#include "mlp.h"
#include "overlap.h"
#include "pool_size.h"
#include "timing.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The rule, written differently from the solution: count up. */
static int want(double load_s, double compute_s, int cores)
{
    int cap = cores - 1 < 1 ? 1 : cores - 1, L = 1;
    while (L < cap && (double)L * compute_s < load_s) L++;
    return L;
}

static int check_case(double load_s, double compute_s, int cores, const char *why)
{
    int w = want(load_s, compute_s, cores);
    /* %.6g: a case 0.05% past an integer (2.0005) must print as itself, not as 2. */
    printf("  load %.6g s, compute %.6g s, %d cores  ", load_s, compute_s, cores);
    int got = loaders_needed(load_s, compute_s, cores);
    if (got != w) {
        pw_ex_fail("loaders_needed(load %.6g s, compute %.6g s, %d cores) = %d, want %d", load_s, compute_s, cores, got, w);
        printf("  %s\n", why);
        return 1;
    }
    printf("ok (%d)\n", got);
    return 0;
}

int main(int argc, char **argv)
{
    pw_ex_begin(argc, argv);
    printf("1. fixed cases\n");
    struct { double l, c; int cores; const char *why; } cases[] = {
        { 0.5, 1.0, 8, "loading is faster than compute: one loader keeps up" },
        { 2.0, 1.0, 8, "two loaders make two batches per 2 s: one per second, as fast as compute" },
        { 2.5, 1.0, 8, "2 loaders make a batch every 1.25 s, slower than compute: it takes 3 (round up)" },
        { 3.2, 1.0, 16, "3 loaders make a batch every 1.07 s, slower than compute: it takes 4 (round up)" },
        /* Near an integer: an answer that rounds up only past some tolerance
         * (ceil(r - 1e-3)) or always adds one (floor(r) + 1) is caught here;
         * 2.0005 is 5e-4 past 2, far more than a double's rounding (1e-16). */
        { 2.0005, 1.0, 8, "2 loaders make a batch every 1.00025 s, slower than compute however little: it takes 3 (round up any excess)" },
        { 1.9995, 1.0, 8, "2 loaders make a batch every 0.99975 s, faster than compute: 2 are enough" },
        { 10.0, 1.0, 4, "10 loaders would keep up, but 4 cores leave 3 beside the training thread" },
        { 10.0, 1.0, 2, "2 cores leave 1 core beside the training thread" },
        { 10.0, 1.0, 1, "one core: still one loader (it prefetches while the other waits)" },
        { 0.001, 0.25, 1, "loading is faster than compute: one loader keeps up" },
        { 37.5, 0.5, 256, "37.5 / 0.5 = 75 loaders" },
        { 0.875, 0.125, 64, "7 loaders (0.875 s of loading over 0.125 s of compute)" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (check_case(cases[i].l, cases[i].c, cases[i].cores, cases[i].why)) return 1;

    printf("2. this machine: measure a batch's load and compute\n");
    mlp_shape s = { 16, 64, 4 };
    ld_config c = { s, 64, 15, 2024, 40, 0.05f };
    ld_dataset ds;
    ld_dataset_init(&ds, &c);
    size_t np = mlp_nparams(s);
    float *x = pw_alloc_floats(64 * 16), *y = pw_alloc_floats(64 * 4), *w = pw_alloc_floats(np), *g = pw_alloc_floats(np);
    float *scr = pw_alloc_floats(68);
    mlp_init(s, w, 7);
    double tl[15], tc[15];
    for (int k = 0; k < 15; k++) {
        double t0 = pw_now();
        ld_make_batch(&ds, k, x, y);
        double t1 = pw_now();
        mlp_grad_sum(s, w, x, y, 64, g, scr);
        mlp_sgd(w, g, np, 0.05f, 64);
        tc[k] = pw_now() - t1;
        tl[k] = t1 - t0;
    }
    double load = pw_quantile(tl, 15, 0.5), comp = pw_quantile(tc, 15, 0.5);
    int cores = pw_cores();
    if (check_case(load, comp, cores, "the same rule, on this run's measured numbers")) return 1;
    int L = loaders_needed(load, comp, cores);
    mlp_init(s, w, 7);
    ld_step st[15];
    ld_trace tr = { st, NULL, NULL, { 0 } };
    pw_overlap ov = { 0 };
    pw_overlap_mark m = pw_overlap_begin();
    int bad = ld_train(&ds, L, 4, w, 0.05f, &tr);
    pw_overlap_end(&ov, m);
    ld_pool_stats_free(&tr.pool);
    double wait = 0, all = 0;
    for (int k = 1; k < 15; k++) { wait += st[k].load_s; all += st[k].load_s + st[k].compute_s; }
    printf("  for information: with your %d loader%s the loop waited %.0f%% of its steps (load %.3f ms, compute %.3f ms)\n",
           L, L > 1 ? "s" : "", 100 * wait / all, load * 1e3, comp * 1e3);
    if (pw_overlap_suspect(&ov, L + 1, cores))
        printf("  (could not show it: the loaders and the training thread took turns on a busy machine)\n");
    pw_free(x); pw_free(y); pw_free(w); pw_free(g); pw_free(scr);
    ld_dataset_free(&ds);
    if (bad) { pw_ex_fail("the loader pool itself failed (not your code): rerun"); return 1; }
    return pw_ex_pass("the loader pool sized by the rule, and on this machine's measurement (%d loader%s)", L, L > 1 ? "s" : "");
}
