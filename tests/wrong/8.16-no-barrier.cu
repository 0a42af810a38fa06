/* tests/wrong/8.16-no-barrier.cu: puzzle 8.16 with the tree's barrier left
 * out: thread c may add s[c + half] before thread c + half has finished
 * adding into it. racecheck reports it even when the sums come out right.
 * expect: FAIL: the emulator's checks found a problem.*racecheck */
#include "axis_sum.h"

__global__ void axis_sum(const float *a, float *out, int rows, int cols)
{
    extern __shared__ float s[];
    (void)rows;
    int row = blockIdx.y, c = threadIdx.x;
    s[c] = c < cols ? a[row * cols + c] : 0.0f;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2)
        if (c < half) s[c] += s[c + half];
    if (c == 0) out[row] = s[0];
}

void axis_sum_launch(const float *d_a, float *d_out, int rows, int cols)
{
    int block = axis_sum_block(cols);
    axis_sum<<<dim3(1, rows), block, block * sizeof(float)>>>(d_a, d_out, rows, cols);
}
