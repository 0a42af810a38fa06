/* tests/wrong/8.16-barrier-in-if.cu: puzzle 8.16 with the tree's barrier
 * inside the if: only the threads still adding reach it, the others go on
 * to the next step's barrier or leave. On a GPU: a hang or garbage; the
 * emulator reports the barrier that not every thread reached.
 * expect: FAIL: the kernel stopped with an error
 * hint: every thread of the block must reach every __syncthreads */
#include "axis_sum.h"

__global__ void axis_sum(const float *a, float *out, int rows, int cols)
{
    extern __shared__ float s[];
    (void)rows;
    int row = blockIdx.y, c = threadIdx.x;
    s[c] = c < cols ? a[row * cols + c] : 0.0f;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2)
        if (c < half) {
            s[c] += s[c + half];
            __syncthreads();
        }
    if (c == 0) out[row] = s[0];
}

void axis_sum_launch(const float *d_a, float *d_out, int rows, int cols)
{
    int block = axis_sum_block(cols);
    axis_sum<<<dim3(1, rows), block, block * sizeof(float)>>>(d_a, d_out, rows, cols);
}
