/* chapters/01-measure/timing.c: how to time a loop honestly.
 *
 * Four things go wrong when you time code with two clock reads around one
 * call, and this program shows each with a number:
 *   1. the clock: its resolution and the cost of reading it, which is why a
 *      short kernel must be run many times per sample;
 *   2. the cold run: the first call on fresh memory pays for mapping every
 *      page (a page fault per 4 KiB) and for cold caches;
 *   3. noise: samples of the same work differ; the median resists outliers,
 *      the mean does not;
 *   4. a busy neighbour: the same loop while another thread streams memory
 *      on the other core, sharing the memory bandwidth.
 *
 *   ./build/ch01/timing                     16M floats in DRAM, 256 KiB in cache
 *   ./build/ch01/timing -n 4M -r 61 --csv timing.csv
 *
 * The CSV holds every sample (kind=sample, rep 0 = the cold call), which
 * plots/01-measure/timing_spread.gp draws.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "elementwise.h"
#include "errcheck.h"
#include "options.h"
#include "probe.h"
#include "results.h"
#include "timing.h"
#include "util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct { const float *x; float *y; size_t n; } square_ctx;
static void run_square(void *p) { square_ctx *c = p; square_loop(c->x, c->y, c->n); }

/* The neighbour: streams a 64 MiB buffer until told to stop. */
typedef struct { atomic_int stop; float *buf; size_t n; } neighbour;
static void *neighbour_main(void *p)
{
    neighbour *nb = p;
    while (!atomic_load_explicit(&nb->stop, memory_order_relaxed))
        for (size_t i = 0; i < nb->n; i++) nb->buf[i] = nb->buf[i] * 0.5f + 1.0f;
    return NULL;
}

static void print_stats(const char *label, const pw_bench_stats *st)
{
    printf("%-22s cold %9.1f us | median %9.1f  mean %9.1f  min %9.1f  max %9.1f us | IQR %5.1f%% | %d samples x %ld calls\n",
           label, st->cold * 1e6, st->median * 1e6, st->mean * 1e6, st->min * 1e6, st->max * 1e6,
           100 * (st->q3 - st->q1) / st->median, st->reps, st->inner);
}

/* Correct before fast: square on awkward sizes and on the sizes the series
 * will time, each on its own buffers (the timed ones must stay untouched
 * for their cold call). One multiply rounds the same as the double product
 * rounded to float, so the tolerance is zero. */
static int verify(size_t big, size_t small)
{
    const size_t sizes[] = { 1, 17, 4099, small, big };
    int bad = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        float *x = pw_alloc_floats(n), *y = pw_alloc_floats(n), *want = pw_alloc_floats(n);
        pw_fill_random(x, n, 42, -1.0f, 1.0f);
        square_loop(x, y, n);
        square_ref(x, want, n);
        char what[48];
        snprintf(what, sizeof what, "square n=%zu", n);
        bad |= pw_check_floats(what, y, want, n, 0, 0);
        pw_free(x); pw_free(y); pw_free(want);
    }
    return bad;
}

/* Time `reps` samples of square on fresh (never touched) buffers of n floats:
 * the cold call is the first touch of their pages. The result of the timed
 * calls is checked too; a wrong one ends the program before any of its
 * numbers is printed or written. */
static void series(const char *prog, const char *name, size_t n, const pw_bench_config *cfg,
                   pw_csv *csv, pw_bench_stats *st)
{
    float *x = pw_alloc_floats(n), *y = pw_alloc_floats(n), *want = pw_alloc_floats(n);
    /* x must hold data, so touch it; y is left untouched for the cold call. */
    pw_fill_random(x, n, 42, -1.0f, 1.0f);
    square_ctx ctx = { x, y, n };
    pw_bench(cfg, run_square, &ctx, st);
    square_ref(x, want, n);
    if (pw_check_floats(name, y, want, n, 0, 0)) {
        fprintf(stderr, "%s: square gave a wrong result in the timed run\n", prog);
        exit(PW_EXIT_WRONG);
    }
    pw_csv_samples(csv, name, (long long)n, 1, "", st, (double)n, 8.0 * (double)n);
    pw_csv_summary(csv, name, (long long)n, 1, "", st, (double)n, 8.0 * (double)n);
    pw_free(x); pw_free(y); pw_free(want);
}

int main(int argc, char **argv)
{
    pw_list sizes = PW_LIST(16777216, 65536);
    pw_opt opts[] = {
        { "-n", "--size", PW_OPT_SIZES, &sizes, "BIG[,SMALL]", "elements: a DRAM-sized and a cache-sized run (default 16M,64K)", 1, PW_SIZE_MAX },
    };
    pw_common_opts common;
    pw_parse_or_exit(argc, argv, "time one loop honestly: clock, cold run, noise, a busy neighbour",
                     opts, 1, &common);
    if (common.tiny) sizes = (pw_list)PW_LIST(4099, 1000);
    size_t big = (size_t)sizes.v[0], small = (size_t)(sizes.n > 1 ? sizes.v[1] : sizes.v[0]);
    /* x, y, want for one series, plus the neighbour's 16M floats. */
    pw_require_memory(common.prog, "-n", (long long)big, sizeof(float), 3 + 1);

    /* 1. The clock. */
    struct timespec res;
    clock_getres(CLOCK_MONOTONIC, &res);
    double t0 = pw_now(), t1 = t0, smallest = 1;
    for (int i = 0; i < 1000; i++) { t1 = pw_now(); }
    double per_read = (t1 - t0) / 1000;
    for (int i = 0; i < 100; i++) {          /* smallest nonzero step we can observe */
        double a = pw_now(), b;
        while ((b = pw_now()) == a) {}
        if (b - a < smallest) smallest = b - a;
    }
    printf("clock: CLOCK_MONOTONIC, resolution %ld ns, one read costs %.0f ns, smallest step seen %.0f ns\n",
           res.tv_nsec, per_read * 1e9, smallest * 1e9);
    printf("       so a sample must last far longer than that: small kernels are run many times per sample\n\n");

    if (verify(big, small)) {
        fprintf(stderr, "%s: square gave a wrong result; nothing was timed\n", common.prog);
        return PW_EXIT_WRONG;
    }
    printf("all variants match the reference (n = 1, 17, 4099, %zu, %zu)\n\n", small, big);

    pw_csv *csv = pw_csv_open(common.csv, argc, argv);
    pw_bench_config cfg = pw_bench_from_opts(&common);
    if (common.reps == 0 && !common.tiny) cfg.min_reps = 41;   /* enough samples to see their spread */
    cfg.max_reps = cfg.min_reps;     /* the same count in every series, so they plot side by side */
    pw_bench_stats quiet, st;

    /* 2 and 3: a DRAM-sized run, one call per sample so each sample is real. */
    pw_bench_config one = cfg;
    one.min_sample_s = 0;
    series(common.prog, "square_dram", big, &one, csv, &quiet);
    print_stats("square, DRAM-sized", &quiet);
    double cold = quiet.cold / quiet.median, skew = 100 * (quiet.mean - quiet.median) / quiet.median;
    char cold_answer[160];   /* the first half of step 3's answer, printed at the end */
    if (cold >= 1.5)
        snprintf(cold_answer, sizeof cold_answer, "the cold call took %.1fx the median", cold);
    else
        snprintf(cold_answer, sizeof cold_answer,
                 "not shown on this run: the cold call took only %.2fx the median (pages already mapped?)", cold);
    if (cold >= 1.5)
        printf("  the cold call took %.1fx the median: it paid for mapping %zu pages of y on first touch\n",
               cold, (big * sizeof(float) + 4095) / 4096);
    else
        printf("  the cold call took %.2fx the median: this run cannot show the first-touch cost (pages already mapped?)\n",
               cold);
    if (fabs(skew) < 2)
        printf("  mean - median = %+.1f%% of the median: no large outliers in this run\n\n", skew);
    else
        printf("  mean - median = %+.1f%% of the median: %s samples pulled the mean; the median is the\n"
               "  middle sample, and moves far less\n\n", skew, skew > 0 ? "slow" : "fast");

    /* A cache-sized run: one call is too short to time, so calls are batched. */
    series(common.prog, "square_cache", small, &cfg, csv, &st);
    print_stats("square, cache-sized", &st);
    printf("  one call is %.0f ns, about %.0f clock reads: timed in batches of %ld calls\n\n",
           st.median * 1e9, st.median / per_read, st.inner);

    /* 4. The same DRAM run while a neighbour thread streams memory, then
     * once more without it, to show how far two quiet runs already differ. */
    pw_hw hw;
    pw_probe_static(&hw);
    if (common.tiny)
        printf("answer: %s; the busy neighbour was not run (--tiny)\n", cold_answer);
    if (!common.tiny) {
        neighbour nb = { .n = 16u << 20 };
        nb.buf = pw_alloc_floats(nb.n);
        pw_fill_random(nb.buf, nb.n, 3, 0, 1);
        atomic_init(&nb.stop, 0);
        pthread_t tid;
        PW_CHECK_PTHREAD(pthread_create(&tid, NULL, neighbour_main, &nb));
        pw_bench_stats busy;
        series(common.prog, "square_neighbour", big, &one, csv, &busy);
        atomic_store(&nb.stop, 1);
        PW_CHECK_PTHREAD(pthread_join(tid, NULL));
        pw_free(nb.buf);
        print_stats("square, busy neighbour", &busy);
        series(common.prog, "square_dram_again", big, &one, csv, &st);
        print_stats("square, quiet again", &st);
        double with = busy.median / quiet.median, again = st.median / quiet.median;
        printf("  median with the neighbour: %.2fx the first quiet run; the second quiet run: %.2fx.\n",
               with, again);
        /* The neighbour shows only if it costs more than two quiet runs differ. */
        double drift = fabs(again - 1);
        if (with - 1 > 2 * drift + 0.05)
            printf("  The neighbour cost %.0f%%, two quiet runs differ by %.0f%%: the cores share the memory\n"
                   "  bandwidth. Measure on a quiet machine, and say what else ran.\n",
                   100 * (with - 1), 100 * drift);
        else
            printf("  This run cannot show the neighbour's cost: %+.0f%% is within twice the %.0f%% two quiet runs differ by.\n",
                   100 * (with - 1), 100 * drift);
        /* The answer's second half. On one core the neighbour takes turns on
         * the core itself, which says nothing about shared memory. */
        if (hw.logical_cores < 2)
            printf("answer: %s; the neighbour: not shown on this run: one core, so the neighbour took turns on it"
                   " (%.2fx) instead of sharing the memory\n", cold_answer, with);
        else if (with - 1 > 2 * drift + 0.05)
            printf("answer: %s; with a busy neighbour the median was %.2fx the quiet run's (a second quiet run: %.2fx)\n",
                   cold_answer, with, again);
        else
            printf("answer: %s; the neighbour: not shown on this run: %.2fx is within twice the drift of two quiet runs (%.2fx)\n",
                   cold_answer, with, again);
    }
    return pw_csv_close(csv) ? PW_EXIT_WRONG : PW_EXIT_PASS;
}
