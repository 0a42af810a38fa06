/* tests/wrong/4.3-pad-56.c: exercise 4.3 with alignas on the array and each
 * accumulator padded, but to 56 bytes (the pad counted without the struct's
 * own 24, rounded to doubles: 4 of them): the array starts on a line, the
 * second accumulator 56 bytes later, in the first line's last 8 bytes.
 * expect: FAIL: n = 2 on 2 threads: the accumulators of threads 0 and 1 are 56 bytes apart, in the same 64-byte cache line
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
        double pad[4];
    } padded_welford;
    alignas(CACHE_LINE) padded_welford part[MOMENTS_MAX_THREADS] = { { { 0, 0.0, 0.0 }, { 0 } } };

    #pragma omp parallel num_threads(threads)
    {
        welford *mine = &part[pw_omp_thread_num()].w;
        #pragma omp for
        for (long i = 0; i < (long)n; i++) welford_push(mine, x[i]);
    }

    welford all = part[0].w;
    for (int t = 1; t < threads; t++) all = welford_merge(all, part[t].w);
    return all;
}
