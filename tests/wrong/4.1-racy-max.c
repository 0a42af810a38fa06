/* tests/wrong/4.1-racy-max.c: exercise 4.1 with reduction(+:s) but the max
 * shared between the threads (no reduction(max:m)): it passed 10 of 11
 * plain runs. Under ThreadSanitizer the race is the verdict; without it,
 * a run that loses an update gives a wrong max, and one that does not
 * fails on its pragma (no reduction for the max): a FAIL either way.
 * expect: FAIL: (ThreadSanitizer: data race|max of .* should be|no reduction\(max: \.\.\.\) clause for the max: the threads update one shared variable) */
#include "omp_info.h"
#include "reduction.h"

void sum_and_max(const float *x, long n, double *sum, float *max)
{
    double s = 0;
    float m = x[0];
    #pragma omp parallel for reduction(+:s)
    for (long i = 0; i < n; i++) {
        s += x[i];
        if (x[i] > m) m = x[i];
    }
    *sum = s;
    *max = m;
}
