/* exercises/09-tensor-cores/gemm_check.h: what the checkers of 9.1-9.3
 * share: the error bound of a dot product, fp16 rounding as the hardware
 * does it, and the comparison with a double reference.
 *
 * The bound (Higham, Accuracy and Stability of Numerical Algorithms, 2nd
 * ed., 3.1): a dot product of length k computed in a format with unit
 * roundoff u, in any order, with or without FMA, is within
 *     gamma_k sum_p |a_p b_p|,   gamma_k = k u / (1 - k u)
 * of the exact one. fp32 SIMT: u = 2^-24 (round to nearest). Tensor Cores:
 * the products of two halves are exact (11 + 11 significand bits fit in
 * fp32's 24), and the sums are fp32 but may truncate instead of rounding to
 * nearest (Fasi, Higham, Mikaitis, Pranesh, "Numerical behavior of NVIDIA
 * tensor cores", PeerJ Computer Science 2021): u = 2^-23 covers that. The
 * inputs' own rounding to fp16 is not an error of the kernel: the reference
 * multiplies the rounded inputs, as the hardware does.
 */
#ifndef PW_EX09_GEMM_CHECK_H
#define PW_EX09_GEMM_CHECK_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "simt.h"

#define EX09_U_FP32 0x1p-24   /* fp32, round to nearest */
#define EX09_U_TC 0x1p-23     /* fp32 sums that may truncate (Tensor Cores) */
#define EX09_SCRAMBLE_SEED 0x5eed09u   /* the second round's fragment layout */

/* A seed for pw_fill_random with its bits spread: xorshift's first numbers
 * from a small seed are tiny, and every matrix would start with -1. */
static inline uint64_t ex09_seed(int a, int b)
{
    return 0x9e3779b97f4a7c15ull * (uint64_t)(2 * a + 1) ^ 0xbf58476d1ce4e5b9ull * (uint64_t)(b + 1);
}

static inline double ex09_gamma(int k, double u)
{
    return k * u / (1 - k * u);
}

/* The IEEE binary16 nearest f (ties to even), as __float2half gives it:
 * subnormals below 2^-14, infinity from 65520 on. */
static inline uint16_t ex09_float_to_half(float f)
{
    uint16_t sign = signbit(f) ? 0x8000 : 0;
    double a = fabs((double)f);
    if (isnan(f)) return 0x7fff;
    if (a < 0x1p-14) return sign | (uint16_t)nearbyint(a * 0x1p24);   /* subnormal: steps of 2^-24 (1024: 2^-14) */
    int e;
    frexp(a, &e);                                    /* a in [2^(e-1), 2^e) */
    if (e - 1 > 15) return sign | 0x7c00;
    double r = nearbyint(ldexp(a, 11 - e));          /* 11 significant bits: r in [1024, 2048] */
    /* exponent field e - 1 + 15 and the 10 stored bits r - 1024; r = 2048
     * carries into the next exponent (and from 65504 on into infinity). */
    return sign | (uint16_t)(((e + 13) << 10) + (int)r);
}

static inline double ex09_half_to_double(uint16_t h)
{
    int e = (h >> 10) & 31, mant = h & 1023;
    double v = e == 0 ? ldexp(mant, -24) : e == 31 ? (mant ? NAN : INFINITY) : ldexp(1024 + mant, e - 25);
    return h & 0x8000 ? -v : v;
}

/* Compare got (rows x cols, leading dimension ldc) with the exact product
 * of A (rows x k, lda) and B (k x cols, ldb), given as doubles, within
 * gamma_k(u) sum |a b| per element. 0, or 1 after printing
 * "wrong\nFAIL: C[i][j] = got, want ..." (the caller adds why). */
static inline int ex09_compare(const double *A, int lda, const double *B, int ldb, const float *got, int ldc,
                               int rows, int cols, int k, double u, int *bad_i, int *bad_j)
{
    double g = ex09_gamma(k, u);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            double want = 0, abs = 0;
            for (int p = 0; p < k; p++) {
                double t = A[(size_t)i * lda + p] * B[(size_t)p * ldb + j];
                want += t;                           /* products of floats and halves are exact in double */
                abs += fabs(t);
            }
            double c = got[(size_t)i * ldc + j];
            if (fabs(c - want) <= g * abs) continue;
            printf("wrong\nFAIL: C[%d][%d] = %.9g, want %.9g (tolerance %.2g)", i, j, c, want, g * abs);
            *bad_i = i;
            *bad_j = j;
            return 1;
        }
    return 0;
}

/* The WMMA checkers (9.2, 9.3): every size with the emulator's fixed
 * fragment layout, then all again with a scrambled one, so a kernel that
 * guessed where an element sits in fragment.x[] passes the first round at
 * most. try_one(m, k, n, seed) returns nonzero on a wrong result; so does
 * this, at the first. */
static inline int ex09_both_layouts(const char *ex, const char *what, const int (*sizes)[3], size_t nsizes,
                                    int (*try_one)(int m, int k, int n, uint64_t seed))
{
    int bad = 0;
    for (int pass = 0; pass < 2 && !bad; pass++) {
        uint64_t seed = pass ? EX09_SCRAMBLE_SEED : 0;
        pw_simt_set_wmma_scramble(seed);
        if (seed) printf("exercise %s: the same with the fragment layout scrambled (seed 0x%llx)\n", ex, (unsigned long long)seed);
        else printf("exercise %s: %s, on the emulator, %zu sizes\n", ex, what, nsizes);
        for (size_t s = 0; s < nsizes && !bad; s++) bad = try_one(sizes[s][0], sizes[s][1], sizes[s][2], seed);
    }
    return bad;
}

#endif
