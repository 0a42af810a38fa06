/* tests/wrong/8.6-ignores-b.cu: puzzle 8.6 with a slip of the keyboard: a
 * where b was meant, so every thread adds its element of a to itself and b
 * is never read. Within budget (2 reads, 1 write), but every value wrong.
 * expect: FAIL: out\[0\] = .*a\[0\] \+ a\[0\]: is b read at all */
#include "zip.h"

__global__ void zip(const float *a, const float *b, float *out, int n)
{
    (void)b; (void)n;
    int i = threadIdx.x;
    out[i] = a[i] + a[i];
}

void zip_launch(const float *d_a, const float *d_b, float *d_out, int n) { zip<<<1, n>>>(d_a, d_b, d_out, n); }
