/* exercises/02-simd/leaky_relu.c: exercise 2.1, a mask and a tail by hand.
 *
 * The task: the leaky ReLU activation of many neural networks,
 *     y[i] = x[i] > 0 ? x[i] : alpha * x[i],
 * four floats per instruction with intrinsics: SSE2 on x86-64, NEON on
 * AArch64 (both in every CPU of their kind, 4 floats per register). Fill in
 * the block for your machine; the other is not compiled. Why it is a
 * lesson: a vector instruction works on all its lanes at once, so an `if`
 * per element has to become a mask: compute both arms in every lane, then
 * keep, lane by lane, the one the mask selects (the CPU's version of a
 * GPU's divergence). And n is rarely a multiple of 4: the last n mod 4
 * elements need a scalar loop (the tail), or the vector loop would read and
 * write past the end of the arrays.
 *
 * The interface (leaky_relu.h):
 *   void leaky_relu(const float *x, float *y, size_t n, float alpha);
 *   - writes y[0..n-1] and nothing else; x is not changed; x and y do not
 *     overlap; n may be 0;
 *   - each y[i] exactly as the scalar formula gives it (alpha * x[i] is one
 *     float multiply, rounded once).
 *
 * What the checker tries (check_leaky_relu.c): 20 sizes from 0 to 65537
 * (0 .. 9, 15, 16, 17, 31, 33, 100, 1001, 1023, 4099, 65537: most not a
 * multiple of 4), x in [-4, 4) with x[n/2] = 0, alpha = 0.1, x and y 64-byte
 * aligned; then the same 20 sizes with x 4 bytes and y 8 bytes past a
 * 16-byte boundary (leaky_relu.h promises no alignment: SSE2's aligned
 * _mm_load_ps/_mm_store_ps fault there, and the checker says so); then
 * alpha = 1.5 on n = 7 and 1001 (a 0.1 written into the loop, or
 * max(x, alpha * x), fails). Every y[i] compared exactly, every y[i] must be
 * written, the 16 floats on either side of y watched, x checked unchanged.
 * This file is compiled without the auto-vectoriser, and its object code
 * must hold packed multiplies: only your intrinsics can have put them there.
 *
 *   make ex-2.1      grade this file (each failure is explained)
 *   make hint-2.1    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/02-simd/leaky_relu.c: try first.
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
#if defined(__SSE2__)
    /* TODO (x86-64): the vector loop, with SSE2 intrinsics (emmintrin.h). */
#elif defined(__aarch64__)
    /* TODO (AArch64): the vector loop, with NEON intrinsics (arm_neon.h). */
#endif
    /* TODO: the tail. Then delete the placeholder lines below. */
    (void)x;
    (void)y;
    (void)n;
    (void)alpha;
    PW_NOT_YET_IMPLEMENTED();
}
