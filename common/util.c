/* common/util.c: aligned allocation, seeded data, ties. */
#include "util.h"
#include "errcheck.h"
#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

volatile double pw_sink;

void *pw_alloc_bytes(size_t bytes)
{
    /* aligned_alloc wants a size that is a multiple of the alignment. */
    size_t rounded = pw_ceil_div(bytes ? bytes : 1, PW_ALIGN) * PW_ALIGN;
    void *p = aligned_alloc(PW_ALIGN, rounded);
    PW_CHECK_ALLOC(p, rounded);
    return p;
}

float *pw_alloc_floats(size_t n) { return pw_alloc_bytes(n * sizeof(float)); }
double *pw_alloc_doubles(size_t n) { return pw_alloc_bytes(n * sizeof(double)); }
void pw_free(void *p) { free(p); }

void pw_fill_random(float *x, size_t n, uint64_t seed, float lo, float hi)
{
    uint64_t s = seed ? seed : 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < n; i++) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;           /* xorshift64 */
        float u = (float)(s >> 40) / (float)(1u << 24);    /* 24 bits -> [0,1) */
        x[i] = lo + (hi - lo) * u;
    }
}

void pw_consume(const void *p)
{
    /* A read through a volatile makes the compiler keep the buffer's writes. */
    pw_sink += ((const volatile unsigned char *)p)[0];
}

int pw_ties(const double *v, int n, int best, double share, int *out)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (i == best) continue;
        double a = fabs(v[i]), b = fabs(v[best]), big = a > b ? a : b;
        if (fabs(v[i] - v[best]) <= share * big) out[k++] = i;
    }
    return k;
}
