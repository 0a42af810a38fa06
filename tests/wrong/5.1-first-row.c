/* tests/wrong/5.1-first-row.c: exercise 5.1 that takes the first row as the
 * 1-thread time, whatever its thread count says: right when the sweep starts
 * at 1 thread, wrong when the rows come in another order.
 * expect: FAIL: off by 0.900 when the 1-thread run is not first
 * hint: look for threads\[i\] == 1 */
#include "serial_fraction.h"

double estimate_serial_fraction(const int *threads, const double *seconds, int count)
{
    double t1 = seconds[0];
    double sxy = 0, sxx = 0;
    for (int i = 0; i < count; i++) {
        double x = 1.0 - 1.0 / threads[i], y = 1.0 - seconds[i] / t1;
        sxy += x * y;
        sxx += x * x;
    }
    double s = 1.0 - (sxx > 0 ? sxy / sxx : 0);
    return s < 0 ? 0 : (s > 1 ? 1 : s);
}
