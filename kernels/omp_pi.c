/* kernels/omp_pi.c: pi by the midpoint rule with OpenMP (the sequential
 * reference is pi_seq in kernels/pi.c). */
#include "omp_pi.h"
#include "omp_info.h"

/* Compared with the sequential loop (pi_block in kernels/pi.c), one line is
 * added: the pragma. Without
 * reduction(+:s) every thread would add into the one shared s at once, and
 * updates would be lost (chapter 03's race); with it each thread has a
 * private s starting at 0, and the privates are added when the loop ends. */
double pi_integral_omp(long long n)
{
    const double h = 1.0 / (double)n;
    double s = 0;
    #pragma omp parallel for reduction(+:s) schedule(static)
    for (long long i = 0; i < n; i++) {
        double x = ((double)i + 0.5) * h;
        s += 4.0 / (1.0 + x * x);
    }
    return s * h;
}
