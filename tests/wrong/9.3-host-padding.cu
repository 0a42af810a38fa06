/* tests/wrong/9.3-host-padding.cu: exercise 9.3 answered the way 9.2 was:
 * the launch function allocates padded copies of A, B and C and runs a
 * padded kernel. It multiplies right, but the exercise is edges handled in
 * the kernel; the build's rules refuse the allocation before any test.
 * expect: FAIL: 9.3-host-padding.cu calls cudaMalloc\(\) */
#include <mma.h>

#include "wmma_edges.h"

using namespace nvcuda;

/* Copy a rows x cols matrix into a zeroed R x Cc one (one thread per element of the padded one). */
template <class T> __global__ void pad(const T *src, int rows, int cols, T *dst, int R, int Cc)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= R * Cc) return;
    int r = i / Cc, c = i % Cc;
    dst[i] = r < rows && c < cols ? src[r * cols + c] : T(0.0f);
}

__global__ void crop(const float *src, int Cc, float *dst, int rows, int cols)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < rows * cols) dst[i] = src[(i / cols) * Cc + i % cols];
}

__global__ void wmma_edges(const __half *A, const __half *B, float *C, int M, int N, int K)
{
    int row = (blockIdx.y * WMMA_EDGES_WARPS + threadIdx.y) * 16, col = blockIdx.x * 16;
    if (row >= M) return;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
    for (int p = 0; p < K; p += 16) {
        wmma::load_matrix_sync(a, A + (size_t)row * K + p, K);
        wmma::load_matrix_sync(b, B + (size_t)p * N + col, N);
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(C + (size_t)row * N + col, acc, N, wmma::mem_row_major);
}

void wmma_edges_launch(const __half *dA, const __half *dB, float *dC, int m, int n, int k)
{
    int M = (m + 15) / 16 * 16, N = (n + 15) / 16 * 16, K = (k + 15) / 16 * 16;
    __half *pA, *pB;
    float *pC;
    cudaMalloc((void **)&pA, (size_t)M * K * sizeof *pA);
    cudaMalloc((void **)&pB, (size_t)K * N * sizeof *pB);
    cudaMalloc((void **)&pC, (size_t)M * N * sizeof *pC);
    pad<<<(M * K + 255) / 256, 256>>>(dA, m, k, pA, M, K);
    pad<<<(K * N + 255) / 256, 256>>>(dB, k, n, pB, K, N);
    dim3 block(32, WMMA_EDGES_WARPS), grid(N / 16, (M / 16 + WMMA_EDGES_WARPS - 1) / WMMA_EDGES_WARPS);
    wmma_edges<<<grid, block>>>(pA, pB, pC, M, N, K);
    crop<<<(m * n + 255) / 256, 256>>>(pC, N, dC, m, n);
    cudaFree(pA);
    cudaFree(pB);
    cudaFree(pC);
}
