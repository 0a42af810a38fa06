/* exercises/09-tensor-cores/flash.cu: exercise 9.5, FlashAttention's
 * forward pass: attention without the n x n matrix.
 *
 * What it teaches: attention is O = softmax(Q K^T / sqrt(d)) V. Done
 * naively, the n x n scores S = Q K^T / sqrt(d) go to memory, the softmax
 * reads them and writes the weights P, and P V reads those: at n = 4096
 * that is 64 MiB written and read twice over, for one head, where Q, K, V
 * and O are 4 x 256 KiB at d = 16. FlashAttention never writes S: a block
 * takes a tile of query rows, walks over the keys one tile at a time, and
 * each row folds the tile's scores into its running max m, its running sum
 * l of exp(s - m) (exercise 6.3's online softmax) and a running output acc,
 * the sum of exp(s - m) V[j] over the keys seen so far. When a tile raises
 * the max, what l and acc hold was computed against the old one: work out
 * what they must be multiplied by from exp(a - b) = exp(a - c) exp(c - b),
 * as in 6.3. At the end O = acc / l and L = m + log l.
 *
 * The task: in flash(), between the two barriers of the key loop, the
 * scores of the tile and the online softmax update of m, l and acc; after
 * the loop the finish (only rows < n are written); and flash_launch().
 * The staging of K and V tiles in shared memory is given.
 *
 * The interface (flash.h):
 *   __global__ void flash(const float *Q, const float *K, const float *V, float *O, float *L, int n, int d);
 *     - Q, K, V: n x d row-major floats, n >= 1, 1 <= d <= FLASH_MAX_D (64);
 *     - O[i][c] = sum_j w_ij V[j][c], w_ij = exp(s_ij - L[i]), s_ij = (Q[i] . K[j]) / sqrt(d);
 *       L[i] = log sum_j exp(s_ij);
 *     - thread t of block b owns query row b FLASH_BR + t; blocks of FLASH_BR
 *       (32) threads; key tiles of FLASH_BC (32), the last one shorter;
 *     - device memory: Q, K, V read, O and L written, nothing else (no
 *       cudaMalloc of scores); one pass over K and V.
 *   void flash_launch(const float *dQ, const float *dK, const float *dV, float *dO, float *dL, int n, int d);
 *     - device pointers; enough blocks of FLASH_BR threads for n rows.
 *
 * What the checker tries (check_flash.c), on the SIMT emulator: n = 1, 7,
 * 64, 33, 100, 257 at d = 16, and d = 5 and 64, against naive attention in
 * double, every element within a bound derived in the checker; inputs with
 * logits within +-4, then logits up to ~960 (exp(960) is far past a
 * float's range) on rows whose max is their last key (so it grows at every
 * tile), and random large logits. Then, with the emulator's log of every
 * access at n = 100 and 257: the device memory touched beyond Q, K, V, O
 * and L (at most 2 floats a row; n x n scores are 4 n^2 bytes), the traffic
 * beyond Q read once and O, L written once (at most 4 floats a row), K and
 * V read once per block, and some of V read before the last of K (one pass).
 *
 *   make ex-9.5      grade this file (each failure is explained)
 *   make hint-9.5    one more hint level each time (3 levels, the last near the code)
 * The answer is in solutions/09-tensor-cores/flash.cu: try first.
 */
#include <math.h>

#include "exercise.h"
#include "flash.h"

/* nvcc (make gpu) warns, as an error, that the skeleton sets the tiles and
 * the row's state and never uses them: your TODOs will. Delete these lines
 * when they do. (Only nvcc knows this pragma; the emulator's build skips it.) */
#ifdef __NVCC__
#pragma nv_diag_suppress 550
#endif

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
        float s[FLASH_BC];   /* this tile's scores of this row: s[j] for key j0 + j */
        /* TODO: the scores s[j] = (q . Ks[j]) * scale of the kn keys of this tile (rows kn and up
         * of Ks and Vs hold no key of this tile); then fold them into m, l and acc: exp(s - m) only,
         * never exp(s) alone; when the max grows, rescale what l and acc already hold. */
        (void)s; (void)q; (void)scale; (void)m; (void)l; (void)acc;
        __syncthreads();   /* everyone has read the tile before the next one overwrites it */
    }
    /* TODO: the finish: if the row is live, O[row][c] = acc[c] / l and L[row] = m + log(l). */
    (void)O; (void)L;
}

void flash_launch(const float *dQ, const float *dK, const float *dV, float *dO, float *dL, int n, int d)
{
    /* TODO: the launch. Then delete the placeholder lines below. */
    (void)dQ; (void)dK; (void)dV; (void)dO; (void)dL; (void)n; (void)d;
    PW_NOT_YET_IMPLEMENTED();
}
