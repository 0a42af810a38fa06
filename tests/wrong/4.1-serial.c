/* tests/wrong/4.1-serial.c: exercise 4.1 as the plain loop, no pragma at
 * all: the sum and the max are right on any thread count, because every
 * thread count runs it on one thread.
 * expect: FAIL: no `#pragma omp parallel for` in tests/wrong/4.1-serial.c as the compiler reads it: the loop runs on one thread */
#include "omp_info.h"
#include "reduction.h"

void sum_and_max(const float *x, long n, double *sum, float *max)
{
    double s = 0;
    float m = x[0];
    for (long i = 0; i < n; i++) {
        s += x[i];
        if (x[i] > m) m = x[i];
    }
    *sum = s;
    *max = m;
}
