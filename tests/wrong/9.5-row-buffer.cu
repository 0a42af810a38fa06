/* tests/wrong/9.5-row-buffer.cu: exercise 9.5 with each row's scores kept
 * in a local array of the thread, 1024 floats: the first pass stages the
 * tiles of K and fills it, then the max and the sum come from it, and a
 * second pass stages the tiles of V for the weights. No device memory
 * beyond Q, K, V, O, L, and K and V are each read once per block; but all
 * of K is read before any of V (two passes), and on a GPU the array is
 * local memory: n floats per thread, n x n in all, and a row longer than
 * 1024 does not fit.
 * expect: FAIL: block 0 read all of K before any of V at n = 100 .*two passes */
#include <math.h>

#include "exercise.h"
#include "flash.h"

#define ROW_MAX 1024

__global__ void flash(const float *Q, const float *K, const float *V, float *O, float *L, int n, int d)
{
    __shared__ float Ks[FLASH_BC][FLASH_MAX_D];
    __shared__ float Vs[FLASH_BC][FLASH_MAX_D];
    int t = threadIdx.x;
    int row = blockIdx.x * FLASH_BR + t;
    bool live = row < n;
    float scale = 1.0f / sqrtf((float)d);
    float q[FLASH_MAX_D], acc[FLASH_MAX_D], srow[ROW_MAX];   /* WRONG: the whole row of scores */
    for (int c = 0; c < d; c++) {
        q[c] = live ? Q[row * d + c] : 0.0f;
        acc[c] = 0.0f;
    }
    for (int j0 = 0; j0 < n; j0 += FLASH_BC) {
        int kn = n - j0 < FLASH_BC ? n - j0 : FLASH_BC;
        for (int e = t; e < kn * d; e += FLASH_BR) Ks[e / d][e % d] = K[j0 * d + e];
        __syncthreads();
        for (int j = 0; j < kn; j++) {
            float dot = 0.0f;
            for (int c = 0; c < d; c++) dot += q[c] * Ks[j][c];
            srow[j0 + j] = dot * scale;
        }
        __syncthreads();
    }
    float m = -INFINITY, l = 0.0f;
    for (int j = 0; j < n; j++) m = fmaxf(m, srow[j]);
    for (int j = 0; j < n; j++) l += expf(srow[j] - m);
    for (int j0 = 0; j0 < n; j0 += FLASH_BC) {
        int kn = n - j0 < FLASH_BC ? n - j0 : FLASH_BC;
        for (int e = t; e < kn * d; e += FLASH_BR) Vs[e / d][e % d] = V[j0 * d + e];
        __syncthreads();
        for (int j = 0; j < kn; j++) {
            float p = expf(srow[j0 + j] - m);
            for (int c = 0; c < d; c++) acc[c] += p * Vs[j][c];
        }
        __syncthreads();
    }
    if (live) {
        for (int c = 0; c < d; c++) O[row * d + c] = acc[c] / l;
        L[row] = m + logf(l);
    }
}

void flash_launch(const float *dQ, const float *dK, const float *dV, float *dO, float *dL, int n, int d)
{
    dim3 grid((n + FLASH_BR - 1) / FLASH_BR), block(FLASH_BR);
    flash<<<grid, block>>>(dQ, dK, dV, dO, dL, n, d);
}
