/* tests/wrong/4.6-rand.c: exercise 4.6 with the C library's rand(): one
 * state for the whole process, shared by the threads (a race, or in glibc
 * a lock every call takes), so no run repeats and 2 threads run no faster
 * than one. Refused when the build reads the object file.
 * expect: FAIL: 4.6-rand.c calls s?rand\(\): one generator state for the whole process */
#include <stdlib.h>

#include "mc_pi.h"
#include "omp_info.h"

double mc_pi(long long n, uint64_t seed)
{
    long long inside = 0;
    srand((unsigned)seed);
    #pragma omp parallel for reduction(+:inside)
    for (long long i = 0; i < n; i++) {
        double x = rand() / (RAND_MAX + 1.0), y = rand() / (RAND_MAX + 1.0);
        if (x * x + y * y < 1.0) inside++;
    }
    return 4.0 * (double)inside / (double)n;
}
