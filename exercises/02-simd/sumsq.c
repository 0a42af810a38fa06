/* exercises/02-simd/sumsq.c: exercise 2.2, a sum the compiler will vectorise.
 *
 * What it teaches: the plain loop  s += x[i] * x[i]  is one chain of adds,
 * each waiting for the one before, and the compiler may not vectorise it:
 * float addition is not associative, and C asks for exactly this order.
 * You may change the order yourself, in the source: keep several partial
 * sums, acc[k] over the elements i = k mod K, and add them at the end. The
 * K inner additions are independent, so the compiler maps them onto one
 * vector register (-O3 -march=native), and the chain is K times shorter.
 * Different order, different rounding: the result may differ from the
 * plain loop in the last bits, and that is fine.
 *
 * Write sumsq() (see sumsq.h). Check:  make ex-2.2  (odd sizes, exact
 * whole-number data, random data, and the speed against the plain loop).
 * The answer is in solutions/02-simd/sumsq.c: try first.
 */
#include "exercise.h"
#include "sumsq.h"

float sumsq(const float *x, size_t n)
{
    /* TODO:
     *  1. float acc[16] = { 0 };   (16 floats: one AVX-512 register, or two
     *     AVX2 ones; 8 or 32 work too)
     *  2. the main loop, 16 elements at a time while i + 16 <= n, with an
     *     inner loop over k = 0..15:  acc[k] += x[i + k] * x[i + k];
     *     (no early exit, no function calls in it: the compiler vectorises
     *     only simple loops)
     *  3. the tail: the last n mod 16 elements, one at a time, into acc[0];
     *  4. add the 16 partial sums and return the total.
     * Then delete the two lines below. */
    (void)x;
    (void)n;
    PW_NOT_YET_IMPLEMENTED();
}
