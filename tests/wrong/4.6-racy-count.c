/* tests/wrong/4.6-racy-count.c: exercise 4.6 with the right streams but
 * the count shared by the threads, with no reduction: increments are lost
 * (the compiler may even keep each thread's count in a register and store
 * it once, the last store winning).
 * expect: FAIL: (n = [0-9]+ on [0-9]+ threads: the estimate is .* but the points drawn put|ThreadSanitizer: data race)
 * skip-if: built without OpenMP */
#include "mc_pi.h"
#include "omp_info.h"

double mc_pi(long long n, uint64_t seed)
{
    long long inside = 0;
    #pragma omp parallel
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
