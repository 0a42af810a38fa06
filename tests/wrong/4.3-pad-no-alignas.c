/* tests/wrong/4.3-pad-no-alignas.c: exercise 4.3 with each accumulator padded
 * to 64 bytes but nothing aligned: the stride is a line, but the array is
 * only as aligned as a double, so whether two accumulators share a line
 * depends on where the stack puts it (offsets 48 and 56 of a line do). It
 * passed 6 of 8 runs when the checker judged one run's placement; the
 * checker now judges every placement the alignment allows, and moves the
 * stack between calls.
 * expect: FAIL: n = [0-9]+ on 2 threads: the accumulators of threads 0 and 1 are 64 bytes apart but not aligned to the 64-byte cache line
 * hint: only 8-byte aligned \(_Alignof\)
 * skip-if: built without OpenMP */
#include "moments.h"
#include "omp_info.h"

#define CACHE_LINE 64   /* bytes, on every x86-64 and most ARM cores */

welford moments_omp(const double *x, size_t n, int threads)
{
    /* One accumulator per thread, all zero, each padded to a whole line. */
    typedef struct {
        welford w;
        char pad[CACHE_LINE - sizeof(welford)];
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
