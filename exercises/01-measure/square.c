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
 * The interface (square.h): n may be 0 (then nothing is written); nothing
 * outside y[0..n-1] is written; n is a size_t and can pass 2^31. The counts
 * are for one call on n elements: floating-point operations, and the
 * compulsory memory traffic in bytes (each array touched once), computed
 * in a type that does not overflow for large n.
 *
 * What the checker tries (check_square.c): n = 0, 1, 2, 3, 7, 8, 9, 15, 16,
 * 17, 31, 32, 33, 64, 100, 1000, 1023, 1024, 4099 and 65537, with the floats
 * on either side of y watched; then your counts for several n.
 *
 *   make ex-1.1      grade this file (each failure is explained)
 *   make hint-1.1    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/01-measure/square.c: try first.
 */
#include "exercise.h"
#include "square.h"

/* y[i] = x[i]^2 for every i from 0 to n-1. */
void square(const float *x, float *y, size_t n)
{
    /* TODO: the loop. Mind n = 0, the last element (y has exactly n), and
     * the type of the index (an int stops at 2^31 - 1). Then delete the
     * four lines below. */
    (void)x;
    (void)y;
    (void)n;
    PW_NOT_YET_IMPLEMENTED();
}

/* The cost of one call square(x, y, n), counted by hand. */
void square_counts(size_t n, double *flops, double *bytes)
{
    /* TODO: set *flops and *bytes for one call with n elements. How many
     * floating-point operations is one x[i] * x[i]? Which bytes must move
     * between memory and the core at least once? Then delete the four
     * lines below. */
    (void)n;
    (void)flops;
    (void)bytes;
    PW_NOT_YET_IMPLEMENTED();
}
