/* tests/wrong/9.5-sum-only.cu: exercise 9.5 with 6.3's update copied
 * over: the sum l is rescaled when the max grows, the output's
 * accumulator is not. The sum (and L) come out right, O does not.
 * expect: FAIL: .*the sum l is rescaled when the max grows but the output's accumulator is not */
#include <math.h>

#include "exercise.h"
#include "flash.h"

__global__ void flash(const float *Q, const float *K, const float *V, float *O, float *L, int n, int d)
{
    __shared__ float Ks[FLASH_BC][FLASH_MAX_D];
    __shared__ float Vs[FLASH_BC][FLASH_MAX_D];
    int t = threadIdx.x;
    int row = blockIdx.x * FLASH_BR + t;   /* this thread's query row */
    bool live = row < n;                   /* a thread past the last row still stages tiles and meets the barriers */
    float scale = 1.0f / sqrtf((float)d);
    float q[FLASH_MAX_D], acc[FLASH_MAX_D];
    for (int c = 0; c < d; c++) {
        q[c] = live ? Q[row * d + c] : 0.0f;
        acc[c] = 0.0f;
    }
    float m = -INFINITY, l = 0.0f;   /* the row's running max and sum (exercise 6.3's state) */
    for (int j0 = 0; j0 < n; j0 += FLASH_BC) {
        int kn = n - j0 < FLASH_BC ? n - j0 : FLASH_BC;   /* keys in this tile: fewer in the last one */
        /* Keys j0 .. j0 + kn - 1 are kn * d consecutive floats of K (and of V). */
        for (int e = t; e < kn * d; e += FLASH_BR) {
            Ks[e / d][e % d] = K[j0 * d + e];
            Vs[e / d][e % d] = V[j0 * d + e];
        }
        __syncthreads();   /* the tile is complete */
        float s[FLASH_BC];
        float tile_max = -INFINITY;
        for (int j = 0; j < kn; j++) {
            float dot = 0.0f;
            for (int c = 0; c < d; c++) dot += q[c] * Ks[j][c];
            s[j] = dot * scale;
            tile_max = fmaxf(tile_max, s[j]);
        }
        float m_new = fmaxf(m, tile_max);
        float alpha = expf(m - m_new);
        l *= alpha;
        /* WRONG: acc[c] *= alpha is missing */
        for (int j = 0; j < kn; j++) {
            float p = expf(s[j] - m_new);
            l += p;
            for (int c = 0; c < d; c++) acc[c] += p * Vs[j][c];
        }
        m = m_new;
        __syncthreads();   /* everyone has read the tile before the next one overwrites it */
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
