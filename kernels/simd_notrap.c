/* kernels/simd_notrap.c: chapter 02's piecewise loop once more, built with
 * -fno-trapping-math (KFLAGS_simd_notrap in chapters/02-simd/chapter.mk).
 *
 * The C source is simd_piecewise_auto's, to the character. What differs is a
 * promise to the compiler. Under C's default floating-point rules (gcc's
 * -ftrapping-math) a float operation that overflows or underflows may raise
 * a trap, so the compiler may not execute an arm the source did not ask for:
 * computing x*x for a lane where x < 0 could trap where the scalar loop
 * would not. A vector blend computes both arms in every lane, so it is only
 * allowed where the hardware can switch lanes off: AVX-512's masked
 * multiply does, AVX2 and SSE have no masked arithmetic. So gcc vectorises
 * simd_piecewise_auto only with AVX-512 and otherwise keeps the branch
 * (a compare and a conditional jump per element).
 *
 * -fno-trapping-math says "no program here relies on float traps", and then
 * computing both arms is harmless with any ISA: this copy is vectorised for
 * SSE, AVX2 and AVX-512 alike. clang assumes no traps by default, so it
 * vectorises both copies. tests/ch02.sh checks all of that in the object
 * code; chapters/02-simd/branches.c shows what it costs on random data.
 */
#include "simd.h"

void simd_piecewise_notrap(const float *restrict x, float *restrict y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = x[i] >= 0.0f ? x[i] * x[i] : 0.5f * x[i];
}
