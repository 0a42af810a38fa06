/* solutions/09-tensor-cores/flash.cu: a solution of exercise 9.5.
 *
 * Added to the skeleton exercises/09-tensor-cores/flash.cu: the scores of
 * a tile, the online softmax update of the row's max, sum and output
 * accumulator, the finish (O = acc / l, L = m + log l) and the launch.
 * Graded by: make solution-9.5
 *
 * Exercise 6.3's update, with one more thing to carry: the row of the
 * output. acc holds sum_j exp(s_j - m) V[j] over the keys seen so far,
 * relative to the current max m, as l holds sum_j exp(s_j - m). When a tile
 * raises the max from m to m', every term of both is exp(m - m') too large,
 * so both are multiplied by alpha = exp(m - m') (on the first tile m is
 * -inf and alpha = exp(-inf) = 0: nothing to keep). Only the tile's max is
 * looked for first, so there is one rescale per tile, not one per key.
 * Division by l comes once, after the last tile: before it, l is not yet
 * the row's sum.
 *
 * Memory: Q is read once, K and V once per block of 32 rows, O and L
 * written once; the state (m, l, acc) lives in registers. At n = 257,
 * d = 16 that is 16448 + 2 x 9 x 16448 bytes loaded and 17476 stored,
 * nothing else; the naive version's 257 x 257 scores alone are 264196
 * bytes, written and read back.
 */
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
        float tile_max = -INFINITY;                            /* added */
        for (int j = 0; j < kn; j++) {                         /* added: only the kn keys of this tile */
            float dot = 0.0f;                                  /* added */
            for (int c = 0; c < d; c++) dot += q[c] * Ks[j][c];   /* added */
            s[j] = dot * scale;                                /* added */
            tile_max = fmaxf(tile_max, s[j]);                  /* added */
        }
        float m_new = fmaxf(m, tile_max);                      /* added */
        float alpha = expf(m - m_new);                         /* added: what every term so far is too large by */
        l *= alpha;                                            /* added */
        for (int c = 0; c < d; c++) acc[c] *= alpha;           /* added: the output too, not only the sum */
        for (int j = 0; j < kn; j++) {                         /* added */
            float p = expf(s[j] - m_new);                      /* added: <= 1, never overflows */
            l += p;                                            /* added */
            for (int c = 0; c < d; c++) acc[c] += p * Vs[j][c];   /* added */
        }
        m = m_new;                                             /* added */
        __syncthreads();   /* everyone has read the tile before the next one overwrites it */
    }
    if (live) {                                                /* added */
        for (int c = 0; c < d; c++) O[row * d + c] = acc[c] / l;   /* added: l is the whole row's sum now */
        L[row] = m + logf(l);                                  /* added */
    }
}

void flash_launch(const float *dQ, const float *dK, const float *dV, float *dO, float *dL, int n, int d)
{
    dim3 grid((n + FLASH_BR - 1) / FLASH_BR), block(FLASH_BR);   /* added */
    flash<<<grid, block>>>(dQ, dK, dV, dO, dL, n, d);            /* added */
}
