/* tests/wrong/5.1-fewest-threads.c: exercise 5.1 from the 1-thread run and
 * the next one up (2 threads, or 3 on odd counts) alone: Amdahl solved for s
 * on that pair, the Karp-Flatt metric of one speedup. Exact on exact times,
 * but 1 - 1/2 = 0.5 doubles that run's noise in s, and no other run
 * averages it down.
 * expect: FAIL: off by .* \(allowed 0\.[0-9]+, 3 sd of a fit over its 16 runs\): that is the estimate from the runs on 1 and 2 threads alone
 * hint: fit s over every run, and the noise of */
#include "serial_fraction.h"

double estimate_serial_fraction(const int *threads, const double *seconds, int count)
{
    double t1 = 0;
    int next = -1;
    for (int i = 0; i < count; i++) {
        if (threads[i] == 1) t1 = seconds[i];
        else if (next < 0 || threads[i] < threads[next]) next = i;
    }
    double n = threads[next];
    double s = (seconds[next] / t1 - 1 / n) / (1 - 1 / n);
    return s < 0 ? 0 : (s > 1 ? 1 : s);
}
