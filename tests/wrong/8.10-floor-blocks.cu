/* tests/wrong/8.10-floor-blocks.cu: puzzle 8.10 with the grid n / block,
 * which rounds down: 9 elements in blocks of 4 get 2 blocks, 8 threads, and
 * element 8 has no thread (on sizes that are multiples of the block it
 * passes).
 * expect: FAIL: the launch ran 2 blocks of 4 threads for n = 9: 8 threads, so 1 element has no thread: n / block rounds down */
#include "blocks.h"

__global__ void blocks(const float *a, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] + 10.0f;
}

void blocks_launch(const float *d_a, float *d_out, int n, int block) { blocks<<<n / block, block>>>(d_a, d_out, n); }
