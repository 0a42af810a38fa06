/* tests/wrong/9.5-naive-scratch.cu: exercise 9.5 answered with naive
 * attention: the launch allocates an n x n buffer S, and each thread writes
 * its row's n scores there, then reads them back for the max, the sum and
 * the weights. The values are right (three passes in float, each exact
 * enough); the memory is not: 4 n^2 bytes beyond Q, K, V, O and L (40000
 * at n = 100) where FlashAttention needs none.
 * expect: FAIL: 40000 bytes of device memory beyond Q, K, V, O and L at n = 100.*n x n matrix */
#include <math.h>

#include "exercise.h"
#include "flash.h"

__global__ void naive_attention(const float *Q, const float *K, const float *V, float *S, float *O, float *L, int n,
                                int d)
{
    int row = blockIdx.x * FLASH_BR + threadIdx.x;
    if (row >= n) return;
    float scale = 1.0f / sqrtf((float)d), m = -INFINITY, l = 0.0f;
    float *s = S + (size_t)row * n;   /* WRONG: the row's scores in device memory */
    for (int j = 0; j < n; j++) {
        float dot = 0.0f;
        for (int c = 0; c < d; c++) dot += Q[row * d + c] * K[j * d + c];
        s[j] = dot * scale;
        m = fmaxf(m, s[j]);
    }
    for (int j = 0; j < n; j++) l += expf(s[j] - m);
    for (int c = 0; c < d; c++) {
        float acc = 0.0f;
        for (int j = 0; j < n; j++) acc += expf(s[j] - m) * V[j * d + c];
        O[row * d + c] = acc / l;
    }
    L[row] = m + logf(l);
}

void flash_launch(const float *dQ, const float *dK, const float *dV, float *dO, float *dL, int n, int d)
{
    float *S;
    cudaMalloc((void **)&S, (size_t)n * n * sizeof(float));
    naive_attention<<<(n + FLASH_BR - 1) / FLASH_BR, FLASH_BR>>>(dQ, dK, dV, S, dO, dL, n, d);
    cudaFree(S);
}
