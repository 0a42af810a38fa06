/* common/timing.c: warm-up, adaptive batching, repeats, robust statistics. */
#define _POSIX_C_SOURCE 200809L
#include "timing.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double pw_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double env_double(const char *name, double fallback)
{
    const char *s = getenv(name);
    if (!s || !*s) return fallback;
    char *end;
    double v = strtod(s, &end);
    return (*end == '\0' && v > 0 && isfinite(v)) ? v : fallback;
}

pw_bench_config pw_bench_defaults(void)
{
    pw_bench_config c = {
        .min_reps = (int)env_double("PW_MIN_REPS", 7),
        .min_time_s = env_double("PW_MIN_TIME", 0.05),
        .warmup = 2,
        .min_sample_s = 200e-6,
        .max_reps = PW_MAX_SAMPLES,
    };
    return c;
}

pw_bench_config pw_bench_from_opts(const pw_common_opts *opts)
{
    pw_bench_config c = pw_bench_defaults();
    if (opts->reps > 0) c.min_reps = opts->reps;
    if (opts->min_time > 0) c.min_time_s = opts->min_time;
    if (opts->tiny) {
        c.min_reps = 3;
        c.min_time_s = 0;
        c.warmup = 1;
        c.min_sample_s = 0;
    }
    return c;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double pw_quantile(const double *x, int n, double q)
{
    if (n <= 0) return NAN;
    double *s = malloc((size_t)n * sizeof *s);
    if (!s) return NAN;
    memcpy(s, x, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    double pos = q * (n - 1);             /* type 7: position in 0..n-1 */
    int lo = (int)floor(pos);
    int hi = lo + 1 < n ? lo + 1 : lo;
    double v = s[lo] + (pos - lo) * (s[hi] - s[lo]);
    free(s);
    return v;
}

double pw_median(const double *x, int n) { return pw_quantile(x, n, 0.5); }

double pw_mean(const double *x, int n)
{
    double sum = 0;
    for (int i = 0; i < n; i++) sum += x[i];
    return n > 0 ? sum / n : NAN;
}

void pw_summarize(const double *x, int n, pw_bench_stats *st)
{
    st->median = pw_quantile(x, n, 0.5);
    st->q1 = pw_quantile(x, n, 0.25);
    st->q3 = pw_quantile(x, n, 0.75);
    st->min = pw_quantile(x, n, 0.0);
    st->max = pw_quantile(x, n, 1.0);
    st->mean = pw_mean(x, n);
}

/* Seconds for `inner` back-to-back calls. */
static double time_calls(pw_work_fn fn, void *ctx, long inner)
{
    double t0 = pw_now();
    for (long i = 0; i < inner; i++) fn(ctx);
    return pw_now() - t0;
}

/* The cold call, then warm-up calls that also pick the batch size: enough
 * calls per sample that one sample lasts min_sample_s. Returns the batch. */
static long cold_and_warm(const pw_bench_config *cfg, pw_work_fn fn, void *ctx, pw_bench_stats *st)
{
    memset(st, 0, sizeof *st);
    st->cold = time_calls(fn, ctx, 1);
    long inner = 1;
    for (int w = 0; w < cfg->warmup || (cfg->min_sample_s > 0 && inner < (1L << 30)); w++) {
        double t = time_calls(fn, ctx, inner);
        if (w + 1 >= cfg->warmup && t >= cfg->min_sample_s) break;
        if (t < cfg->min_sample_s) {
            /* Jump close to the target rather than doubling 20 times. */
            double grow = t > 0 ? cfg->min_sample_s / t : 1024;
            inner = (long)((double)inner * (grow > 2 ? (grow < 1024 ? grow : 1024) : 2)) + 1;
        }
    }
    st->inner = inner;
    return inner;
}

static int max_reps_of(const pw_bench_config *cfg)
{
    return cfg->max_reps > 0 && cfg->max_reps < PW_MAX_SAMPLES ? cfg->max_reps : PW_MAX_SAMPLES;
}

/* True while a point still needs samples: below its count or its time. */
static bool wants_more(const pw_bench_config *cfg, const pw_bench_stats *st, double spent)
{
    int min_reps = cfg->min_reps < 1 ? 1 : cfg->min_reps;
    return st->reps < max_reps_of(cfg) && (st->reps < min_reps || spent < cfg->min_time_s);
}

static double take_sample(pw_work_fn fn, void *ctx, pw_bench_stats *st)
{
    double t = time_calls(fn, ctx, st->inner);
    st->samples[st->reps++] = t / (double)st->inner;
    return t;
}

void pw_bench(const pw_bench_config *cfg, pw_work_fn fn, void *ctx, pw_bench_stats *st)
{
    cold_and_warm(cfg, fn, ctx, st);
    double spent = 0;
    while (wants_more(cfg, st, spent)) spent += take_sample(fn, ctx, st);
    pw_summarize(st->samples, st->reps, st);
}

void pw_bench_sweep(const pw_bench_config *cfg, const pw_work_fn *fns, void *const *ctxs, int count,
                    pw_bench_stats *st)
{
    double spent[PW_MAX_SAMPLES];
    if (count > PW_MAX_SAMPLES) count = PW_MAX_SAMPLES;
    for (int i = 0; i < count; i++) { cold_and_warm(cfg, fns[i], ctxs[i], &st[i]); spent[i] = 0; }
    for (bool more = true; more;) {
        more = false;
        for (int i = 0; i < count; i++) {
            if (!wants_more(cfg, &st[i], spent[i])) continue;
            spent[i] += take_sample(fns[i], ctxs[i], &st[i]);
            more = true;
        }
    }
    for (int i = 0; i < count; i++) pw_summarize(st[i].samples, st[i].reps, &st[i]);
}
