/* solutions/02-simd/sumsq.c: a solution of exercise 2.2.
 *
 * Added to the skeleton exercises/02-simd/sumsq.c: the 16 partial sums,
 * the main loop, the tail and the final sum, in place of the placeholder
 * and its (void) casts. Graded by: make solution-2.2
 *
 * With -O3 -march=native the inner loop over k becomes one 16-lane
 * multiply and one 16-lane add per 16 elements (check: objdump -d and look
 * for vmulps and vaddps on zmm or ymm registers; -std=c11 keeps the
 * compiler from fusing them into one vfmadd, so the rounding is the
 * source's; the checker looks for the packed adds); the plain loop stays one scalar add per
 * element, so this runs several times faster on data in the caches
 * (kernels/simd.c's simd_dot_auto16 is the same idea for the dot product).
 */
#include "sumsq.h"

float sumsq(const float *x, size_t n)
{
    float acc[16] = { 0 };                                          /* added */
    size_t i = 0;                                                   /* added */
    for (; i + 16 <= n; i += 16)                                    /* added */
        for (int k = 0; k < 16; k++) acc[k] += x[i + k] * x[i + k]; /* added */
    for (; i < n; i++) acc[0] += x[i] * x[i];                       /* added: the tail */
    float s = 0.0f;                                                 /* added */
    for (int k = 0; k < 16; k++) s += acc[k];                       /* added */
    return s;                                                       /* added */
}
