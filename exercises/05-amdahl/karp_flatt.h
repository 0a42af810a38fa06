/* exercises/05-amdahl/karp_flatt.h: what exercise 5.2 asks you to write.
 * Your exercises/05-amdahl/karp_flatt.c implements it; the checker and the
 * solution include this same header. */
#ifndef PW_EX_KARP_FLATT_H
#define PW_EX_KARP_FLATT_H

/* The Karp-Flatt metric: the serial fraction e that, by Amdahl's law, would
 * explain a measured `speedup` on n processors:
 *     e = (1/speedup - 1/n) / (1 - 1/n)
 * Return NAN (from <math.h>) when it is undefined: n <= 1, or speedup <= 0. */
double karp_flatt(double speedup, int n);

/* Read a sweep: speedup[i] measured on n[i] processors, i = 0..count-1, n
 * increasing. Compute e for every n > 1 and return
 *   1 if e rises: e at the largest n is more than 1.2 times e at the smallest
 *     n > 1 (and more than 0.005 above it: tiny e's are noise). The
 *     program has overhead that grows with n (communication, start-up,
 *     contention): adding processors costs more than it used to.
 *   0 otherwise: e is about constant, a true serial fraction.
 * Fewer than two points with n > 1 cannot show a trend: return 0. */
int overhead_grows(const double *speedup, const int *n, int count);

#endif
