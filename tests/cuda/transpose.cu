// transpose.cu: matrix transpose through a 32x32 shared-memory tile, the
// standard lesson in coalescing: read rows of the input, write rows of the
// output, and turn the tile around in shared memory in between. The tile has
// 33 columns so that a warp reading a tile column hits 32 different banks.
// Conformance: dim3 grids and blocks (32x8 threads, each doing 4 rows of the
// tile), threadIdx.y/blockIdx.y, a 2-D __shared__ array with padding, sizes
// that are not multiples of 32 (partial tiles on both edges), and a naive
// kernel for comparison.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                         \
    do {                                                                    \
        cudaError_t err_ = (call);                                          \
        if (err_ != cudaSuccess) {                                          \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,   \
                    #call, cudaGetErrorName(err_));                         \
            exit(1);                                                        \
        }                                                                   \
    } while (0)

#define TILE 32
#define ROWS 8  // blockDim.y: each thread moves TILE / ROWS elements

// out (cols x rows) = transpose of in (rows x cols), both row-major.
__global__ void transposeNaive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * TILE + threadIdx.x;
    int r0 = blockIdx.y * TILE;  // the tile's first row
    for (int r = r0 + threadIdx.y; r < r0 + TILE; r += ROWS)
        if (c < cols && r < rows)
            out[c * rows + r] = in[r * cols + c];
}

__global__ void transposeTiled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int c = blockIdx.x * TILE + threadIdx.x;
    int r = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (c < cols && r + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[(r + j) * cols + c];
    __syncthreads();
    // The block's output tile: rows of out are columns of in.
    c = blockIdx.y * TILE + threadIdx.x;  // a column of out, a row of in
    r = blockIdx.x * TILE + threadIdx.y;  // a row of out, a column of in
    for (int j = 0; j < TILE; j += ROWS)
        if (c < rows && r + j < cols)
            out[(r + j) * rows + c] = tile[threadIdx.x][threadIdx.y + j];
}

static bool run(int rows, int cols)
{
    size_t bytes = (size_t)rows * cols * sizeof(float);
    float *h = (float *)malloc(bytes), *naive = (float *)malloc(bytes), *tiled = (float *)malloc(bytes);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            h[r * cols + c] = (float)(r * 1000 + c);
    float *in, *out;
    CHECK(cudaMalloc(&in, bytes));
    CHECK(cudaMalloc(&out, bytes));
    CHECK(cudaMemcpy(in, h, bytes, cudaMemcpyHostToDevice));

    dim3 block(TILE, ROWS);
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transposeNaive<<<grid, block>>>(out, in, rows, cols);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(naive, out, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemset(out, 0, bytes));
    transposeTiled<<<grid, block>>>(out, in, rows, cols);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(tiled, out, bytes, cudaMemcpyDeviceToHost));

    int bad = 0;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            float want = h[r * cols + c];
            float gn = naive[c * rows + r], gt = tiled[c * rows + r];
            if ((gn != want || gt != want) && bad++ < 5)
                printf("  out[%d][%d]: naive %g, tiled %g, want %g\n", c, r, gn, gt, want);
        }
    int last = rows * cols - 1;
    printf("transpose: %s %dx%d grid=(%u,%u) block=(%u,%u) out[0][%d]=%g out[%d][0]=%g out[last]=%g\n",
           bad ? "FAIL" : "PASS", rows, cols, grid.x, grid.y, block.x, block.y, rows - 1, tiled[rows - 1],
           cols - 1, tiled[(cols - 1) * rows], tiled[last]);
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    free(h);
    free(naive);
    free(tiled);
    return bad == 0;
}

int main()
{
    bool ok = true;
    ok &= run(1, 1);
    ok &= run(32, 32);
    ok &= run(37, 100);
    ok &= run(65, 33);
    ok &= run(255, 256);
    return ok ? 0 : 1;
}
