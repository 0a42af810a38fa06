/* tests/wrong/2.2-calls-kernel.c: exercise 2.2 answered with the workbook's
 * own 16-way dot product (kernels/simd.c), x with itself: right and fast,
 * but the loop is the exercise.
 * expect: FAIL: 2.2-calls-kernel.c calls simd_dot_auto16\(\), from kernels/simd */
#include "simd.h"
#include "sumsq.h"

float sumsq(const float *x, size_t n)
{
    return simd_dot_auto16(x, x, n);
}
