/* exercises/01-measure/square.c: exercise 1.1, a first kernel and its costs.
 *
 * What it teaches: a kernel is only half done when it gives the right
 * answer for the sizes you happened to try; it must be right for every n
 * (0, 1, 17, 65537 ...) and touch nothing outside its output. And a rate
 * (GFLOP/s, GB/s) is a count divided by a time: the counts are yours to
 * work out, next to the loop, before anything is timed.
 *
 * Write the two functions declared in square.h:
 *   square(x, y, n)                 y[i] = x[i] * x[i] for i = 0 .. n-1
 *   square_counts(n, &flops, &bytes) what one call of square() costs
 *
 * Check your work:  make ex-1.1     (the checker tries 20 sizes from 0 to
 * 65537, looks at the floats on either side of y, then your counts; each
 * failure is explained in a line or two). The answer is in
 * solutions/01-measure/square.c: try first.
 */
#include "exercise.h"
#include "square.h"

/* y[i] = x[i]^2 for every i from 0 to n-1. */
void square(const float *x, float *y, size_t n)
{
    /* TODO: one loop over i that writes y[i] = x[i] * x[i].
     *  - y has n elements, y[0] .. y[n-1]: the loop runs while i < n
     *    (i <= n writes one float past the end of y).
     *  - Make i a size_t, like n: an int stops at 2^31 - 1 elements.
     *  - n can be 0; then the loop must not run at all.
     * Then delete the four lines below. */
    (void)x;
    (void)y;
    (void)n;
    PW_NOT_YET_IMPLEMENTED();
}

/* The cost of one call square(x, y, n), counted by hand. */
void square_counts(size_t n, double *flops, double *bytes)
{
    /* TODO: set *flops and *bytes for one call with n elements.
     *  - flops: how many floating-point operations does x[i] * x[i] take?
     *    (x[i] is used twice, but it is one multiply.)
     *  - bytes: the compulsory traffic. Each element of x is read once and
     *    each element of y written once; a float is 4 bytes (sizeof(float)).
     *  - Compute in double (or size_t): in an int, 8 * n overflows once n
     *    passes 268435455.
     * Then delete the four lines below. */
    (void)n;
    (void)flops;
    (void)bytes;
    PW_NOT_YET_IMPLEMENTED();
}
