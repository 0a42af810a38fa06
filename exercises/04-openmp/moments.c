/* exercises/04-openmp/moments.c: exercise 4.3, a bug hunt.
 *
 * The mean and variance of a large array in one pass, with OpenMP. Each
 * thread pushes its share of the array into an accumulator of its own, so
 * no two threads ever write the same memory and no lock is needed; the
 * accumulators are merged once, after the parallel loop. (Built without
 * OpenMP, the pragmas are ignored and the loop runs on one thread.)
 *
 * This program has ONE bug. README.md says what users reported; `make ex-4.3`
 * checks it, and `make hint-4.3` helps, one level at a time.
 */
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
        welford *mine = &part[pw_omp_thread_num()];
        #pragma omp for
        for (long i = 0; i < (long)n; i++) welford_push(mine, x[i]);
    }

    welford all = part[0];
    for (int t = 1; t < threads; t++) all = welford_merge(all, part[t]);
    return all;
}
