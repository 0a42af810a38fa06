/* tests/wrong/8.12-no-barrier.cu: puzzle 8.12 with the __syncthreads()
 * left out: thread i reads s[i - 1] with nothing ordering it after thread
 * i - 1's store. The emulator may well run the stores first and give every
 * value right; racecheck names the hazard anyway, as compute-sanitizer
 * would on a GPU, where the order is not promised.
 * expect: FAIL: the emulator's checks found a problem.*racecheck */
#include "pool.h"

__global__ void pool(const float *a, float *out, int n)
{
    extern __shared__ float s[];
    (void)n;
    int i = threadIdx.x;
    s[i] = a[i];
    float sum = s[i];
    if (i >= 1) sum += s[i - 1];
    if (i >= 2) sum += s[i - 2];
    out[i] = sum;
}

void pool_launch(const float *d_a, float *d_out, int n) { pool<<<1, n, n * sizeof(float)>>>(d_a, d_out, n); }
