/* kernels/elementwise.c: chapter 01's loops and their references.
 * Built with -O3 -march=native: the independent loops are auto-vectorised
 * (16 floats per AVX-512 instruction), the dependent ones cannot be. */
#include "elementwise.h"

void square_loop(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = x[i] * x[i];
}

void saxpy_loop(float a, const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}

float sum_loop(const float *x, size_t n)
{
    /* Without -ffast-math the compiler must add in this exact order
     * (float addition is not associative), so this stays one chain. */
    float s = 0.0f;
    for (size_t i = 0; i < n; i++) s += x[i];
    return s;
}

/* Eight scalar chains, kept scalar on purpose: this chapter is about chains
 * in flight, and chapter 02 adds the vector lanes. (GCC 12 would otherwise
 * turn this loop into a tangle of vector loads and scalar adds, 3x slower
 * than the plain chains; clang packs some of the chains into vectors.) */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-vectorize")))
#endif
float sum_split8(const float *x, size_t n)
{
    /* Eight chains in flight hide the add latency: about 3 cycles x 2 adders. */
    float p0 = 0, p1 = 0, p2 = 0, p3 = 0, p4 = 0, p5 = 0, p6 = 0, p7 = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        p0 += x[i];     p1 += x[i + 1]; p2 += x[i + 2]; p3 += x[i + 3];
        p4 += x[i + 4]; p5 += x[i + 5]; p6 += x[i + 6]; p7 += x[i + 7];
    }
    for (; i < n; i++) p0 += x[i];      /* the tail, when n is not a multiple of 8 */
    return ((p0 + p1) + (p2 + p3)) + ((p4 + p5) + (p6 + p7));
}

void running_sum(const float *x, float *y, size_t n)
{
    float s = 0.0f;
    for (size_t i = 0; i < n; i++) {
        s += x[i];
        y[i] = s;
    }
}

void square_ref(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = (float)((double)x[i] * (double)x[i]);
}

void saxpy_ref(float a, const float *x, const float *y_in, float *y_out, size_t n)
{
    for (size_t i = 0; i < n; i++) y_out[i] = (float)((double)a * x[i] + (double)y_in[i]);
}

double sum_ref(const float *x, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) s += x[i];
    return s;
}

void running_sum_ref(const float *x, float *y, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) {
        s += x[i];
        y[i] = (float)s;
    }
}
