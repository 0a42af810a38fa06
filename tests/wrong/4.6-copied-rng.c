/* tests/wrong/4.6-copied-rng.c: exercise 4.6 with one generator made before
 * the region and copied into each thread (firstprivate): no race now, but
 * each copy starts at the same place, so every thread draws the same
 * numbers.
 * expect: FAIL: n = 2 on 2 threads: threads 0 and 1 drew the same numbers
 * skip-if: built without OpenMP */
#include "mc_pi.h"
#include "omp_info.h"

double mc_pi(long long n, uint64_t seed)
{
    long long inside = 0;
    mc_rng g = mc_rng_make(seed, 0);
    #pragma omp parallel for reduction(+:inside) firstprivate(g) schedule(static)
    for (long long i = 0; i < n; i++) {
        double x = mc_uniform(&g);
        double y = mc_uniform(&g);
        if (x * x + y * y < 1.0) inside++;
    }
    return 4.0 * (double)inside / (double)n;
}
