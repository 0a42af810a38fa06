/* kernels/gemm_neon.c: the micro-kernel of chapter 07's packed GEMM rungs
 * for AArch64 NEON: 32 registers of 4 floats.
 *
 * Shape 8 x 12: 8x3 accumulators + 3 B vectors + 2 A vectors (the 8 values
 * of the A sliver, whose lanes the FMA-by-element reads) = 29 registers;
 * 5 loads per 24 FMAs. (The shape OpenBLAS and BLIS use on Cortex-A57 and
 * Neoverse cores.)
 */
#include "gemm_ukernel.h"

#include <stddef.h>

#if defined(__aarch64__)
#include <arm_neon.h>

#define MR 8
#define NV 3

static void uk_neon_8x12(int kc, const float *a, const float *b, float *c, int ldc, int accumulate)
{
    float32x4_t acc[MR][NV];
    for (int i = 0; i < MR; i++)
        for (int j = 0; j < NV; j++) acc[i][j] = vdupq_n_f32(0);
    for (int p = 0; p < kc; p++) {
        float32x4_t bv[NV];
        for (int j = 0; j < NV; j++) bv[j] = vld1q_f32(b + 4 * j);
        for (int i = 0; i < MR; i++)
            for (int j = 0; j < NV; j++) acc[i][j] = vfmaq_n_f32(acc[i][j], bv[j], a[i]);
        a += MR;
        b += 4 * NV;
    }
    for (int i = 0; i < MR; i++)
        for (int j = 0; j < NV; j++) {
            float *cij = c + (size_t)i * (size_t)ldc + 4 * j;
            vst1q_f32(cij, accumulate ? vaddq_f32(vld1q_f32(cij), acc[i][j]) : acc[i][j]);
        }
}

const gemm_ukernel gemm_ukernels_neon[] = {
    { PW_ISA_NEON, MR, 4 * NV, uk_neon_8x12, "32 NEON registers: 8x3 accumulators + 3 B + 2 A = 29; 5 loads per 24 FMAs" },
};
const int gemm_ukernels_neon_n = 1;
#else
const gemm_ukernel gemm_ukernels_neon[1];
const int gemm_ukernels_neon_n = 0;
#endif
