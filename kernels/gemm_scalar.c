/* kernels/gemm_scalar.c: the micro-kernel of chapter 07's packed GEMM rungs
 * for a machine without a vector ISA this build knows (and for `--isa
 * scalar`): one float per instruction.
 *
 * Built with the auto-vectoriser off (chapters/07-gemm-cpu/chapter.mk), so
 * that "scalar" means scalar: the fallback's speed is what a CPU without
 * SIMD would see, and the ladder's SIMD rung is measured against it.
 *
 * Shape 4 x 4: 16 accumulators + 4 B values + 1 A value = 21 scalars, which
 * x86-64's 16 float registers cannot all hold (a few live in L1 instead);
 * 8 loads per 16 multiply-adds, against 2 per 1 for the ikj loop's inner
 * statement (load B, load C, store C).
 */
#include "gemm_ukernel.h"

#include <stddef.h>

#define MR 4
#define NR 4

static void uk_scalar_4x4(int kc, const float *a, const float *b, float *c, int ldc, int accumulate)
{
    float acc[MR][NR] = { { 0 } };
    for (int p = 0; p < kc; p++) {
        for (int i = 0; i < MR; i++)
            for (int j = 0; j < NR; j++) acc[i][j] += a[i] * b[j];
        a += MR;
        b += NR;
    }
    for (int i = 0; i < MR; i++)
        for (int j = 0; j < NR; j++) {
            float *cij = c + (size_t)i * (size_t)ldc + j;
            *cij = accumulate ? *cij + acc[i][j] : acc[i][j];
        }
}

const gemm_ukernel gemm_ukernels_scalar[] = {
    { PW_ISA_SCALAR, MR, NR, uk_scalar_4x4, "scalar: 4x4 accumulators + 4 B + 1 A = 21 floats; 8 loads per 16 multiply-adds" },
};
const int gemm_ukernels_scalar_n = 1;
