/* tests/wrong/8.5-next-element.cu: puzzle 8.5 off by one: thread i reads
 * a[i + 1], as if the elements were numbered from 1. The last thread reads
 * past the end of the n elements (into memory that happens to be there).
 * expect: FAIL: out\[0\] = .*that is a\[1\] \+ 10, the next element */
#include "map.h"

__global__ void map(const float *a, float *out, int n)
{
    (void)n;
    int i = threadIdx.x;
    out[i] = a[i + 1] + 10.0f;
}

void map_launch(const float *d_a, float *d_out, int n) { map<<<1, n>>>(d_a, d_out, n); }
