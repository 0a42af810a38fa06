/* common/timing.h: one honest way to time a piece of work.
 *
 * pw_bench() does what every measurement in the workbook needs:
 *   1. a cold call, timed on its own and reported apart (first touch of
 *      memory, cold caches, lazy page mapping: real, but not the steady state);
 *   2. warm-up calls, which also pick an inner count so that one sample lasts
 *      at least `min_sample_s` (a 30 ns kernel cannot be timed by a clock whose
 *      call costs 20 ns; we time k calls and divide);
 *   3. samples until BOTH `min_reps` samples and `min_time_s` seconds are
 *      reached (so quick kernels get many samples and slow ones at least a few);
 *   4. median, min, quartiles (IQR) and mean of the per-call times.
 *
 * Report the median: one bad sample (an interrupt, the other process) pulls
 * the mean but barely moves the median. The IQR (q3 - q1) is the spread.
 *
 *   pw_bench_config cfg = pw_bench_defaults();
 *   pw_bench_stats st;
 *   pw_bench(&cfg, run_square, &ctx, &st);
 *   printf("%.3f ms (IQR %.3f)\n", st.median * 1e3, (st.q3 - st.q1) * 1e3);
 */
#ifndef PW_TIMING_H
#define PW_TIMING_H

#include "options.h"

#define PW_MAX_SAMPLES 1000

typedef struct {
    int    min_reps;      /* at least this many samples (default 7) */
    double min_time_s;    /* and at least this much time sampling (default 0.05 s) */
    int    warmup;        /* warm-up calls before sampling (default 2) */
    double min_sample_s;  /* batch calls so one sample lasts this long (default 200 us); 0 = one call per sample */
    int    max_reps;      /* stop after this many samples even if min_time is not reached */
} pw_bench_config;

typedef struct {
    int    reps;                     /* samples taken */
    long   inner;                    /* calls per sample */
    double cold;                     /* the first call, alone, before any warm-up (s) */
    double median, min, max, mean;   /* per call, over the samples (s) */
    double q1, q3;                   /* 25th and 75th percentiles (s) */
    double samples[PW_MAX_SAMPLES];  /* per-call time of each sample, in order (s) */
} pw_bench_stats;

typedef void (*pw_work_fn)(void *ctx);

/* Monotonic wall clock in seconds. */
double pw_now(void);

/* Defaults, then PW_MIN_TIME / PW_MIN_REPS from the environment if set
 * (`make FULL=1` raises them). */
pw_bench_config pw_bench_defaults(void);

/* The defaults, adjusted by a program's common options: -r, --min-time, and
 * --tiny (3 samples, no minimum time: a smoke test, not a measurement). */
pw_bench_config pw_bench_from_opts(const pw_common_opts *opts);

/* Time fn(ctx) as described above; fills *st. */
void pw_bench(const pw_bench_config *cfg, pw_work_fn fn, void *ctx, pw_bench_stats *st);

/* Time the points of a sweep (1, 2, 4 threads; or a sequential baseline and
 * its parallel versions): point i is fns[i](ctxs[i]). Their samples are
 * interleaved, round after round one sample of each point, until every
 * point has its minimum count and time. A machine whose speed drifts over
 * seconds (clock boost, a neighbour, a virtual machine's host) then slows
 * every point alike, and the ratios between points, which is what a sweep
 * reports, stay honest. Each point gets its own cold call, warm-up and batch
 * size; st[i] is filled as pw_bench would.
 * Not for OpenMP points of different team sizes: libgomp ends the threads a
 * smaller team does not need and starts them again for a bigger one, so
 * taking turns would charge a thread start-up to every round of the parallel
 * points (pi at 4 threads: 12.5 ms in turns against 8.6 ms one after the
 * other). Threads made per call (pthreads, as chapters 03 and 05 do) are fine. */
void pw_bench_sweep(const pw_bench_config *cfg, const pw_work_fn *fns, void *const *ctxs, int count,
                    pw_bench_stats *st);

/* Summaries of any sample array (not modified). Quantiles interpolate
 * linearly between order statistics (the "type 7" rule of R and NumPy):
 * q(0.5) of {1,2,3,4} is 2.5. */
double pw_quantile(const double *x, int n, double q);
double pw_median(const double *x, int n);
double pw_mean(const double *x, int n);
void pw_summarize(const double *x, int n, pw_bench_stats *st);

/* Rates from counts the caller works out next to the kernel. */
static inline double pw_gflops(double flops, double seconds) { return flops / seconds * 1e-9; }
static inline double pw_gbs(double bytes, double seconds)    { return bytes / seconds * 1e-9; }

#endif
