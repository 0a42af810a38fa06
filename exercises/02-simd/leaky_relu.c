/* exercises/02-simd/leaky_relu.c: exercise 2.1, a mask and a tail by hand.
 *
 * What it teaches: a vector instruction works on 4 (or 8, 16) elements at
 * once, so an if per element becomes a mask: compute both arms for all four
 * lanes, then keep, per lane, the one the mask selects. And n is rarely a
 * multiple of 4: the last n mod 4 elements need a scalar loop (the tail),
 * or the vector loop would read and write past the end of the arrays.
 *
 * Write leaky_relu() (see leaky_relu.h), the activation of many neural
 * networks:  y[i] = x[i] > 0 ? x[i] : alpha * x[i]
 * with SSE2 intrinsics on x86-64 or NEON intrinsics on AArch64 (both are
 * in every CPU of their kind, 4 floats per register). Fill in the block for
 * your machine; the other is not compiled.
 *
 * Check your work:  make ex-2.1    (sizes 0 .. 65537, most of them not a
 * multiple of 4; the floats on either side of y are watched). The answer is
 * in solutions/02-simd/leaky_relu.c: try first.
 */
#include "exercise.h"
#include "leaky_relu.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

void leaky_relu(const float *x, float *y, size_t n, float alpha)
{
    size_t i = 0;
#if defined(__SSE2__)
    /* TODO (x86-64): while i + 4 <= n, four at a time:
     *   __m128 v = _mm_loadu_ps(x + i);            load x[i .. i+3]
     *   the mask: _mm_cmpgt_ps(v, _mm_setzero_ps())  all ones where x > 0
     *   the arms: v itself, and _mm_mul_ps(v, _mm_set1_ps(alpha))
     *   the blend (SSE2 has no blend instruction): keep v where the mask is
     *     set and the other arm elsewhere: _mm_or_ps(_mm_and_ps(m, a),
     *     _mm_andnot_ps(m, b)); andnot(m, b) is (~m) & b
     *   _mm_storeu_ps(y + i, result);
     */
#elif defined(__aarch64__)
    /* TODO (AArch64): the same with vld1q_f32, vcgtq_f32(v, vdupq_n_f32(0)),
     * vmulq_n_f32(v, alpha), vbslq_f32(mask, if_set, if_not) and vst1q_f32. */
#endif
    /* TODO: the tail: for the elements the vector loop did not reach
     * (i < n), the same formula one float at a time. Then delete the six
     * lines below. */
    (void)x;
    (void)y;
    (void)n;
    (void)alpha;
    (void)i;
    PW_NOT_YET_IMPLEMENTED();
}
