/* kernels/gemm_gpu.cu: the GPU GEMM ladder (see gemm_gpu.cuh), C = A B with
 * A (m x k), B (k x n) and C (m x n) row-major.
 *
 * Each rung fixes what the emulator counts as the cost of the one below.
 * The numbers in the comments are the emulator's counts at m = n = k = 256
 * (./build/ch09/gemm prints them), per 1000 flops (flops = 2mnk):
 *   global sectors  32-byte sectors of global loads and stores (the traffic
 *                   L1/L2 must serve, before any cache hit);
 *   wavefronts      shared-memory passes of 128 bytes (a bank conflict adds
 *                   passes: wavefronts - ideal wavefronts = the conflicts);
 *   instructions    warp-level memory instructions (and mma_sync calls) per
 *                   FMA: the FMAs themselves are 1/32 per lane-FMA on every
 *                   SIMT rung, so what is left is overhead.
 * Every rung takes any m, n, k >= 1 (rung 8: multiples of 16), loading zeros
 * where a tile hangs over an edge and storing only what is inside C.
 *
 * The SIMT rungs launch as siboehm/SGEMM_CUDA's runner (src/runner.cu, its
 * RTX A6000 settings) launches the kernel each one mirrors, so that the
 * chapter can set the model beside that project's published measurements
 * (A6000, n = 4096). The code is this file's own; the parameters and the
 * thread-to-data mappings are SGEMM_CUDA's:
 *   rung 1  SGEMM_CUDA's kernel 1 "naive": block 32 x 32 threads, grid
 *           ceil(m/32) x ceil(n/32); row = 32 blockIdx.x + threadIdx.x,
 *           column = 32 blockIdx.y + threadIdx.y (a warp: 32 rows).
 *   rung 2  SGEMM_CUDA's kernel 2 "global memory coalescing": block 1024
 *           threads (1D), grid ceil(m/32) x ceil(n/32); row = 32 blockIdx.x
 *           + threadIdx.x / 32, column = 32 blockIdx.y + threadIdx.x % 32.
 *   rung 3  SGEMM_CUDA's kernel 3 "shared memory blocking": block 1024
 *           threads (here 32 x 32: the same warps), tile 32 x 32, BK 32.
 *   rung 4  SGEMM_CUDA's kernel 4 "1D blocktiling": block 512, tile 64 x 64,
 *           BK 8, TM 8 (8 outputs of one column a thread).
 *   rung 5  SGEMM_CUDA's kernel 5 "2D blocktiling": block 256, tile
 *           128 x 128, BK 8, TM = TN = 8.
 *   rung 6  SGEMM_CUDA's kernel 6 "vectorize": block 256, tile 128 x 128,
 *           BK 8, TM = TN = 8; float4 loads and stores, A transposed in
 *           shared memory.
 *   rung 7  SGEMM_CUDA's kernel 10 "warptiling": block 128 (4 warps), tile
 *           128 x 128, BK 16; warp tile WM = WN = 64 with WNITER 4 (so
 *           WMITER 1: 4 sub-tiles of 64 x 16), TM 8, TN 4; float4 loads,
 *           A transposed in shared memory.
 * Where they differ: SGEMM_CUDA computes C = alpha A B + beta C (its kernels
 * also read C: one more load per element of C, 1/(2k) of the traffic) and
 * its kernels 4-10 take only sizes their tiles divide (its runner drops
 * kernels 5 and 6 to 64 x 64 tiles below 128); these compute C = A B at any
 * size. Rung 3's grid is ceil(n/32) x ceil(m/32) (blockIdx.x -> column),
 * kernel 3's the other way round: the same blocks, run in another order.
 * SGEMM_CUDA's kernels 7-9 (bank-conflict fixes, autotuning) have no rung.
 */
#include "gemm_gpu.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#if !PW_SIMT_EMULATED
#include <cublas_v2.h>
#endif

/* ---- rung 1: naive ---------------------------------------------------------------------
 * A thread per element of C, blocks of 32 x 32 threads, threadIdx.x -> row.
 * The 32 lanes of a warp are 32 rows: each load of A touches 32 rows (32
 * sectors for 128 useful bytes), each store of C 32 rows too; only B (one
 * element for all) is a broadcast. Counted: 518 global sectors per 1000
 * flops, 515.6 of them loads (500 of A, 15.6 of B). */
__global__ void gg_naive(const float *A, const float *B, float *C, int m, int n, int k)
{
    int row = blockIdx.x * 32 + threadIdx.x, col = blockIdx.y * 32 + threadIdx.y;
    if (row >= m || col >= n) return;
    float acc = 0;
    for (int p = 0; p < k; p++) acc += A[(size_t)row * k + p] * B[(size_t)p * n + col];
    C[(size_t)row * n + col] = acc;
}

/* ---- rung 2: coalesced -----------------------------------------------------------------
 * Blocks of 1024 threads in one dimension, each a 32 x 32 tile of C laid
 * out row by row: a warp is one row of 32 consecutive columns. It now reads
 * 32 consecutive floats of a row of B (4 sectors: all 128 bytes used) and
 * one element of A (a broadcast, 1 sector): 33 sectors per 32 FMAs become
 * 5. Global sectors per 1000 flops: 518 -> 78. */
__global__ void gg_coalesced(const float *A, const float *B, float *C, int m, int n, int k)
{
    int row = blockIdx.x * 32 + threadIdx.x / 32, col = blockIdx.y * 32 + threadIdx.x % 32;
    if (row >= m || col >= n) return;
    float acc = 0;
    for (int p = 0; p < k; p++) acc += A[(size_t)row * k + p] * B[(size_t)p * n + col];
    C[(size_t)row * n + col] = acc;
}

/* ---- rung 3: shared-memory tiles -------------------------------------------------------
 * A block of 32 x 32 threads loads a 32 x 32 tile of A and of B once into
 * shared memory; each element then serves 32 threads. Global sectors per
 * 1000 flops: 78 -> 4.2 (each float of A and B read n/32 times, not n).
 * The cost moves to shared memory: 2 shared loads per FMA, 1 wavefront each
 * per warp (As[ty][p] is a broadcast, Bs[p][tx] 32 banks): 32 wavefronts
 * per 1000 flops, none of them conflicts. */
enum { T3 = 32 };
__global__ void gg_smem(const float *A, const float *B, float *C, int m, int n, int k)
{
    __shared__ float As[T3 * T3];
    __shared__ float Bs[T3 * T3];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T3 + ty, col = blockIdx.x * T3 + tx;
    float acc = 0;
    for (int t = 0; t < k; t += T3) {
        /* zeros past the edges: the inner loop needs no test */
        As[ty * T3 + tx] = (row < m && t + tx < k) ? A[(size_t)row * k + t + tx] : 0.0f;
        Bs[ty * T3 + tx] = (t + ty < k && col < n) ? B[(size_t)(t + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int p = 0; p < T3; p++) acc += As[ty * T3 + p] * Bs[p * T3 + tx];
        __syncthreads();   /* nobody overwrites a tile another thread still reads */
    }
    if (row < m && col < n) C[(size_t)row * n + col] = acc;
}

/* ---- rung 4: 1D register tiling --------------------------------------------------------
 * 64 x 64 tiles, BK = 8, 512 threads; each thread computes 8 outputs of one
 * column. A value of B read from shared memory into a register serves 8 FMAs,
 * and a warp's 8 reads of A are broadcasts: 9 shared loads per 8 FMAs
 * instead of 16. Per 1000 flops: shared wavefronts 32 -> 18, global sectors
 * 4.2 -> 2.2 (64-wide tiles: each float read n/64 times), warp memory
 * instructions 33 -> 19. */
enum { R4_BM = 64, R4_BN = 64, R4_BK = 8, R4_TM = 8, R4_THREADS = R4_BM * R4_BN / R4_TM };
__global__ void gg_reg1d(const float *A, const float *B, float *C, int m, int n, int k)
{
    __shared__ float As[R4_BM * R4_BK];   /* [row][p] */
    __shared__ float Bs[R4_BK * R4_BN];   /* [p][col] */
    int tid = threadIdx.x, tc = tid % R4_BN, tr = tid / R4_BN;
    int row0 = blockIdx.y * R4_BM, col0 = blockIdx.x * R4_BN;
    float acc[R4_TM] = { 0 };
    for (int t = 0; t < k; t += R4_BK) {
        int ar = tid / R4_BK, ac = tid % R4_BK;   /* 512 threads = 64 x 8 of A, 8 x 64 of B */
        As[tid] = (row0 + ar < m && t + ac < k) ? A[(size_t)(row0 + ar) * k + t + ac] : 0.0f;
        int br = tid / R4_BN, bc = tid % R4_BN;
        Bs[tid] = (t + br < k && col0 + bc < n) ? B[(size_t)(t + br) * n + col0 + bc] : 0.0f;
        __syncthreads();
        for (int p = 0; p < R4_BK; p++) {
            float b = Bs[p * R4_BN + tc];
            for (int i = 0; i < R4_TM; i++) acc[i] += As[(tr * R4_TM + i) * R4_BK + p] * b;
        }
        __syncthreads();
    }
    int col = col0 + tc;
    for (int i = 0; i < R4_TM; i++) {
        int row = row0 + tr * R4_TM + i;
        if (row < m && col < n) C[(size_t)row * n + col] = acc[i];
    }
}

/* ---- rung 5: 2D register tiling --------------------------------------------------------
 * 128 x 128 tiles, BK = 8, 256 threads of 8 x 8 outputs each: per step p a
 * thread loads 8 values of A and 8 of B into registers and does 64 FMAs with
 * them (an outer product), so 16 shared loads serve 64 FMAs instead of 9
 * serving 8. Per 1000 flops: warp memory instructions 19 -> 4.5, shared
 * wavefronts 18 -> 12, global loads 2.0 -> 1.0 sectors (128-wide tiles).
 * What it costs: the warp's reads of A (two rows of threads 64 floats
 * apart: the same bank, 2-way conflicts) and of B (16 threads 8 floats
 * apart: 16 addresses on 4 banks, 4-way): 65% of its wavefronts are
 * conflicts; and its stores of C are 8 floats apart (2.0 store sectors per
 * 1000 flops against 0.24). Rung 6 removes both. */
enum { R5_BM = 128, R5_BN = 128, R5_BK = 8, R5_TM = 8, R5_TN = 8, R5_THREADS = 256 };
__global__ void gg_reg2d(const float *A, const float *B, float *C, int m, int n, int k)
{
    __shared__ float As[R5_BM * R5_BK];   /* [row][p] */
    __shared__ float Bs[R5_BK * R5_BN];   /* [p][col] */
    int tid = threadIdx.x, tr = tid / (R5_BN / R5_TN), tc = tid % (R5_BN / R5_TN);
    int row0 = blockIdx.y * R5_BM, col0 = blockIdx.x * R5_BN;
    float acc[R5_TM][R5_TN] = { { 0 } };
    float ra[R5_TM], rb[R5_TN];
    for (int t = 0; t < k; t += R5_BK) {
        for (int e = tid; e < R5_BM * R5_BK; e += R5_THREADS) {   /* 4 of A and 4 of B per thread */
            int ar = e / R5_BK, ac = e % R5_BK;
            As[e] = (row0 + ar < m && t + ac < k) ? A[(size_t)(row0 + ar) * k + t + ac] : 0.0f;
            int br = e / R5_BN, bc = e % R5_BN;
            Bs[e] = (t + br < k && col0 + bc < n) ? B[(size_t)(t + br) * n + col0 + bc] : 0.0f;
        }
        __syncthreads();
        for (int p = 0; p < R5_BK; p++) {
            for (int i = 0; i < R5_TM; i++) ra[i] = As[(tr * R5_TM + i) * R5_BK + p];
            for (int j = 0; j < R5_TN; j++) rb[j] = Bs[p * R5_BN + tc * R5_TN + j];
            for (int i = 0; i < R5_TM; i++)
                for (int j = 0; j < R5_TN; j++) acc[i][j] += ra[i] * rb[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < R5_TM; i++) {
        int row = row0 + tr * R5_TM + i;
        for (int j = 0; j < R5_TN; j++) {
            int col = col0 + tc * R5_TN + j;
            if (row < m && col < n) C[(size_t)row * n + col] = acc[i][j];
        }
    }
}

/* ---- rungs 6 and 7 load their tiles alike ---------------------------------------------
 * A bm x bk tile of A and a bk x bn tile of B, in float4 pieces: piece e is
 * row e / (bk/4), columns 4 (e % (bk/4)) .. + 3 of A's tile, and row
 * e / (bn/4), columns 4 (e % (bn/4)) .. + 3 of B's (rung 6: 128 x 8 and
 * 8 x 128, one piece of each per thread, 256 threads; rung 7: 128 x 16 and
 * 16 x 128, four of each, 128 threads). A float4 is 4x fewer load
 * instructions than rung 5's floats. It needs 16-byte alignment: it is used
 * where the leading dimension is a multiple of 4 (every row then starts
 * 16-byte aligned; cudaMalloc aligns the base) and the 4 elements are inside
 * the matrix; elsewhere the thread loads its 4 floats one by one, zeros past
 * the edges. A's tile is stored transposed, As[p][row] with row stride lda,
 * so that the compute loop reads consecutive rows of A as float4s. */

/* One 16-byte load or store: LDG.128 / LDS.128 / STS.128 on a GPU, one
 * access of a lane's 16 bytes. On the emulator the host compiler would split
 * a float4 copy into four 4-byte accesses (gcc), or make it a memcpy call
 * that nothing sees (clang), so there the access is made explicitly, counted
 * and checked as the GPU's one instruction. */
__device__ static inline float4 gg_ld4(const float *p)
{
#if PW_SIMT_EMULATED
    float4 v;
    pw_simt_move(&v, p, sizeof v, 0);
    return v;
#else
    return *(const float4 *)p;
#endif
}
__device__ static inline void gg_st4(float *p, float4 v)
{
#if PW_SIMT_EMULATED
    pw_simt_move(p, &v, sizeof v, 1);
#else
    *(float4 *)p = v;
#endif
}
/* Piece e of the tiles at step t (see above). Forced inline: each call is
 * its own load instruction, as the GPU's unrolled code has them (rung 7's
 * four calls are one round of independent loads, not four). */
__device__ __forceinline__ static void gg_tile_piece(const float *A, const float *B, float *As, int lda, float *Bs,
                                                     int bn, int bk, int m, int n, int k, int row0, int col0, int t,
                                                     int e)
{
    int ar = e / (bk / 4), ac = e % (bk / 4) * 4;   /* a warp: 32 / (bk/4) rows x 4 bk bytes */
    int gr = row0 + ar, gc = t + ac;
    float a[4];
    if (k % 4 == 0 && gr < m && gc + 3 < k) {
        float4 v = gg_ld4(&A[(size_t)gr * k + gc]);
        a[0] = v.x; a[1] = v.y; a[2] = v.z; a[3] = v.w;
    } else {
        for (int q = 0; q < 4; q++) a[q] = (gr < m && gc + q < k) ? A[(size_t)gr * k + gc + q] : 0.0f;
    }
    for (int q = 0; q < 4; q++) As[(ac + q) * lda + ar] = a[q];

    int br = e / (bn / 4), bc = e % (bn / 4) * 4; /* a warp: one row of the tile, 512 bytes = 16 sectors */
    gr = t + br;
    gc = col0 + bc;
    float4 b;
    if (n % 4 == 0 && gr < k && gc + 3 < n) {
        b = gg_ld4(&B[(size_t)gr * n + gc]);
    } else {
        float s[4];
        for (int q = 0; q < 4; q++) s[q] = (gr < k && gc + q < n) ? B[(size_t)gr * n + gc + q] : 0.0f;
        b = make_float4(s[0], s[1], s[2], s[3]);
    }
    gg_st4(&Bs[br * bn + bc], b);
}

/* Four outputs of one row of C from a float4, as one float4 store where the
 * row is 16-byte aligned and all four columns are inside C. */
__device__ static void gg_store4(float *C, int m, int n, int row, int col, const float *v)
{
    if (row >= m) return;
    if (n % 4 == 0 && col + 3 < n) {
        gg_st4(&C[(size_t)row * n + col], make_float4(v[0], v[1], v[2], v[3]));
    } else {
        for (int q = 0; q < 4; q++)
            if (col + q < n) C[(size_t)row * n + col + q] = v[q];
    }
}

/* ---- rung 6: vectorised -----------------------------------------------------------------
 * Rung 5's tiles and 8 x 8 outputs per thread, with float4 loads and stores:
 * global and shared traffic in 16-byte lanes, so a warp moves 512 bytes per
 * instruction instead of 128. A is transposed in shared memory, so a
 * thread's 8 values of A are 8 consecutive floats (2 float4 reads, no
 * conflict: the warp's two rows of threads read 2 addresses); its 8 of B
 * are 2 float4 too. Per 1000 flops: warp memory instructions 4.5 -> 1.2,
 * shared wavefronts 12 -> 2.8 (conflicts 65% -> 39% of them: B's float4
 * reads 32 bytes apart and A's transposed stores, 2-way, remain), global
 * store sectors 2.0 -> 0.5 (float4 stores). */
enum { V_BM = 128, V_BN = 128, V_BK = 8, V_THREADS = 256 };
__global__ void gg_vec4(const float *A, const float *B, float *C, int m, int n, int k)
{
    __shared__ __align__(16) float As[V_BK * V_BM];   /* [p][row]: transposed */
    __shared__ __align__(16) float Bs[V_BK * V_BN];   /* [p][col] */
    int tid = threadIdx.x, tr = tid / 16, tc = tid % 16;
    int row0 = blockIdx.y * V_BM, col0 = blockIdx.x * V_BN;
    float acc[8][8] = { { 0 } };
    for (int t = 0; t < k; t += V_BK) {
        gg_tile_piece(A, B, As, V_BM, Bs, V_BN, V_BK, m, n, k, row0, col0, t, tid);   /* a warp: 16 rows of A */
        __syncthreads();
        for (int p = 0; p < V_BK; p++) {
            float4 a0 = gg_ld4(&As[p * V_BM + tr * 8]), a1 = gg_ld4(&As[p * V_BM + tr * 8 + 4]);
            float4 b0 = gg_ld4(&Bs[p * V_BN + tc * 8]), b1 = gg_ld4(&Bs[p * V_BN + tc * 8 + 4]);
            float ra[8] = { a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w };
            float rb[8] = { b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w };
            for (int i = 0; i < 8; i++)
                for (int j = 0; j < 8; j++) acc[i][j] += ra[i] * rb[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < 8; i++) {
        gg_store4(C, m, n, row0 + tr * 8 + i, col0 + tc * 8, &acc[i][0]);
        gg_store4(C, m, n, row0 + tr * 8 + i, col0 + tc * 8 + 4, &acc[i][4]);
    }
}

/* ---- rung 7: warp tiling ------------------------------------------------------------------
 * SGEMM_CUDA's kernel 10 with its A6000 parameters: 128 threads (4 warps)
 * share a 128 x 128 block tile and step k by BK = 16. Each warp owns a
 * 64 x 64 warp tile (2 x 2 warps), computed as WNITER = 4 sub-tiles of
 * 64 x 16 side by side; in each, lane (r, c) = (lane / 4, lane % 4) owns
 * TM x TN = 8 x 4 outputs: 128 accumulators a thread. Per p a thread reads
 * its 8 values of A (2 float4) and 4 of B per sub-tile (4 float4), 6 shared
 * loads for 128 FMAs, where rung 6 needs 4 for 64. A warp's float4 reads of
 * B are contiguous (4 lanes side by side, 64 bytes, the rest broadcasts),
 * where rung 6's lanes read B 32 bytes apart; its reads of A are 8 float4
 * 32 bytes apart (2-way: lane rows r and r + 4 share banks). BK = 16 halves
 * the barriers, and each thread loads 4 float4 of A and 4 of B a step, all
 * independent (one round). A's tile is transposed, rows of 128 floats as in
 * kernel 10 (not padded): each 4-byte store of a warp writes 8 consecutive
 * words in each of 4 rows of the transposed tile, and rows 128 floats apart
 * start on the same bank: 4-way conflicts (kernel 8's padding, which rung
 * 7 does not copy, would make them 2-way). Per 1000 flops: shared
 * wavefronts 2.8 -> 1.6 (conflicts 39% -> 38% of them: A's stores and
 * reads), warp memory instructions 1.21 -> 0.96, barriers halved, global
 * store sectors 0.5 -> 0.24 (a warp's float4 stores are 8 rows of 64
 * contiguous bytes, 16 sectors, where rung 6's are 16-byte pieces 32 bytes
 * apart, a sector each: 32). */
enum { W_BM = 128, W_BN = 128, W_BK = 16, W_THREADS = 128, W_WM = 64, W_WN = 64, W_WNITER = 4, W_TM = 8, W_TN = 4,
       W_WMITER = W_WM * W_WN / (32 * W_TM * W_TN * W_WNITER),   /* 1 */
       W_SUBM = W_WM / W_WMITER, W_SUBN = W_WN / W_WNITER };      /* the warp's sub-tile: 64 x 16 */
__global__ void gg_warptile(const float *A, const float *B, float *C, int m, int n, int k)
{
    __shared__ __align__(16) float As[W_BK * W_BM];   /* [p][row]: transposed */
    __shared__ __align__(16) float Bs[W_BK * W_BN];   /* [p][col] */
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    int wr = warp / (W_BN / W_WN), wc = warp % (W_BN / W_WN);              /* 2 x 2 warps */
    int lr = lane / (W_SUBN / W_TN), lc = lane % (W_SUBN / W_TN);          /* 8 x 4 lanes */
    int row0 = blockIdx.y * W_BM, col0 = blockIdx.x * W_BN;
    float acc[W_WMITER * W_TM][W_WNITER * W_TN] = { { 0 } };
    for (int t = 0; t < k; t += W_BK) {
        /* 4 pieces of each tile a thread (W_BM * W_BK / 4 / W_THREADS), written out: one load instruction each */
        gg_tile_piece(A, B, As, W_BM, Bs, W_BN, W_BK, m, n, k, row0, col0, t, tid);
        gg_tile_piece(A, B, As, W_BM, Bs, W_BN, W_BK, m, n, k, row0, col0, t, tid + W_THREADS);
        gg_tile_piece(A, B, As, W_BM, Bs, W_BN, W_BK, m, n, k, row0, col0, t, tid + 2 * W_THREADS);
        gg_tile_piece(A, B, As, W_BM, Bs, W_BN, W_BK, m, n, k, row0, col0, t, tid + 3 * W_THREADS);
        __syncthreads();
        for (int p = 0; p < W_BK; p++) {
            float ra[W_WMITER * W_TM], rb[W_WNITER * W_TN];
            for (int si = 0; si < W_WMITER; si++)
                for (int i = 0; i < W_TM; i += 4) {
                    float4 v = gg_ld4(&As[p * W_BM + wr * W_WM + si * W_SUBM + lr * W_TM + i]);
                    float *r = &ra[si * W_TM + i];
                    r[0] = v.x; r[1] = v.y; r[2] = v.z; r[3] = v.w;
                }
            for (int sj = 0; sj < W_WNITER; sj++)
                for (int j = 0; j < W_TN; j += 4) {
                    float4 v = gg_ld4(&Bs[p * W_BN + wc * W_WN + sj * W_SUBN + lc * W_TN + j]);
                    float *r = &rb[sj * W_TN + j];
                    r[0] = v.x; r[1] = v.y; r[2] = v.z; r[3] = v.w;
                }
            for (int i = 0; i < W_WMITER * W_TM; i++)
                for (int j = 0; j < W_WNITER * W_TN; j++) acc[i][j] += ra[i] * rb[j];
        }
        __syncthreads();
    }
    for (int si = 0; si < W_WMITER; si++)
        for (int i = 0; i < W_TM; i++)
            for (int sj = 0; sj < W_WNITER; sj++)
                for (int j = 0; j < W_TN; j += 4)
                    gg_store4(C, m, n, row0 + wr * W_WM + si * W_SUBM + lr * W_TM + i,
                              col0 + wc * W_WN + sj * W_SUBN + lc * W_TN + j, &acc[si * W_TM + i][sj * W_TN + j]);
}

/* ---- rung 8: WMMA from global memory ---------------------------------------------------
 * One warp per 16 x 16 tile of C: mma_sync does a 16x16x16 product (8192
 * flops) in one warp instruction, where rungs 1-7 need 4096 FFMA lane-
 * operations (128 warp instructions). The fragments come straight from
 * global memory (load_matrix_sync: ldm = k for A, n for B), so every warp
 * reads its 16 x k strip of A and k x 16 strip of B itself. Per 1000 flops:
 * warp instructions 0.96 -> 0.76 (no FFMAs on top: 8192 flops per mma_sync),
 * but global sectors 1.2 -> 4.2, rung 3's traffic again (each element
 * serves one 16-wide tile). load_matrix_sync needs a 32-byte
 * aligned pointer and ldm a multiple of 8 elements: m, n, k multiples of 16
 * (gg_launch refuses others; the driver pads). 4 warps per block. */
using namespace nvcuda;
enum { WG_WARPS = 4 };
template <typename T>
__global__ void gg_wmma_global(const T *A, const T *B, float *C, int m, int n, int k)
{
    int warp = threadIdx.x / 32;
    int tile_row = blockIdx.y, tile_col = blockIdx.x * WG_WARPS + warp;
    if (tile_col * 16 >= n || tile_row * 16 >= m) return;   /* the whole warp leaves together */
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int p = 0; p < k; p += 16) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::row_major> b;
        wmma::load_matrix_sync(a, A + (size_t)tile_row * 16 * k + p, (unsigned)k);
        wmma::load_matrix_sync(b, B + (size_t)p * n + tile_col * 16, (unsigned)n);
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(C + (size_t)tile_row * 16 * n + tile_col * 16, acc, (unsigned)n, wmma::mem_row_major);
}

/* ---- rung 9: WMMA with shared-memory staging ---------------------------------------------
 * A block of 4 warps computes a 64 x 64 tile of C; each warp a 32 x 32
 * quarter as 2 x 2 accumulator fragments. Per step of BK = 32 the block
 * stages a 64 x 32 tile of A and a 32 x 64 tile of B in shared memory, two
 * 16-bit elements per 32-bit word (zeros past the edges: any m, n, k), then
 * each warp loads 2 A and 2 B fragments per 16 of k and does 4 mma_sync with
 * them: each fragment serves 2 products, and each element of A and B is read
 * from global memory once per 64-wide tile instead of once per 16-wide warp
 * tile: global sectors per 1000 flops 4.2 -> 1.2 (loads 3.9 -> 0.98).
 * Shared rows are padded by 8 elements (16 bytes) so that the 16 rows of a
 * fragment do not start on the same banks (a row of 32 halves is 64 bytes:
 * unpadded, rows 2 apart share banks); the padded strides (40 and 72
 * elements) keep ldm a multiple of 8 and every fragment 32-byte aligned.
 * What conflicts are left (12% of the wavefronts at 256) are the staging
 * stores of A: a warp writes 2 rows of 16 words, 20 words apart, so 4 lanes
 * share banks. The accumulators go out through shared memory (Cs, 64 x 68
 * floats) so ragged edges of C are written element by element with guards. */
enum { WS_BM = 64, WS_BN = 64, WS_BK = 32, WS_THREADS = 128, WS_LDA = WS_BK + 8, WS_LDB = WS_BN + 8, WS_LDC = WS_BN + 4 };
__device__ static inline __half gg_from_float(float x, __half *) { return __float2half_rn(x); }
__device__ static inline __nv_bfloat16 gg_from_float(float x, __nv_bfloat16 *) { return __float2bfloat16_rn(x); }
__device__ static inline float gg_from_float(float x, float *) { return x; }

/* Elements (r, c) and (r, c + 1) of a rows x cols matrix of 16-bit values,
 * as one 32-bit word (the first in the low half, as both GPUs and x86 are
 * little-endian); zero bits past the edges (+0 in fp16 and in bf16). One
 * 4-byte load where the pair is inside and 4-byte aligned (cols even). */
__device__ static unsigned gg_load_pair(const unsigned short *X, int rows, int cols, int r, int c)
{
    if (r >= rows) return 0;
    const unsigned short *p = X + (size_t)r * cols + c;
    if (cols % 2 == 0 && c + 1 < cols) return *(const unsigned *)p;
    unsigned lo = c < cols ? p[0] : 0u, hi = c + 1 < cols ? p[1] : 0u;
    return lo | hi << 16;
}

template <typename T>
__global__ void gg_wmma_shared(const T *A, const T *B, float *C, int m, int n, int k)
{
    __shared__ __align__(32) T As[WS_BM * WS_LDA];   /* [row][p] */
    __shared__ __align__(32) T Bs[WS_BK * WS_LDB];   /* [p][col] */
    __shared__ __align__(32) float Cs[WS_BM * WS_LDC];
    int tid = threadIdx.x, warp = tid / 32, wr = warp / 2, wc = warp % 2;
    int row0 = blockIdx.y * WS_BM, col0 = blockIdx.x * WS_BN;
    /* The tiles move as raw bits, two 16-bit elements per 32-bit word. */
    const unsigned short *Ab = (const unsigned short *)A, *Bb = (const unsigned short *)B;
    unsigned *As32 = (unsigned *)As, *Bs32 = (unsigned *)Bs;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) wmma::fill_fragment(acc[i][j], 0.0f);
    for (int t = 0; t < k; t += WS_BK) {
        for (int e = tid; e < WS_BM * WS_BK / 2; e += WS_THREADS) {   /* a warp: 2 rows of 32 elements */
            int r = e / (WS_BK / 2), c = e % (WS_BK / 2) * 2;
            As32[(r * WS_LDA + c) / 2] = gg_load_pair(Ab, m, k, row0 + r, t + c);
        }
        for (int e = tid; e < WS_BK * WS_BN / 2; e += WS_THREADS) {   /* a warp: 1 row of 64 elements */
            int r = e / (WS_BN / 2), c = e % (WS_BN / 2) * 2;
            Bs32[(r * WS_LDB + c) / 2] = gg_load_pair(Bb, k, n, t + r, col0 + c);
        }
        __syncthreads();
        for (int p = 0; p < WS_BK; p += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> a[2];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::row_major> b[2];
            for (int i = 0; i < 2; i++) wmma::load_matrix_sync(a[i], &As[(wr * 32 + i * 16) * WS_LDA + p], WS_LDA);
            for (int j = 0; j < 2; j++) wmma::load_matrix_sync(b[j], &Bs[p * WS_LDB + wc * 32 + j * 16], WS_LDB);
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 2; j++) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            wmma::store_matrix_sync(&Cs[(wr * 32 + i * 16) * WS_LDC + wc * 32 + j * 16], acc[i][j], WS_LDC,
                                    wmma::mem_row_major);
    __syncthreads();
    for (int e = tid; e < WS_BM * WS_BN; e += WS_THREADS) {
        int r = e / WS_BN, c = e % WS_BN;
        if (row0 + r < m && col0 + c < n) C[(size_t)(row0 + r) * n + col0 + c] = Cs[r * WS_LDC + c];
    }
}

/* ---- conversion ------------------------------------------------------------------------- */
template <typename T>
__global__ void gg_convert_kernel(const float *src, int rows, int cols, T *dst, int pad_rows, int ld)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y;
    if (c >= ld || r >= pad_rows) return;
    float v = (r < rows && c < cols) ? src[(size_t)r * cols + c] : 0.0f;
    dst[(size_t)r * ld + c] = gg_from_float(v, (T *)0);
}

void gg_convert(gg_type t, const float *src, int rows, int cols, void *dst, int pad_rows, int ld)
{
    dim3 grid((unsigned)((ld + 255) / 256), (unsigned)pad_rows);
    switch (t) {
    case GG_F16: gg_convert_kernel<__half><<<grid, 256>>>(src, rows, cols, (__half *)dst, pad_rows, ld); break;
    case GG_BF16:
        gg_convert_kernel<__nv_bfloat16><<<grid, 256>>>(src, rows, cols, (__nv_bfloat16 *)dst, pad_rows, ld);
        break;
    default: gg_convert_kernel<float><<<grid, 256>>>(src, rows, cols, (float *)dst, pad_rows, ld); break;
    }
}

/* ---- rung 0: cuBLAS (GPU build only) -------------------------------------------------------
 * cuBLAS is column-major. A row-major m x n matrix is the column-major n x m
 * matrix of its transpose, so C = A B row-major is C^T = B^T A^T column-major:
 * pass B first, with the sizes (n, m, k) and leading dimensions n, k, n.
 * The default math mode keeps cublasSgemm on fp32 FMAs (TF32 Tensor Cores
 * only with CUBLAS_TF32_TENSOR_OP_MATH), so rung 0 fp32 is the SIMT yardstick. */
#if !PW_SIMT_EMULATED
static cublasHandle_t gg_handle;

static cudaError_t gg_cublas(gg_type t, int m, int n, int k, const void *dA, const void *dB, float *dC)
{
    if (!gg_handle && cublasCreate(&gg_handle) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "gemm_gpu: cublasCreate failed\n");
        return cudaErrorUnknown;
    }
    const float one = 1.0f, zero = 0.0f;
    cublasStatus_t s;
    if (t == GG_F32) {
        s = cublasSgemm(gg_handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, (const float *)dB, n, (const float *)dA, k,
                        &zero, dC, n);
    } else {
        cudaDataType in = t == GG_F16 ? CUDA_R_16F : CUDA_R_16BF;
        s = cublasGemmEx(gg_handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, dB, in, n, dA, in, k, &zero, dC,
                         CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    }
    if (s != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "gemm_gpu: cuBLAS failed (status %d) at m=%d n=%d k=%d\n", (int)s, m, n, k);
        return cudaErrorUnknown;
    }
    return cudaSuccess;
}
#endif

void gg_shutdown(void)
{
#if !PW_SIMT_EMULATED
    if (gg_handle) cublasDestroy(gg_handle);
    gg_handle = 0;
#endif
}

/* ---- the table ------------------------------------------------------------------------------ */
static const char *const gg_names[GG_NRUNGS] = { "0_cublas", "1_naive",    "2_coalesced", "3_smem",        "4_reg1d",
                                                  "5_reg2d",  "6_vec4",     "7_warptile",  "8_wmma_global", "9_wmma_shared" };

const char *gg_rung_name(gg_rung r) { return r >= 0 && r < GG_NRUNGS ? gg_names[r] : "?"; }

/* The launch parameters of each rung, in one line (the comment at the top of
 * this file: SGEMM_CUDA's for rungs 1-7). */
const char *gg_rung_params(gg_rung r)
{
    static const char *const params[GG_NRUNGS] = {
        "cuBLAS",
        "block 32 x 32, a thread an element of C, threadIdx.x along rows",
        "block 1024 (1D), a thread an element, consecutive threads along a row",
        "block 1024, tile 32 x 32, BK 32",
        "block 512, tile 64 x 64, BK 8, TM 8",
        "block 256, tile 128 x 128, BK 8, TM = TN = 8",
        "block 256, tile 128 x 128, BK 8, TM = TN = 8, float4, A transposed",
        "block 128, tile 128 x 128, BK 16, warp tile 64 x 64 (WNITER 4), TM 8, TN 4, float4",
        "block 128 (4 warps), a warp a 16 x 16 tile of C, fragments from global",
        "block 128, tile 64 x 64, BK 32, 2 x 2 fragments a warp, staged in shared",
    };
    return r >= 0 && r < GG_NRUNGS ? params[r] : "?";
}
const char *gg_type_name(gg_type t) { return t == GG_F16 ? "fp16" : t == GG_BF16 ? "bf16" : "fp32"; }
size_t gg_type_size(gg_type t) { return t == GG_F32 ? 4 : 2; }
int gg_rung_tensor(gg_rung r) { return r == GG_WMMA_GLOBAL || r == GG_WMMA_SHARED; }

int gg_rung_takes(gg_rung r, gg_type t)
{
    if (r == GG_CUBLAS) return 1;
    if (r < GG_CUBLAS || r >= GG_NRUNGS) return 0;
    return gg_rung_tensor(r) ? t != GG_F32 : t == GG_F32;
}

static unsigned gg_blocks(int n, int per) { return (unsigned)((n + per - 1) / per); }

/* The grid and block gg_launch uses for rung r at m x n (all that depends on
 * the sizes: every kernel's shared memory is static). 0 where it launches no
 * kernel of its own: cuBLAS, a rung outside the ladder, WMMA from global
 * memory at sizes that are not multiples of 16. */
static int gg_geometry(gg_rung r, int m, int n, int k, dim3 *grid, dim3 *block)
{
    switch (r) {
    case GG_NAIVE: *grid = dim3(gg_blocks(m, 32), gg_blocks(n, 32)); *block = dim3(32, 32); return 1;
    case GG_COALESCED: *grid = dim3(gg_blocks(m, 32), gg_blocks(n, 32)); *block = dim3(32 * 32); return 1;
    case GG_SMEM: *grid = dim3(gg_blocks(n, T3), gg_blocks(m, T3)); *block = dim3(T3, T3); return 1;
    case GG_REG1D: *grid = dim3(gg_blocks(n, R4_BN), gg_blocks(m, R4_BM)); *block = dim3(R4_THREADS); return 1;
    case GG_REG2D: *grid = dim3(gg_blocks(n, R5_BN), gg_blocks(m, R5_BM)); *block = dim3(R5_THREADS); return 1;
    case GG_VEC4: *grid = dim3(gg_blocks(n, V_BN), gg_blocks(m, V_BM)); *block = dim3(V_THREADS); return 1;
    case GG_WARPTILE: *grid = dim3(gg_blocks(n, W_BN), gg_blocks(m, W_BM)); *block = dim3(W_THREADS); return 1;
    case GG_WMMA_GLOBAL:
        if (m % 16 || n % 16 || k % 16) return 0;   /* the caller pads */
        *grid = dim3(gg_blocks(n, 16 * WG_WARPS), (unsigned)(m / 16));
        *block = dim3(32 * WG_WARPS);
        return 1;
    case GG_WMMA_SHARED: *grid = dim3(gg_blocks(n, WS_BN), gg_blocks(m, WS_BM)); *block = dim3(WS_THREADS); return 1;
    default: return 0;
    }
}

gg_shape gg_launch_shape(gg_rung r, gg_type t, int m, int n, int k)
{
    gg_shape s = { 0, 0, 0, "" };
    dim3 grid, block;
    if (!gg_rung_takes(r, t) || m < 1 || n < 1 || k < 1 || !gg_geometry(r, m, n, k, &grid, &block)) return s;
    static const char *const names[GG_NRUNGS] = { "",         "gg_naive", "gg_coalesced", "gg_smem",
                                                  "gg_reg1d", "gg_reg2d", "gg_vec4",      "gg_warptile" };
    s.blocks = (long long)grid.x * grid.y * grid.z;
    s.threads = (int)(block.x * block.y * block.z);
    s.dyn_smem = 0;   /* every rung's shared memory is static */
    if (r == GG_WMMA_GLOBAL) s.kernel = t == GG_F16 ? "gg_wmma_global<__half>" : "gg_wmma_global<__nv_bfloat16>";
    else if (r == GG_WMMA_SHARED) s.kernel = t == GG_F16 ? "gg_wmma_shared<__half>" : "gg_wmma_shared<__nv_bfloat16>";
    else s.kernel = names[r];
    return s;
}

cudaError_t gg_launch(gg_rung r, gg_type t, int m, int n, int k, const void *dA, const void *dB, float *dC)
{
    if (!gg_rung_takes(r, t)) return cudaErrorNotSupported;
    if (m < 1 || n < 1 || k < 1) return cudaErrorInvalidValue;
    if (r == GG_CUBLAS) {
#if PW_SIMT_EMULATED
        return cudaErrorNotSupported;
#else
        return gg_cublas(t, m, n, k, dA, dB, dC);
#endif
    }
    dim3 grid, block;
    if (!gg_geometry(r, m, n, k, &grid, &block)) return cudaErrorInvalidValue;   /* rung 8 off multiples of 16 */
    const float *A = (const float *)dA, *B = (const float *)dB;
    const __half *Ah = (const __half *)dA, *Bh = (const __half *)dB;
    const __nv_bfloat16 *Ab = (const __nv_bfloat16 *)dA, *Bb = (const __nv_bfloat16 *)dB;
    /* each kernel's name before <<< is the text gg_launch_shape gives */
    switch (r) {
    case GG_NAIVE: gg_naive<<<grid, block>>>(A, B, dC, m, n, k); break;
    case GG_COALESCED: gg_coalesced<<<grid, block>>>(A, B, dC, m, n, k); break;
    case GG_SMEM: gg_smem<<<grid, block>>>(A, B, dC, m, n, k); break;
    case GG_REG1D: gg_reg1d<<<grid, block>>>(A, B, dC, m, n, k); break;
    case GG_REG2D: gg_reg2d<<<grid, block>>>(A, B, dC, m, n, k); break;
    case GG_VEC4: gg_vec4<<<grid, block>>>(A, B, dC, m, n, k); break;
    case GG_WARPTILE: gg_warptile<<<grid, block>>>(A, B, dC, m, n, k); break;
    case GG_WMMA_GLOBAL:
        if (t == GG_F16) gg_wmma_global<__half><<<grid, block>>>(Ah, Bh, dC, m, n, k);
        else gg_wmma_global<__nv_bfloat16><<<grid, block>>>(Ab, Bb, dC, m, n, k);
        break;
    case GG_WMMA_SHARED:
        if (t == GG_F16) gg_wmma_shared<__half><<<grid, block>>>(Ah, Bh, dC, m, n, k);
        else gg_wmma_shared<__nv_bfloat16><<<grid, block>>>(Ab, Bb, dC, m, n, k);
        break;
    default: return cudaErrorNotSupported;
    }
    return cudaSuccess;
}
