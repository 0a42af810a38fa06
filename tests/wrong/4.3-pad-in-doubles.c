/* tests/wrong/4.3-pad-in-doubles.c: exercise 4.3 with padding added, but
 * counted in the wrong unit: 8 bytes of pad (a line is 8 doubles, not 8
 * bytes), so each padded accumulator is 32 bytes and two still share a line.
 * expect: FAIL: n = 2 on 2 threads: the accumulators of threads 0 and 1 are 32 bytes apart
 * skip-if: built without OpenMP */
#include <stdalign.h>

#include "moments.h"
#include "omp_info.h"

#define CACHE_LINE 64   /* bytes, on every x86-64 and most ARM cores */

welford moments_omp(const double *x, size_t n, int threads)
{
    /* One accumulator per thread, all zero; the array starts on a cache line. */
    typedef struct {
        welford w;
        char pad[CACHE_LINE / sizeof(double)];
    } padded_welford;
    alignas(CACHE_LINE) padded_welford padded[MOMENTS_MAX_THREADS] = { { { 0, 0.0, 0.0 }, { 0 } } };
    welford part[MOMENTS_MAX_THREADS];

    #pragma omp parallel num_threads(threads)
    {
        welford *mine = &padded[pw_omp_thread_num()].w;
        #pragma omp for
        for (long i = 0; i < (long)n; i++) welford_push(mine, x[i]);
    }

    for (int t = 0; t < threads; t++) part[t] = padded[t].w;
    welford all = part[0];
    for (int t = 1; t < threads; t++) all = welford_merge(all, part[t]);
    return all;
}
