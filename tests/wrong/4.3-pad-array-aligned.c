/* tests/wrong/4.3-pad-array-aligned.c: a RIGHT answer to exercise 4.3 that a
 * checker judging alignment must not fail: each accumulator padded to 64
 * bytes by hand, and alignas(64) on the array (not on the type): the array
 * starts on a line and every element is one line long, so each accumulator
 * has a line of its own wherever the stack is.
 * expect: PASS
 * skip-if: built without OpenMP */
#include <stdalign.h>

#include "moments.h"
#include "omp_info.h"

#define CACHE_LINE 64   /* bytes, on every x86-64 and most ARM cores */

welford moments_omp(const double *x, size_t n, int threads)
{
    /* One accumulator per thread, all zero, each padded to a line; the array starts on a line. */
    typedef struct {
        welford w;
        char pad[CACHE_LINE - sizeof(welford)];
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
