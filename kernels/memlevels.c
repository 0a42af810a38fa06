/* kernels/memlevels.c: bandwidth by working-set size, latency by pointer
 * chasing, and the clock to turn nanoseconds into cycles (memlevels.h). */
#include "memlevels.h"
#include "omp_info.h"
#include "timing.h"
#include "util.h"

#include <stdlib.h>

#ifdef _OPENMP
#include <omp.h>
#define TEAM_SIZE() omp_get_num_threads()
#else
#define TEAM_SIZE() 1
#endif

#define ACC 32   /* partial sums: 4 zmm or 8 ymm registers of doubles */

double memlevels_sum(const double *x, long n)
{
    double acc[ACC] = { 0 };
    long i = 0;
    /* The inner loop over k is what the compiler vectorises: ACC independent
     * chains, each element added to its own (i mod ACC) partial sum. */
    for (; i + ACC <= n; i += ACC)
        for (int k = 0; k < ACC; k++) acc[k] += x[i + k];
    for (; i < n; i++) acc[0] += x[i];
    double s = 0;
    for (int k = 0; k < ACC; k++) s += acc[k];
    return s;
}

double memlevels_sum_ref(const double *x, long n)
{
    double s = 0;
    for (long i = 0; i < n; i++) s += x[i];
    return s;
}

double memlevels_bw_gbs(long bytes, int threads)
{
    if (bytes < 64 || threads < 1) return 0;
    long n = bytes / (long)sizeof(double);
    /* Passes per sample: about 4 MB read per thread, so a sample of an L1-sized
     * buffer lasts tens of microseconds, far above the clock's resolution. */
    long passes = 4000000 / (n * (long)sizeof(double)) + 1;
    double best = 0;
    #pragma omp parallel num_threads(threads)
    {
        int team = TEAM_SIZE();          /* 1 without OpenMP, whatever was asked */
        double *x = pw_alloc_doubles((size_t)n);
        for (long i = 0; i < n; i++) x[i] = 1.0;
        double s = 0;
        for (int sample = 0; sample < 7; sample++) {
            #pragma omp barrier
            double t0 = pw_now();
            for (long p = 0; p < passes; p++) {
                s += memlevels_sum(x, n);
                /* "memory may have changed": without it the compiler sees the
                 * same sum of the same array and computes it once. */
                __asm__ volatile("" : : "r"(x) : "memory");
            }
            /* everyone done: the slowest thread sets the time */
            #pragma omp barrier
            double t = pw_now() - t0;
            #pragma omp master
            {
                double rate = (double)team * (double)passes * (double)n * sizeof(double) / t * 1e-9;
                if (sample > 0 && rate > best) best = rate;   /* sample 0 warms up */
            }
        }
        #pragma omp critical
        pw_sink += s;
        pw_free(x);
    }
    return best;
}

void memlevels_chase_build(size_t *buf, size_t lines, uint64_t seed)
{
    const size_t stride = MEMLEVELS_LINE / sizeof(size_t);   /* words per line */
    size_t *order = malloc(lines * sizeof *order);
    if (!order) { buf[0] = 0; return; }
    for (size_t i = 0; i < lines; i++) order[i] = i;
    /* Sattolo's shuffle: a uniformly random permutation with ONE cycle (j < i,
     * never j == i), so the chase visits every line before it repeats. */
    uint64_t s = seed ? seed : 1;
    for (size_t i = lines - 1; i > 0; i--) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;               /* xorshift64 */
        size_t j = (size_t)(s % i);
        size_t t = order[i]; order[i] = order[j]; order[j] = t;
    }
    /* order[i] -> order[i+1]: line order[i] holds the next line's index. */
    for (size_t i = 0; i < lines; i++) buf[order[i] * stride] = order[(i + 1) % lines];
    free(order);
}

size_t memlevels_chase(const size_t *buf, size_t start, long steps)
{
    const size_t stride = MEMLEVELS_LINE / sizeof(size_t);
    size_t p = start;
    for (long i = 0; i < steps; i++) p = buf[p * stride];   /* each load waits for the last */
    return p;
}

size_t memlevels_cycle_length(const size_t *buf, size_t lines)
{
    const size_t stride = MEMLEVELS_LINE / sizeof(size_t);
    size_t p = 0, len = 0;
    do { p = buf[p * stride]; len++; } while (p != 0 && p < lines && len <= lines);
    return p == 0 ? len : 0;
}

/* 16 dependent adds per iteration. The empty asm says "x may have changed
 * here", so the compiler can neither fold the adds into one (x += 16) nor
 * overlap them: each waits one cycle for the last. The loop counter is a
 * separate chain that runs alongside. */
#define ADD1 x += 1; __asm__ volatile("" : "+r"(x));
#define ADD16 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1
static __attribute__((noinline)) unsigned long add_chain(long iters)
{
    unsigned long x = 0;
    for (long i = 0; i < iters; i++) { ADD16 }
    return x;
}

double memlevels_clock_ghz(double seconds)
{
    long iters = 1 << 12;
    double t;
    for (;;) {                                        /* grow to about seconds / 3 */
        double t0 = pw_now();
        pw_sink += (double)add_chain(iters);
        t = pw_now() - t0;
        if (t > seconds / 3 || iters > (1L << 40)) break;
        iters *= 2;
    }
    double best = 0;
    for (int r = 0; r < 3; r++) {                     /* the fastest: the least disturbed */
        double t0 = pw_now();
        pw_sink += (double)add_chain(iters);
        double ghz = 16.0 * (double)iters / (pw_now() - t0) * 1e-9;
        if (ghz > best) best = ghz;
    }
    return best;
}
