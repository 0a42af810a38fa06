/* solutions/05-amdahl/serial_fraction.c: a solution of exercise 5.1.
 *
 * Added to the skeleton: the search for the 1-thread time, the least-squares
 * fit of p = 1 - s on the line y = p x (x = 1 - 1/N, y = 1 - T(N)/T1), and
 * the clamp. Using every run averages the noise out: 2% noise on T(2) alone
 * moves the estimate by about 0.022 at s = 0.1 (on T(16) alone, 0.003); the
 * fit weighs each run by how much it can tell (x = 1 - 1/N).
 * Graded by: make solution-5.1
 */
#include "serial_fraction.h"

double estimate_serial_fraction(const int *threads, const double *seconds, int count)
{
    double t1 = 0;                                        /* added */
    for (int i = 0; i < count; i++)                       /* added */
        if (threads[i] == 1) t1 = seconds[i];             /* added */
    double sxy = 0, sxx = 0;                              /* added */
    for (int i = 0; i < count; i++) {                     /* added */
        double x = 1.0 - 1.0 / threads[i];                /* added */
        double y = 1.0 - seconds[i] / t1;                 /* added */
        sxy += x * y;                                     /* added */
        sxx += x * x;                                     /* added */
    }                                                     /* added */
    double p = sxx > 0 ? sxy / sxx : 0;                   /* added */
    double s = 1.0 - p;                                   /* added */
    return s < 0 ? 0 : (s > 1 ? 1 : s);                   /* added */
}
