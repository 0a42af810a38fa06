/* tests/wrong/8.13-atomic-add.cu: puzzle 8.13 around the puzzle: every
 * thread atomicAdds its product into out[0]. No shared memory, no tree; n
 * read-modify-writes of one address, and the sum starts from whatever
 * out[0] held (the launch does not clear it).
 * expect: FAIL: the kernel uses atomic operations */
#include "dot.h"

__global__ void dot(const float *a, const float *b, float *out, int n)
{
    (void)n;
    int i = threadIdx.x;
    atomicAdd(out, a[i] * b[i]);
}

void dot_launch(const float *d_a, const float *d_b, float *d_out, int n) { dot<<<1, n, n * sizeof(float)>>>(d_a, d_b, d_out, n); }
