/* tests/wrong/5.1-two-runs.c: exercise 5.1 from two runs only, the 1-thread
 * one and the largest: Amdahl solved for s on that pair, ignoring every
 * other run. It carries all of the largest run's noise, which the fit over
 * 16 or 32 runs averages down; the old tolerance (0.02, with T1 noisy too)
 * passed it.
 * expect: FAIL: off by .* \(allowed 0\.[0-9]+, 3 sd of a fit over its (16|32) runs\): that is the estimate from the runs on 1 and (16|32) threads alone
 * hint: fit s over every run, and the noise of */
#include "serial_fraction.h"

double estimate_serial_fraction(const int *threads, const double *seconds, int count)
{
    double t1 = 0;
    int big = 0;
    for (int i = 0; i < count; i++) {
        if (threads[i] == 1) t1 = seconds[i];
        if (threads[i] > threads[big]) big = i;
    }
    double n = threads[big];
    double s = (seconds[big] / t1 - 1 / n) / (1 - 1 / n);
    return s < 0 ? 0 : (s > 1 ? 1 : s);
}
