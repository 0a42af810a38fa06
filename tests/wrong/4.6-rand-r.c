/* tests/wrong/4.6-rand-r.c: exercise 4.6 with rand_r() and a seed per
 * thread: no shared state, so no race, but the exercise's streams are
 * mc_rng_make(seed, t) (rand_r's whole state is one unsigned int), and the
 * checker cannot see these. Refused when the build reads the object file.
 * expect: FAIL: 4.6-rand-r.c calls rand_r\(\): a generator whose state you keep works per thread, but not here */
#define _POSIX_C_SOURCE 200809L   /* rand_r */
#include <stdlib.h>

#include "mc_pi.h"
#include "omp_info.h"

double mc_pi(long long n, uint64_t seed)
{
    long long inside = 0;
    #pragma omp parallel reduction(+:inside)
    {
        unsigned state = (unsigned)seed + 7919u * (unsigned)pw_omp_thread_num();
        #pragma omp for schedule(static)
        for (long long i = 0; i < n; i++) {
            double x = rand_r(&state) / (RAND_MAX + 1.0), y = rand_r(&state) / (RAND_MAX + 1.0);
            if (x * x + y * y < 1.0) inside++;
        }
    }
    return 4.0 * (double)inside / (double)n;
}
