/* kernels/pi.h: pi from an integral, a computation that checks itself.
 *
 *   pi = integral from 0 to 1 of 4 / (1 + x^2) dx
 *
 * The midpoint rule with n steps of width h = 1/n adds f at the middle of
 * each step: pi ~ h * sum over i < n of f((i + 1/2) h). The steps are
 * independent, so threads can take one block of them each and add their
 * partial sums at the end (one combine, no sharing while they work).
 *
 * Cost per step: x = (i + 0.5) * h (an add and a multiply), 1 + x*x (a
 * multiply and an add), 4 / that (a divide), and the add into the sum:
 * PI_FLOPS_PER_STEP = 6 flops, 0 bytes (no arrays: compute-bound). The
 * divide costs several times an add, so GFLOP/s stays far below the FMA peak.
 * In strict C (no -ffast-math) the sum is one chain of dependent adds that
 * the compiler may not reorder or vectorise: each thread runs at the add
 * latency, and only more threads make it faster.
 */
#ifndef PW_PI_H
#define PW_PI_H

#include "threads.h"

#define PI_FLOPS_PER_STEP 6

/* pi to more digits than a double holds (M_PI is POSIX, not C11). */
#define PI_EXACT 3.14159265358979323846

/* The sum of f((i + 1/2) h) over lo <= i < hi, not yet multiplied by h. */
double pi_block(long long lo, long long hi, double h);

/* The sequential reference: one block of all n steps. */
double pi_seq(long long n);

/* T threads, thread t summing its block of the steps (threads_block), the
 * partial sums added in thread order after the join. `where` places the
 * threads (threads.h). If finish_s is not NULL, finish_s[t] gets the time
 * thread t finished, in seconds after the first thread was started. */
double pi_pthreads(long long n, int T, threads_placement where, double *finish_s);

/* How far a correct answer with n steps may be from pi, and why:
 *  - the midpoint rule overshoots by h^2/12 (the h^2/24 * (f'(1) - f'(0))
 *    of its error expansion, with f'(0) = 0 and f'(1) = -2); half as much
 *    again covers the smaller h^4 terms;
 *  - rounding: adding n terms of about pi each, one after another, errs by
 *    at most n * u * (their sum), u = 2^-53; times h that is n * u * pi.
 *    Blocks added per thread obey the same bound. Real errors are far
 *    smaller (they cancel, about sqrt(n) u), but a bound is what a check needs. */
double pi_tolerance(long long n);

#endif
