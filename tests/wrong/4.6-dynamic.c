/* tests/wrong/4.6-dynamic.c: exercise 4.6 with schedule(dynamic): the
 * right stream per thread, but which points each thread draws depends on
 * which thread is free first, so the same n, seed and threads give another
 * estimate each run. (Caught when two runs hand out the points differently:
 * with 400009 points in chunks of one on 2 to 7 threads, every run here.)
 * expect: FAIL: n = [0-9]+, seed [0-9]+ on [0-9]+ threads twice: the estimates
 * skip-if: built without OpenMP */
#include "mc_pi.h"
#include "omp_info.h"

double mc_pi(long long n, uint64_t seed)
{
    long long inside = 0;
    #pragma omp parallel reduction(+:inside)
    {
        mc_rng g = mc_rng_make(seed, (uint64_t)pw_omp_thread_num());
        #pragma omp for schedule(dynamic)
        for (long long i = 0; i < n; i++) {
            double x = mc_uniform(&g);
            double y = mc_uniform(&g);
            if (x * x + y * y < 1.0) inside++;
        }
    }
    return 4.0 * (double)inside / (double)n;
}
