// dyn_shared_reverse.cu: reverse each block's slice of an array through
// dynamically sized shared memory.
// Conformance: `extern __shared__ int s[]` sized by the third launch
// parameter, <<<grid, block, block * sizeof(int)>>>, several block sizes in
// one program (so the size really comes from the launch), and a last block
// that holds fewer than blockDim.x elements.
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

// d[base .. base+len) becomes its own reverse, len = min(blockDim.x, n - base).
__global__ void reverseBlocks(int *d, int n)
{
    extern __shared__ int s[];
    int t = threadIdx.x;
    int base = blockIdx.x * blockDim.x;
    int len = min((int)blockDim.x, n - base);
    if (t < len)
        s[t] = d[base + t];
    __syncthreads();
    if (t < len)
        d[base + t] = s[len - 1 - t];
}

static bool run(int n, int block)
{
    int *h = (int *)malloc(n * sizeof(int)), *out = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        h[i] = 3 * i + 1;
    int *d;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
    int grid = (n + block - 1) / block;
    reverseBlocks<<<grid, block, block * sizeof(int)>>>(d, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d, n * sizeof(int), cudaMemcpyDeviceToHost));

    int bad = 0;
    for (int i = 0; i < n; i++) {
        int base = i / block * block;
        int len = n - base < block ? n - base : block;
        int want = h[base + len - 1 - (i - base)];
        if (out[i] != want && bad++ < 5)
            printf("  d[%d] = %d, want %d\n", i, out[i], want);
    }
    printf("reverseBlocks: %s n=%d block=%d shared=%zu bytes d[0]=%d d[%d]=%d\n", bad ? "FAIL" : "PASS", n,
           block, block * sizeof(int), out[0], n - 1, out[n - 1]);
    CHECK(cudaFree(d));
    free(h);
    free(out);
    return bad == 0;
}

int main()
{
    bool ok = true;
    ok &= run(64, 64);     // exactly one block
    ok &= run(1000, 64);   // last block holds 40
    ok &= run(1000, 256);  // last block holds 232
    ok &= run(1024, 1024); // the whole array in one block
    ok &= run(5, 128);     // fewer elements than threads
    return ok ? 0 : 1;
}
