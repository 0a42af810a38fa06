/* tests/wrong/4.6-offset-stream.c: exercise 4.6 with one stream for all,
 * each thread t skipping t draws first "so that they differ": thread 1's
 * numbers are thread 0's, one draw later, so their points overlap almost
 * entirely (thread 1's x is thread 0's y). With 1 point on 2 threads, thread 1
 * draws only its skipped number: thread 0's first.
 * expect: FAIL: n = 1 on 2 threads: threads 0 and 1 drew the same numbers
 * skip-if: built without OpenMP */
#include "mc_pi.h"
#include "omp_info.h"

double mc_pi(long long n, uint64_t seed)
{
    long long inside = 0;
    #pragma omp parallel reduction(+:inside)
    {
        mc_rng g = mc_rng_make(seed, 0);
        for (int skip = 0; skip < pw_omp_thread_num(); skip++) (void)mc_uniform(&g);
        #pragma omp for schedule(static)
        for (long long i = 0; i < n; i++) {
            double x = mc_uniform(&g);
            double y = mc_uniform(&g);
            if (x * x + y * y < 1.0) inside++;
        }
    }
    return 4.0 * (double)inside / (double)n;
}
