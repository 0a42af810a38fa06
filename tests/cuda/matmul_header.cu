/* tests/cuda/matmul_header.cu: a course-style program whose kernel lives in a
 * header (matmul_header.cuh), with a CHECK macro, (void**) casts, dim3 grids
 * that do not divide the matrix (37x37 in 16x16 tiles), and a __device__
 * __forceinline__ helper. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include "matmul_header.cuh"
#define CHECK(call) { cudaError_t err = call; if (err != cudaSuccess) { printf("Error %s at %d\n", cudaGetErrorString(err), __LINE__); exit(1);} }
static __device__ __forceinline__ float sq(float x) { return x * x; }
__global__ void squareAll(float *a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] = sq(a[i]); }
int main() {
    const int W = 37; size_t bytes = W * W * sizeof(float);
    float *h_M = (float*)malloc(bytes), *h_N = (float*)malloc(bytes), *h_P = (float*)malloc(bytes);
    for (int i = 0; i < W * W; i++) { h_M[i] = (i % 7) - 3; h_N[i] = (i % 5) - 2; }
    float *d_M, *d_N, *d_P;
    CHECK(cudaMalloc((void**)&d_M, bytes)); CHECK(cudaMalloc(&d_N, bytes)); CHECK(cudaMalloc(&d_P, bytes));
    cudaMemcpy(d_M, h_M, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(d_N, h_N, bytes, cudaMemcpyHostToDevice);
    dim3 dimGrid((W + TILE_WIDTH - 1) / TILE_WIDTH, (W + TILE_WIDTH - 1) / TILE_WIDTH, 1);
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
    MatrixMulKernel<<<dimGrid, dimBlock>>>(d_M, d_N, d_P, W);
    CHECK(cudaGetLastError());
    squareAll<<<(W*W+127)/128, 128>>>(d_P, W*W);
    CHECK(cudaDeviceSynchronize());
    cudaMemcpy(h_P, d_P, bytes, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int r = 0; r < W; r++) for (int c = 0; c < W; c++) { float s = 0; for (int k = 0; k < W; k++) s += h_M[r*W+k] * h_N[k*W+c]; if (fabsf(s*s - h_P[r*W+c]) > 1e-3f) bad++; }
    printf("matmul %dx%d: %s\n", W, W, bad ? "FAIL" : "PASS");
    cudaFree(d_M); cudaFree(d_N); cudaFree(d_P); free(h_M); free(h_N); free(h_P);
    return bad != 0;
}
