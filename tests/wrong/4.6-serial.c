/* tests/wrong/4.6-serial.c: exercise 4.6 as the serial loop on stream 0:
 * right, reproducible, and on one thread whatever the caller asks.
 * expect: FAIL: n = 400009, asked for 2 threads: one thread drew every number
 * skip-if: built without OpenMP */
#include "mc_pi.h"
#include "omp_info.h"

double mc_pi(long long n, uint64_t seed)
{
    long long inside = 0;
    mc_rng g = mc_rng_make(seed, 0);
    for (long long i = 0; i < n; i++) {
        double x = mc_uniform(&g);
        double y = mc_uniform(&g);
        if (x * x + y * y < 1.0) inside++;
    }
    return 4.0 * (double)inside / (double)n;
}
