/* tests/wrong/4.6-seed-plus-thread.c: exercise 4.6 with the thread folded
 * into the seed (seed + t) and stream 0: the threads' numbers differ, but
 * thread 1 of the run seeded s draws what thread 0 of the run seeded s + 1
 * draws: runs meant to be independent share their points.
 * expect: FAIL: n = 2 on 2 threads: thread 1's generator was made with seed [0-9]+, but mc_pi was given seed
 * skip-if: built without OpenMP */
#include "mc_pi.h"
#include "omp_info.h"

double mc_pi(long long n, uint64_t seed)
{
    long long inside = 0;
    #pragma omp parallel reduction(+:inside)
    {
        mc_rng g = mc_rng_make(seed + (uint64_t)pw_omp_thread_num(), 0);
        #pragma omp for schedule(static)
        for (long long i = 0; i < n; i++) {
            double x = mc_uniform(&g);
            double y = mc_uniform(&g);
            if (x * x + y * y < 1.0) inside++;
        }
    }
    return 4.0 * (double)inside / (double)n;
}
