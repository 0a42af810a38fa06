/* tests/cuda/matmul_header.cuh: the tiled matrix multiply of Kirk and Hwu's textbook, kept in a
 * header as course code often does: tools/pwcc translates a header beside the
 * .cu when it holds __shared__ or <<<>>>. */
#pragma once
#define TILE_WIDTH 16
__global__ void MatrixMulKernel(const float* __restrict__ M, const float* __restrict__ N, float* P, int Width)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
    int bx = blockIdx.x; int by = blockIdx.y;
    int tx = threadIdx.x; int ty = threadIdx.y;
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < (Width + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
        Mds[ty][tx] = (Row < Width && ph * TILE_WIDTH + tx < Width) ? M[Row * Width + ph * TILE_WIDTH + tx] : 0.0f;
        Nds[ty][tx] = (ph * TILE_WIDTH + ty < Width && Col < Width) ? N[(ph * TILE_WIDTH + ty) * Width + Col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
        __syncthreads();
    }
    if (Row < Width && Col < Width) P[Row * Width + Col] = Pvalue;
}
