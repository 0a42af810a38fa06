/* tests/wrong/4.3-shared-accumulator.c: exercise 4.3 "fixed" with one
 * accumulator that every thread pushes into, without a lock: a data race
 * (lost pushes, now and then). The checker stops it at the second thread's
 * first push, before it writes, with or without ThreadSanitizer.
 * expect: FAIL: two threads pushed into the same accumulator
 * skip-if: built without OpenMP */
#include <stdalign.h>

#include "moments.h"
#include "omp_info.h"

#define CACHE_LINE 64   /* bytes, on every x86-64 and most ARM cores */

welford moments_omp(const double *x, size_t n, int threads)
{
    /* One accumulator per thread, all zero; the array starts on a cache line. */
    alignas(CACHE_LINE) welford part[MOMENTS_MAX_THREADS] = { { 0, 0.0, 0.0 } };

    #pragma omp parallel num_threads(threads)
    {
        #pragma omp for
        for (long i = 0; i < (long)n; i++) welford_push(&part[0], x[i]);
    }

    welford all = part[0];
    for (int t = 1; t < threads; t++) all = welford_merge(all, part[t]);
    return all;
}
