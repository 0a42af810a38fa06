// bad_uninit_global.cu (must fail): a kernel accumulates into device memory
// that nobody initialized.
// The learner sums the squares of each row of a matrix into rowSums with
// +=, and forgot cudaMemset(rowSums, 0, ...) after cudaMalloc. cudaMalloc
// does not clear memory; a fresh allocation on a GPU is often zero anyway,
// so the program usually passes there, until it reuses freed memory. The
// emulator's initcheck reports the first read of the never-written bytes.
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

// rowSums[r] += a[r][c] * a[r][c] for each column c: one thread per row.
__global__ void rowSquares(const float *a, float *rowSums, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows)
        for (int c = 0; c < cols; c++)
            rowSums[r] += a[r * cols + c] * a[r * cols + c];  // BUG: rowSums never initialized
}

int main()
{
    const int rows = 100, cols = 16;
    float h_a[rows * cols], h_sums[rows];
    for (int k = 0; k < rows * cols; k++)
        h_a[k] = (float)(k % 5);
    float *a, *sums;
    CHECK(cudaMalloc(&a, sizeof h_a));
    CHECK(cudaMalloc(&sums, sizeof h_sums));  // forgot: cudaMemset(sums, 0, sizeof h_sums)
    CHECK(cudaMemcpy(a, h_a, sizeof h_a, cudaMemcpyHostToDevice));
    rowSquares<<<1, 128>>>(a, sums, rows, cols);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_sums, sums, sizeof h_sums, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int r = 0; r < rows; r++) {
        float want = 0;
        for (int c = 0; c < cols; c++)
            want += h_a[r * cols + c] * h_a[r * cols + c];
        bad += h_sums[r] != want;
    }
    printf("rowSquares: %s rows=%d, %d wrong\n", bad ? "FAIL" : "PASS", rows, bad);
    CHECK(cudaFree(a));
    CHECK(cudaFree(sums));
    return bad ? 1 : 0;
}
