/* tests/wrong/4.6-same-seed.c: exercise 4.6 with a generator per thread,
 * but every one made as stream 0: all threads draw the same numbers, so T
 * threads throw the same n/T points T times. The estimate looks fine (it is
 * as good as n/T points): only the streams tell.
 * expect: FAIL: n = 2 on 2 threads: threads 0 and 1 drew the same numbers
 * skip-if: built without OpenMP */
#include "mc_pi.h"
#include "omp_info.h"

double mc_pi(long long n, uint64_t seed)
{
    long long inside = 0;
    #pragma omp parallel reduction(+:inside)
    {
        mc_rng g = mc_rng_make(seed, 0);
        #pragma omp for schedule(static)
        for (long long i = 0; i < n; i++) {
            double x = mc_uniform(&g);
            double y = mc_uniform(&g);
            if (x * x + y * y < 1.0) inside++;
        }
    }
    return 4.0 * (double)inside / (double)n;
}
