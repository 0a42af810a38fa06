/* tests/wrong/4.6-shared-rng.c: exercise 4.6 with one generator made
 * before the parallel region and shared by its threads: every draw races on
 * its state (numbers lost or drawn twice, a different estimate each run).
 * The checker stops the second thread's first draw.
 * expect: FAIL: (two threads drew from one generator|ThreadSanitizer: data race)
 * skip-if: built without OpenMP */
#include "mc_pi.h"
#include "omp_info.h"

double mc_pi(long long n, uint64_t seed)
{
    long long inside = 0;
    mc_rng g = mc_rng_make(seed, 0);
    #pragma omp parallel for reduction(+:inside) shared(g)
    for (long long i = 0; i < n; i++) {
        double x = mc_uniform(&g);
        double y = mc_uniform(&g);
        if (x * x + y * y < 1.0) inside++;
    }
    return 4.0 * (double)inside / (double)n;
}
