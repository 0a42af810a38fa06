/* tests/test_timing.c: the statistics are the textbook ones, and pw_bench
 * honours its minimums, batches short calls and keeps the cold call apart. */
#include "timing.h"
#include "unit.h"

#include <math.h>
#include <string.h>

static void test_quantiles(void)
{
    double x[] = { 4, 1, 3, 2 };
    double copy[4];
    memcpy(copy, x, sizeof x);
    EXPECT(pw_median(x, 4) == 2.5, "median of {4,1,3,2} is 2.5, got %g", pw_median(x, 4));
    EXPECT(pw_quantile(x, 4, 0.25) == 1.75, "q1 (type 7) is 1.75, got %g", pw_quantile(x, 4, 0.25));
    EXPECT(pw_quantile(x, 4, 0.75) == 3.25, "q3 (type 7) is 3.25, got %g", pw_quantile(x, 4, 0.75));
    EXPECT(pw_quantile(x, 4, 0) == 1 && pw_quantile(x, 4, 1) == 4, "q(0) and q(1) are min and max");
    EXPECT(!memcmp(x, copy, sizeof x), "the input is not reordered");
    double odd[] = { 9, 1, 5 };
    EXPECT(pw_median(odd, 3) == 5, "median of {9,1,5} is 5");
    double one[] = { 7 };
    EXPECT(pw_median(one, 1) == 7 && pw_quantile(one, 1, 0.25) == 7, "one sample is its own summary");
    EXPECT(isnan(pw_median(x, 0)), "no samples: NaN");
    EXPECT(pw_mean(x, 4) == 2.5, "mean of {4,1,3,2} is 2.5");
}

static void test_median_resists_outlier(void)
{
    double x[11];
    for (int i = 0; i < 11; i++) x[i] = 1.0;
    x[0] = 100.0;                       /* one cold or interrupted sample */
    pw_bench_stats st;
    pw_summarize(x, 11, &st);
    EXPECT(st.median == 1.0, "the median ignores one outlier, got %g", st.median);
    EXPECT(st.mean == 10.0, "the mean does not: (100 + 10) / 11 = 10, got %g", st.mean);
    EXPECT(st.q1 == 1.0 && st.q3 == 1.0, "the IQR ignores it too");
}

static long calls;
static void count_call(void *ctx) { (void)ctx; calls++; }

static void spin_100us(void *ctx)
{
    (void)ctx;
    double t0 = pw_now();
    while (pw_now() - t0 < 100e-6) {}
}

static void test_bench_minimums(void)
{
    pw_bench_config cfg = { .min_reps = 9, .min_time_s = 0.02, .warmup = 2, .min_sample_s = 0, .max_reps = 1000 };
    pw_bench_stats st;
    pw_bench(&cfg, spin_100us, NULL, &st);
    EXPECT(st.reps >= 9, "at least min_reps samples, got %d", st.reps);
    double spent = 0;
    for (int i = 0; i < st.reps; i++) spent += st.samples[i];
    EXPECT(spent >= 0.02, "at least min_time of samples, got %g s", spent);
    EXPECT(st.inner == 1, "min_sample_s = 0 means one call per sample");
    EXPECT(st.median >= 100e-6 && st.median < 10e-3, "a 100 us spin measures at least 100 us, got %g", st.median);
    EXPECT(st.min <= st.q1 && st.q1 <= st.median && st.median <= st.q3 && st.q3 <= st.max, "ordered summary");
    EXPECT(st.cold > 0, "the cold call is timed");
}

static void test_bench_batches_short_calls(void)
{
    pw_bench_config cfg = pw_bench_defaults();
    cfg.min_time_s = 0.01;
    calls = 0;
    pw_bench_stats st;
    pw_bench(&cfg, count_call, NULL, &st);
    EXPECT(st.inner > 100, "a trivial call is batched (inner %ld)", st.inner);
    EXPECT(st.median * (double)st.inner * 5 >= cfg.min_sample_s, "a batch lasts about min_sample_s");
    EXPECT(calls >= (long)st.reps * st.inner, "every sample ran inner calls (%ld calls)", calls);
}

static int order[4096], norder;
static void log_call(void *ctx)
{
    if (norder < 4096) order[norder++] = (int)(size_t)ctx;
    double t0 = pw_now();
    while (pw_now() - t0 < 20e-6) {}
}

static void test_sweep_interleaves(void)
{
    pw_bench_config cfg = { .min_reps = 5, .min_time_s = 0, .warmup = 1, .min_sample_s = 0, .max_reps = 1000 };
    void *ctxs[3] = { (void *)1, (void *)2, (void *)3 };
    pw_bench_stats st[3];
    norder = 0;
    pw_work_fn fns[3] = { log_call, log_call, log_call };
    pw_bench_sweep(&cfg, fns, ctxs, 3, st);
    /* cold + 1 warm-up per point first, then rounds of 1, 2, 3 */
    int want[] = { 1, 1, 2, 2, 3, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3 };
    EXPECT(norder == 21, "3 x (cold + warm-up + 5 samples) = 21 calls, got %d", norder);
    EXPECT(norder == 21 && !memcmp(order, want, sizeof want), "samples interleave point by point");
    for (int i = 0; i < 3; i++)
        EXPECT(st[i].reps == 5 && st[i].median >= 20e-6 && st[i].cold > 0, "point %d: 5 samples of >= 20 us", i);
}

static void test_bench_from_opts(void)
{
    pw_common_opts o = { .reps = 25, .min_time = 0.3 };
    pw_bench_config c = pw_bench_from_opts(&o);
    EXPECT(c.min_reps == 25 && c.min_time_s == 0.3, "-r and --min-time override the defaults");
    pw_common_opts tiny = { .tiny = true };
    c = pw_bench_from_opts(&tiny);
    EXPECT(c.min_reps == 3 && c.min_time_s == 0, "--tiny runs three samples");
}

static void test_rates(void)
{
    EXPECT(fabs(pw_gflops(2e9, 0.5) - 4.0) < 1e-12, "2e9 flops in 0.5 s is 4 GFLOP/s");
    EXPECT(fabs(pw_gbs(8e9, 2.0) - 4.0) < 1e-12, "8e9 bytes in 2 s is 4 GB/s");
}

int main(void)
{
    RUN(test_quantiles);
    RUN(test_median_resists_outlier);
    RUN(test_bench_minimums);
    RUN(test_bench_batches_short_calls);
    RUN(test_sweep_interleaves);
    RUN(test_bench_from_opts);
    RUN(test_rates);
    return UNIT_RESULT();
}
