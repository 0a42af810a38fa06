/* exercises/02-simd/sumsq.c: exercise 2.2, a sum the compiler will vectorise.
 *
 * The task: the sum of squares x[0]^2 + ... + x[n-1]^2, in plain C (no
 * intrinsics), written so that the compiler turns it into vector code by
 * itself at -O3 -march=native. Why it is a lesson: the plain loop
 * s += x[i] * x[i] is one chain of additions, each waiting for the one
 * before, and the compiler may not vectorise it: float addition is not
 * associative, and C asks for exactly that order. You may change the order
 * yourself, in the source, so that the additions no longer form one chain.
 * Different order, different rounding: the result may differ from the plain
 * loop in the last bits, and that is fine.
 *
 * The interface (sumsq.h):
 *   float sumsq(const float *x, size_t n);
 *   - the sum in float; n may be 0 (the sum is then 0); x is not changed.
 *
 * What the checker tries (check_sumsq.c): first this file as the compiler
 * reads it (cc -E): intrinsics by hand (_mm_*, __m128, float32x4_t ...) or
 * a fast-math pragma or attribute fail. Then 13 sizes, 0, 1, 7, 15, 16, 17,
 * 31, 33, 100, 1000, 4099, 65537 and 1000003 (most not a multiple of 4, 8
 * or 16), first on values from {-2, -1, 1, 2} (every partial sum exact: a
 * dropped or doubled element shows), then on random reals in [-1, 1)
 * within gamma_n = n u / (1 - n u) relative, u = 2^-24; the 64 floats
 * after x[n-1] hold NaN and the 64 before x[0] +infinity, so a read past
 * either end shows. Then the speed at n = 4096: the plain loop, 16 partial
 * sums (kernels/simd.c's simd_dot_auto16, compiled like yours) and yours, timed in
 * turns; if the 16 sums run G times the plain loop, yours must reach
 * sqrt(G) (3.2x where G = 10; one chain or two stay below). Not judged
 * under a sanitizer, nor where G < 1.3 (nothing vectorised). Last, where
 * objdump can tell, this file's object code must hold packed additions.
 *
 *   make ex-2.2      grade this file (each failure is explained)
 *   make hint-2.2    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/02-simd/sumsq.c: try first.
 */
#include "exercise.h"
#include "sumsq.h"

float sumsq(const float *x, size_t n)
{
    /* TODO: the sum. Then delete the placeholder lines below. */
    (void)x;
    (void)n;
    PW_NOT_YET_IMPLEMENTED();
}
