/* exercises/05-amdahl/serial_fraction.h: what exercise 5.1 asks you to write.
 * Your exercises/05-amdahl/serial_fraction.c implements it; the checker and
 * the solution include this same header. */
#ifndef PW_EX_SERIAL_FRACTION_H
#define PW_EX_SERIAL_FRACTION_H

/* Estimate the serial fraction s of a program (0 <= s <= 1) from its run
 * times: seconds[i] is the median time on threads[i] threads, for `count`
 * runs on a machine with at least that many cores. The runs come in any
 * order; exactly one of them is on 1 thread. Timings are noisy (a few
 * percent), so use every run, not just one. */
double estimate_serial_fraction(const int *threads, const double *seconds, int count);

#endif
