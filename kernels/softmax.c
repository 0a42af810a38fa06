/* kernels/softmax.c: see softmax.h. Built with -O3 -march=native: every
 * loop below is a plain loop over 16 independent lanes (an array of
 * partial results), which the compiler maps onto vector registers; the
 * order of the adds is the source's (-std=c11: no reassociation). */
#include "softmax.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* gcc keeps a branch for every  a < b ? c : d  on floats (the clamp and the
 * select of the exp, the max) unless AVX-512 masks can switch lanes off:
 * under C's default rules a comparison may trap, and an if-converted loop
 * would compare lanes the source did not. No trap is enabled in these
 * programs, so this file says so (kernels/simd_notrap.c does it with a flag);
 * an x86-64-v2 build went from 3.4 to 0.5 ns per exp. clang assumes it anyway. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math")
#endif

#if defined(__GNUC__) || defined(__clang__)
#define prefetch(p) __builtin_prefetch(p)
#else
#define prefetch(p) ((void)(p))
#endif

#define LANES 16   /* partial maxima and sums: one AVX-512 register, two AVX2 ones */

/* a*b + c. Where the build has FMA, as one fused instruction: the exp's
 * polynomial is then 7 instructions instead of 14, which took the exp from
 * 0.25 to 0.13 ns per float here (AVX-512, Zen 5). Elsewhere fmaf would be a
 * library call per element, so the plain expression (rounded twice, still
 * within the error the checks allow). */
#if defined(__FMA__) || defined(__ARM_FEATURE_FMA)
#define MADD(a, b, c) fmaf(a, b, c)
#else
#define MADD(a, b, c) ((a) * (b) + (c))
#endif

/* exp(x) for x <= 0 without a branch or a call. x = k ln2 + r with k whole
 * and |r| <= ln2/2; exp(x) = 2^k exp(r). ln2 is split in two (Cody and
 * Waite) so that k ln2 is exact enough; exp(r) by its Taylor series to r^7
 * (the next term, r^8/8! < 1.7e-8 for |r| <= 0.35, is below a float's
 * half ulp); 2^k is built in the exponent bits. Adding 1.5 x 2^23 rounds
 * to a whole number (the float has no fraction bits left at that size). */
static inline float exp_nonpos(float x)
{
    const float lo = -87.0f;                       /* exp(-87) = 1.6e-38, just above FLT_MIN */
    float xc = x >= lo ? x : lo;                   /* -inf (and NaN) become lo: no undefined int conversion */
    float kf = MADD(xc, 1.44269504f, 12582912.0f) - 12582912.0f;
    float r = MADD(kf, -1.428606765330187e-06f, MADD(kf, -0.693145751953125f, xc));
    float p = 1.0f / 5040;
    p = MADD(p, r, 1.0f / 720);
    p = MADD(p, r, 1.0f / 120);
    p = MADD(p, r, 1.0f / 24);
    p = MADD(p, r, 1.0f / 6);
    p = MADD(p, r, 0.5f);
    p = MADD(p, r, 1.0f);
    p = MADD(p, r, 1.0f);
    int32_t bits = ((int32_t)kf + 127) * (1 << 23);   /* 2^k: k >= -126 here */
    float scale;
    memcpy(&scale, &bits, sizeof scale);
    float e = p * scale;
    e = x == x ? e : x;                            /* NaN in (an all -inf row: -inf - -inf), NaN out */
    return x < lo ? 0.0f : e;
}

void softmax_exp_array(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = exp_nonpos(x[i]);
}

static void softmax_exp_shifted(const float *x, float *y, size_t n, float m)
{
    for (size_t i = 0; i < n; i++) y[i] = exp_nonpos(x[i] - m);
}

static float chunk_sum(const float *y, size_t n)
{
    float acc[LANES] = { 0 };
    size_t i = 0;
    for (; i + LANES <= n; i += LANES)
        for (int k = 0; k < LANES; k++) acc[k] += y[i + k];
    for (; i < n; i++) acc[0] += y[i];
    float s = 0.0f;
    for (int k = 0; k < LANES; k++) s += acc[k];
    return s;
}

static float row_max(const float *x, size_t n)
{
    float acc[LANES];
    for (int k = 0; k < LANES; k++) acc[k] = -INFINITY;
    size_t i = 0;
    for (; i + LANES <= n; i += LANES)
        for (int k = 0; k < LANES; k++) acc[k] = x[i + k] > acc[k] ? x[i + k] : acc[k];
    for (; i < n; i++) acc[0] = x[i] > acc[0] ? x[i] : acc[0];
    float m = acc[0];
    for (int k = 1; k < LANES; k++) m = acc[k] > m ? acc[k] : m;
    return m;
}

/* sum exp(x[i] - m) over one chunk (at most a few thousand floats), in
 * 16 float lanes: the x - m <= 0 the exp needs. */
static float chunk_sum_exp(const float *x, size_t n, float m)
{
    float acc[LANES] = { 0 };
    size_t i = 0;
    for (; i + LANES <= n; i += LANES)
        for (int k = 0; k < LANES; k++) acc[k] += exp_nonpos(x[i + k] - m);
    for (; i < n; i++) acc[0] += exp_nonpos(x[i] - m);
    float s = 0.0f;
    for (int k = 0; k < LANES; k++) s += acc[k];
    return s;
}

/* The whole row's sum: chunk sums in float, added in double. One float
 * per lane over a 16M-float row was 1.5e-3 off (each lane adds a million
 * small terms to a large sum, rounding each to the sum's precision); the
 * double costs one add per SOFTMAX_CHUNK floats. */
static double sum_exp(const float *x, size_t n, float m)
{
    double d = 0;
    for (size_t c = 0; c < n; c += SOFTMAX_CHUNK)
        d += chunk_sum_exp(x + c, n - c < SOFTMAX_CHUNK ? n - c : SOFTMAX_CHUNK, m);
    return d;
}

/* y = exp(x - m) / d: the pass every variant ends with (but 3pass_stored). */
static void normalise(const float *x, float *y, size_t n, float m, double d)
{
    float inv = (float)(1.0 / d);
    for (size_t i = 0; i < n; i++) y[i] = exp_nonpos(x[i] - m) * inv;
}

void softmax_3pass(const float *x, float *y, size_t n)
{
    float m = row_max(x, n);              /* pass 1: read x */
    double d = sum_exp(x, n, m);          /* pass 2: read x */
    normalise(x, y, n, m, d);             /* pass 3: read x, write y */
}

void softmax_3pass_stored(const float *x, float *y, size_t n)
{
    float m = row_max(x, n);              /* pass 1: read x */
    double d = 0;                         /* pass 2: read x, write y */
    for (size_t c = 0; c < n; c += SOFTMAX_CHUNK) {
        size_t len = n - c < SOFTMAX_CHUNK ? n - c : SOFTMAX_CHUNK;
        softmax_exp_shifted(x + c, y + c, len, m);
        d += chunk_sum(y + c, len);       /* the chunk just written, from L1 */
    }
    float inv = (float)(1.0 / d);
    for (size_t i = 0; i < n; i++) y[i] *= inv;   /* pass 3: read y, write y */
}

void softmax_online_stats(const float *x, size_t n, float *max, double *sum)
{
    float m = -INFINITY;
    double d = 0;                                 /* in double, as sum_exp (see there) */
    for (size_t c = 0; c < n; c += SOFTMAX_CHUNK) {
        size_t len = n - c < SOFTMAX_CHUNK ? n - c : SOFTMAX_CHUNK;
        /* Ask for the next chunk now, so that memory works while the exps
         * below run on this one (the hardware prefetcher runs ahead only
         * while loads miss, and the exps make none). */
        for (size_t k = c + SOFTMAX_CHUNK; k < c + 2 * SOFTMAX_CHUNK && k < n; k += 16) prefetch(x + k);
        float cm = row_max(x + c, len);           /* from memory into L1 */
        if (cm == -INFINITY) continue;            /* all masked: adds 0 (and -inf - -inf is NaN) */
        if (cm > m) {
            d *= exp_nonpos(m - cm);              /* rescale the sum so far; exp(-inf) = 0 at the start */
            m = cm;
        }
        d += chunk_sum_exp(x + c, len, m);        /* the same chunk again, from L1 */
    }
    *max = m;
    *sum = d;
}

void softmax_online(const float *x, float *y, size_t n)
{
    float m;
    double d;
    softmax_online_stats(x, n, &m, &d);   /* pass 1: read x */
    normalise(x, y, n, m, d);             /* pass 2: read x, write y */
}

void softmax_ref(const float *x, double *y, size_t n)
{
    double m = -INFINITY, d = 0;
    for (size_t i = 0; i < n; i++) m = x[i] > m ? x[i] : m;
    for (size_t i = 0; i < n; i++) d += exp((double)x[i] - m);
    for (size_t i = 0; i < n; i++) y[i] = exp((double)x[i] - m) / d;
}
