// bad_leftover_shared.cu (must fail): blocks read shared memory that only
// block 0 filled.
// The learner loads a lookup table into shared memory "once", from block
// 0, believing shared memory is shared by the whole grid. It is private to
// each block: blocks 1.. read whatever their shared memory held before
// (on a GPU, often the table a previous block left on the same SM, so the
// program can even pass). The emulator's initcheck reports the first read
// of shared memory the block never wrote.
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

#define TABLE 64

// out[i] = lut[in[i]], with the table staged in shared memory.
__global__ void applyLut(const int *in, int *out, const int *lut, int n)
{
    __shared__ int table[TABLE];
    if (blockIdx.x == 0)  // only block 0 loads the table
        for (int k = threadIdx.x; k < TABLE; k += blockDim.x)
            table[k] = lut[k];
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = table[in[i]];  // BUG: blocks 1.. never wrote table
}

int main()
{
    const int n = 1000;
    int h_in[n], h_out[n], h_lut[TABLE];
    for (int k = 0; k < TABLE; k++)
        h_lut[k] = k * k;
    for (int i = 0; i < n; i++)
        h_in[i] = (i * 7) % TABLE;
    int *in, *out, *lut;
    CHECK(cudaMalloc(&in, sizeof h_in));
    CHECK(cudaMalloc(&out, sizeof h_out));
    CHECK(cudaMalloc(&lut, sizeof h_lut));
    CHECK(cudaMemcpy(in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(lut, h_lut, sizeof h_lut, cudaMemcpyHostToDevice));
    applyLut<<<(n + 127) / 128, 128>>>(in, out, lut, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += h_out[i] != h_lut[h_in[i]];
    printf("applyLut: %s n=%d, %d wrong\n", bad ? "FAIL" : "PASS", n, bad);
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    CHECK(cudaFree(lut));
    return bad ? 1 : 0;
}
