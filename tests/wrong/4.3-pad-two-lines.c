/* tests/wrong/4.3-pad-two-lines.c: a RIGHT answer to exercise 4.3 that a
 * checker judging alignment must not fail: no alignas at all, but each
 * accumulator padded to 128 bytes (two lines), so that 104 bytes of pad lie
 * between any two, more than a line: no line can hold bytes of both,
 * wherever the array starts. (It spends twice the memory alignas would.)
 * expect: PASS
 * skip-if: built without OpenMP */
#include "moments.h"
#include "omp_info.h"

#define CACHE_LINE 64   /* bytes, on every x86-64 and most ARM cores */

welford moments_omp(const double *x, size_t n, int threads)
{
    /* One accumulator per thread, all zero, two lines apart. */
    typedef struct {
        welford w;
        char pad[2 * CACHE_LINE - sizeof(welford)];
    } padded_welford;
    padded_welford part[MOMENTS_MAX_THREADS] = { { { 0, 0.0, 0.0 }, { 0 } } };

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
