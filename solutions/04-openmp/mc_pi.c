/* solutions/04-openmp/mc_pi.c: exercise 4.6, Monte Carlo pi with a stream
 * of random numbers per thread.
 *
 * Each thread makes its own generator inside the parallel region, named by
 * the run's seed and its thread number, and draws only from it; the loop's
 * schedule(static) gives thread t the same block of points in every run,
 * so thread t always draws the same numbers and the estimate repeats bit
 * for bit for the same n, seed and thread count (not across thread counts:
 * 2 threads draw other numbers than 1). The count is a reduction, as in
 * exercise 4.1. What goes wrong otherwise:
 *   - rand(): one state for the whole process. Threads calling it at once
 *     race on it, or (glibc) take a lock on every call and take turns: no
 *     faster than one thread; and who gets which number depends on timing,
 *     so no run repeats;
 *   - one generator shared by the threads: the same race, on our state;
 *   - the same stream on every thread (mc_rng_make(seed, 0), or one
 *     generator copied to each): every thread draws the same points, and
 *     T copies of n/T points estimate pi no better than n/T points: the
 *     error is sqrt(T) times the error of n independent points;
 *   - schedule(dynamic): right streams, but which points each thread draws
 *     changes with the timing, so the estimate changes from run to run.
 * pw_omp_thread_num() is omp_get_thread_num(), or 0 in a build without
 * OpenMP (common/omp_info.h).
 */
#include "mc_pi.h"
#include "omp_info.h"

double mc_pi(long long n, uint64_t seed)
{
    long long inside = 0;
    #pragma omp parallel reduction(+:inside)
    {
        mc_rng g = mc_rng_make(seed, (uint64_t)pw_omp_thread_num());
        #pragma omp for schedule(static)
        for (long long i = 0; i < n; i++) {
            double x = mc_uniform(&g);
            double y = mc_uniform(&g);
            if (x * x + y * y < 1.0) inside++;
        }
    }
    return 4.0 * (double)inside / (double)n;
}
