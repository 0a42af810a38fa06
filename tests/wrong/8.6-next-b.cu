/* tests/wrong/8.6-next-b.cu: puzzle 8.6 off by one in one array only:
 * thread i adds b[i + 1], as if b were numbered from 1. The last thread reads
 * one past the end of b's n elements (the checker's arrays are longer, so
 * the emulator has nothing to stop); the values show it at out[0].
 * expect: FAIL: out\[0\] = .*that is a\[0\] \+ b\[1\], the next b */
#include "zip.h"

__global__ void zip(const float *a, const float *b, float *out, int n)
{
    (void)n;
    int i = threadIdx.x;
    out[i] = a[i] + b[i + 1];
}

void zip_launch(const float *d_a, const float *d_b, float *d_out, int n) { zip<<<1, n>>>(d_a, d_b, d_out, n); }
