/* tests/wrong/8.6-sum-in-out.cu: puzzle 8.6 with the sum built in out[i]:
 * copy a[i] there, then add b[i] to it. Every value is right, but out[i] is
 * written twice where the puzzle allows once (the compiler keeps the value
 * it just stored, so the read back of out[i] may or may not be made: the
 * second store is made either way). The sum belongs in a register.
 * expect: FAIL: thread 0 makes 2 global writes; the puzzle allows 1 per thread */
#include "zip.h"

__global__ void zip(const float *a, const float *b, float *out, int n)
{
    (void)n;
    int i = threadIdx.x;
    out[i] = a[i];
    out[i] += b[i];
}

void zip_launch(const float *d_a, const float *d_b, float *d_out, int n) { zip<<<1, n>>>(d_a, d_b, d_out, n); }
