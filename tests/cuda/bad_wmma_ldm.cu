// Tensor Cores straight from global memory on a matrix whose rows are 20
// halves long: load_matrix_sync's ldm must be a multiple of 8 halves (16
// bytes), and the tile at column 16 of a row starts 32 bytes past a 40-byte
// row boundary, so line 22 breaks CUDA's rule. On a GPU: a misaligned
// address error or wrong results. The fix is padding the rows (to 24) or
// staging the tile through shared memory.
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
using namespace nvcuda;

__global__ void rowTimesOnes(const half *A, float *C, int K)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> ones;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(ones, __float2half(1.0f));
    wmma::fill_fragment(acc, 0.0f);
    // K = 20: two k-steps, the second reading columns 16..31 of 20-wide rows
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(a, A + k, K);
        wmma::mma_sync(acc, a, ones, acc);
    }
    wmma::store_matrix_sync(C, acc, 16, wmma::mem_row_major);
}

int main()
{
    const int K = 20;
    static half a[16 * 32];
    for (int i = 0; i < 16 * 32; i++) a[i] = __float2half(1.0f);
    half *da;
    float *dc;
    cudaMalloc(&da, sizeof a);
    cudaMalloc(&dc, 256 * sizeof(float));
    cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
    rowTimesOnes<<<1, 32>>>(da, dc, K);
    cudaError_t e = cudaDeviceSynchronize();
    printf("rowTimesOnes: %s\n", cudaGetErrorString(e));
    cudaFree(da);
    cudaFree(dc);
    return e != cudaSuccess;
}
