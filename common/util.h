/* common/util.h: small helpers every program shares, with the exit codes
 * (PW_EXIT_PASS 0, PW_EXIT_WRONG 1, PW_EXIT_USAGE 2, PW_EXIT_SKIP 77) and
 * pw_fmt_bytes from base.h, the floor below the check macros.
 */
#ifndef PW_UTIL_H
#define PW_UTIL_H

#include "base.h"

#include <stddef.h>
#include <stdint.h>

/* Buffers are aligned to 64 bytes: one cache line, and one AVX-512 register,
 * so no vector load straddles two lines because of where malloc put us. */
#define PW_ALIGN 64

/* ceil(a / b) for sizes: how many tiles of b cover a. */
static inline size_t pw_ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

/* Aligned allocation of n floats (or bytes); exits with a hint on failure.
 * Free with pw_free. n == 0 returns a valid, unusable pointer. */
float *pw_alloc_floats(size_t n);
double *pw_alloc_doubles(size_t n);
void *pw_alloc_bytes(size_t bytes);
void pw_free(void *p);

/* Fill with a fixed-seed pseudo-random sequence in [lo, hi): the same seed
 * gives the same data on every machine (xorshift, not rand()). */
void pw_fill_random(float *x, size_t n, uint64_t seed, float lo, float hi);

/* Keep the optimiser from deleting work whose result we never read. */
void pw_consume(const void *p);
extern volatile double pw_sink;

/* A winner named from one run is a win only when the runner-up is further
 * off than the run's noise: PW_TIE_SHARE, 5%, about the spread of one point
 * on a quiet 2-core machine (the IQRs the chapters print). pw_ties writes
 * the indices of the entries of v[0..n) other than `best` within `share` of
 * v[best] (relative to the larger) to out, and returns how many; the caller
 * prints them as a tie beside the winner. */
#define PW_TIE_SHARE 0.05
int pw_ties(const double *v, int n, int best, double share, int *out);

#endif
