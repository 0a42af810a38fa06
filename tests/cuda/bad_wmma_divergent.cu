// A Tensor Core GEMM whose bounds check is per thread instead of per warp:
// each lane tests "its" row of the tile (lane / 2), so when M is not a
// multiple of 16 the warp on the ragged edge splits at line 23, and only
// some of its lanes reach load_matrix_sync (line 24), a whole-warp operation. On a
// GPU: undefined behaviour (a hang or garbage). The emulator names it.
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
using namespace nvcuda;

// M x N = (M x K) (K x N), row-major, M padded in memory to a multiple of 16
// rows but only the first M rows wanted.
__global__ void tileGemm(const half *A, const half *B, float *C, int M, int N, int K)
{
    int tileRow = blockIdx.y * 16, tileCol = blockIdx.x * 16;
    int lane = threadIdx.x % 32;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        if (tileRow + lane / 2 < M) {                       // the bug: a per-lane guard
            wmma::load_matrix_sync(a, A + tileRow * K + k, K);
            wmma::load_matrix_sync(b, B + k * N + tileCol, N);
            wmma::mma_sync(acc, a, b, acc);
        }
    }
    wmma::store_matrix_sync(C + tileRow * N + tileCol, acc, N, wmma::mem_row_major);
}

int main()
{
    const int M = 40, Mpad = 48, N = 32, K = 32;
    static half a[Mpad * K], b[K * N];
    for (int i = 0; i < Mpad * K; i++) a[i] = __float2half(i < M * K ? 1.0f : 0.0f);
    for (int i = 0; i < K * N; i++) b[i] = __float2half(1.0f);
    half *da, *db;
    float *dc;
    cudaMalloc(&da, sizeof a);
    cudaMalloc(&db, sizeof b);
    cudaMalloc(&dc, Mpad * N * sizeof(float));
    cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
    tileGemm<<<dim3(N / 16, Mpad / 16), 32>>>(da, db, dc, M, N, K);
    cudaError_t e = cudaDeviceSynchronize();
    printf("tileGemm: %s\n", cudaGetErrorString(e));
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    return e != cudaSuccess;
}
