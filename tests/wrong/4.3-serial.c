/* tests/wrong/4.3-serial.c: exercise 4.3 "fixed" by taking out the parallel
 * region: one thread, so nothing to share and nothing gained.
 * expect: FAIL: n = 1, asked for 2 threads: the values were pushed by a team of 1
 * skip-if: built without OpenMP */
#include <stdalign.h>

#include "moments.h"
#include "omp_info.h"

#define CACHE_LINE 64   /* bytes, on every x86-64 and most ARM cores */

welford moments_omp(const double *x, size_t n, int threads)
{
    /* One accumulator per thread, all zero; the array starts on a cache line. */
    alignas(CACHE_LINE) welford part[MOMENTS_MAX_THREADS] = { { 0, 0.0, 0.0 } };

    for (long i = 0; i < (long)n; i++) welford_push(&part[0], x[i]);

    welford all = part[0];
    for (int t = 1; t < threads; t++) all = welford_merge(all, part[t]);
    return all;
}
