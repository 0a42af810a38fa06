// A Tensor Core GEMM written as the CUDA 9 "Programming Tensor Cores" blog
// post and cuda-samples' cudaTensorCoreGemm write theirs: one warp per 16x16
// tile of C, column-major A and B in __half, float accumulate, and the
// epilogue C = alpha * A B + beta * C done elementwise on the fragments
// (layout-free, so legal). Then the same with __nv_bfloat16 and row-major
// inputs. Small integers in, so every result is exact on any GPU.
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
using namespace nvcuda;

#define WMMA_M 16
#define WMMA_N 16
#define WMMA_K 16

// C (M x N) = alpha A (M x K) B (K x N) + beta C, all column-major.
__global__ void wmma_example(const half *a, const half *b, float *c, int M, int N, int K, float alpha, float beta)
{
    int lda = M, ldb = K, ldc = M;
    int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
    int warpN = blockIdx.y * blockDim.y + threadIdx.y;
    wmma::fragment<wmma::matrix_a, WMMA_M, WMMA_N, WMMA_K, half, wmma::col_major> a_frag;
    wmma::fragment<wmma::matrix_b, WMMA_M, WMMA_N, WMMA_K, half, wmma::col_major> b_frag;
    wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> acc_frag;
    wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> c_frag;
    wmma::fill_fragment(acc_frag, 0.0f);
    for (int i = 0; i < K; i += WMMA_K) {
        int aRow = warpM * WMMA_M, aCol = i;
        int bRow = i, bCol = warpN * WMMA_N;
        if (aRow < M && aCol < K && bRow < K && bCol < N) {
            wmma::load_matrix_sync(a_frag, a + aRow + aCol * lda, lda);
            wmma::load_matrix_sync(b_frag, b + bRow + bCol * ldb, ldb);
            wmma::mma_sync(acc_frag, a_frag, b_frag, acc_frag);
        }
    }
    int cRow = warpM * WMMA_M, cCol = warpN * WMMA_N;
    if (cRow < M && cCol < N) {
        wmma::load_matrix_sync(c_frag, c + cRow + cCol * ldc, ldc, wmma::mem_col_major);
        for (int i = 0; i < c_frag.num_elements; i++) c_frag.x[i] = alpha * acc_frag.x[i] + beta * c_frag.x[i];
        wmma::store_matrix_sync(c + cRow + cCol * ldc, c_frag, ldc, wmma::mem_col_major);
    }
}

// The same product, bf16, row-major, no epilogue; one block of 4 warps per 32x32 of C.
__global__ void wmma_bf16(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *c, int M, int N, int K)
{
    int warp = threadIdx.x / 32;
    int row = blockIdx.y * 32 + (warp / 2) * 16, col = blockIdx.x * 32 + (warp % 2) * 16;
    if (row >= M || col >= N) return;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(fa, a + row * K + k, K);
        wmma::load_matrix_sync(fb, b + k * N + col, N);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(c + row * N + col, acc, N, wmma::mem_row_major);
}

static int check(const char *what, const float *got, const float *want, int n)
{
    int bad = 0;
    double sum = 0;
    for (int i = 0; i < n; i++) {
        if (got[i] != want[i]) {
            if (!bad) printf("%s: element %d is %g, want %g\n", what, i, got[i], want[i]);
            bad++;
        }
        sum += got[i] * (i % 5 + 1);      // weighted: a plain sum can cancel
    }
    printf("%s: %s (%d elements, checksum %.1f)\n", what, bad ? "WRONG" : "correct", n, sum);
    return bad;
}

int main()
{
    const int M = 64, N = 48, K = 80;
    const float alpha = 2.0f, beta = 0.5f;
    static float a[M * K], b[K * N], c[M * N], want[M * N], got[M * N];
    static half ah[M * K], bh[K * N];
    static __nv_bfloat16 ab[M * K], bb[K * N];
    for (int i = 0; i < M * K; i++) a[i] = (float)((i * 37) % 13 - 6);
    for (int i = 0; i < K * N; i++) b[i] = (float)((i * 11) % 9 - 4);
    for (int i = 0; i < M * N; i++) c[i] = (float)((i * 5) % 7 - 3);
    for (int i = 0; i < M * K; i++) { ah[i] = __float2half(a[i]); ab[i] = __float2bfloat16(a[i]); }
    for (int i = 0; i < K * N; i++) { bh[i] = __float2half(b[i]); bb[i] = __float2bfloat16(b[i]); }

    half *da, *db;
    __nv_bfloat16 *dab, *dbb;
    float *dc;
    cudaMalloc(&da, sizeof ah); cudaMalloc(&db, sizeof bh);
    cudaMalloc(&dab, sizeof ab); cudaMalloc(&dbb, sizeof bb);
    cudaMalloc(&dc, sizeof c);
    cudaMemcpy(da, ah, sizeof ah, cudaMemcpyHostToDevice);
    cudaMemcpy(db, bh, sizeof bh, cudaMemcpyHostToDevice);
    cudaMemcpy(dab, ab, sizeof ab, cudaMemcpyHostToDevice);
    cudaMemcpy(dbb, bb, sizeof bb, cudaMemcpyHostToDevice);
    cudaMemcpy(dc, c, sizeof c, cudaMemcpyHostToDevice);

    // column-major: element (i, j) of A at a[i + j * M]
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float s = 0;
            for (int k = 0; k < K; k++) s += a[i + k * M] * b[k + j * K];
            want[i + j * M] = alpha * s + beta * c[i + j * M];
        }
    dim3 block(128, 4), grid((M + (WMMA_M * 128 / 32 - 1)) / (WMMA_M * 128 / 32), (N + WMMA_N * 4 - 1) / (WMMA_N * 4));
    wmma_example<<<grid, block>>>(da, db, dc, M, N, K, alpha, beta);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf("wmma_example: %s\n", cudaGetErrorString(e)); return 1; }
    cudaMemcpy(got, dc, sizeof got, cudaMemcpyDeviceToHost);
    int bad = check("half, column-major, alpha 2 beta 0.5", got, want, M * N);

    // row-major: element (i, j) of A at a[i * K + j]
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float s = 0;
            for (int k = 0; k < K; k++) s += a[i * K + k] * b[k * N + j];
            want[i * N + j] = s;
        }
    wmma_bf16<<<dim3(N / 32 + 1, M / 32), 128>>>(dab, dbb, dc, M, N, K);
    e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf("wmma_bf16: %s\n", cudaGetErrorString(e)); return 1; }
    cudaMemcpy(got, dc, sizeof got, cudaMemcpyDeviceToHost);
    bad += check("bfloat16, row-major", got, want, M * N);

    cudaFree(da); cudaFree(db); cudaFree(dab); cudaFree(dbb); cudaFree(dc);
    return bad != 0;
}
