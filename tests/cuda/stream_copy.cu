// stream_copy.cu: copy in, compute, copy out, chunk by chunk on two
// streams, the pattern that overlaps transfers with kernels on a GPU.
// Conformance: cudaMallocHost (pinned buffers, required for truly async
// copies), cudaStreamCreate/Destroy, cudaMemcpyAsync in both directions on
// a stream, a launch with all four parameters <<<grid, block, 0, stream>>>,
// cudaStreamSynchronize, cudaFreeHost. Work in one stream runs in order;
// chunks never share memory, so the two streams cannot interfere.
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

#define STREAMS 2

// x[i] = 3 * x[i] + offset, in place.
__global__ void scaleAdd(int *x, int n, int offset)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = 3 * x[i] + offset;
}

int main()
{
    const int N = 1 << 16, CHUNKS = 8, CHUNK = N / CHUNKS, BLOCK = 256;
    int *h_in, *h_out, *d;
    CHECK(cudaMallocHost(&h_in, N * sizeof(int)));
    CHECK(cudaMallocHost(&h_out, N * sizeof(int)));
    CHECK(cudaMalloc(&d, N * sizeof(int)));
    for (int i = 0; i < N; i++)
        h_in[i] = i % 1000;

    cudaStream_t stream[STREAMS];
    for (int s = 0; s < STREAMS; s++)
        CHECK(cudaStreamCreate(&stream[s]));
    for (int c = 0; c < CHUNKS; c++) {
        cudaStream_t st = stream[c % STREAMS];
        int off = c * CHUNK;
        CHECK(cudaMemcpyAsync(d + off, h_in + off, CHUNK * sizeof(int), cudaMemcpyHostToDevice, st));
        scaleAdd<<<(CHUNK + BLOCK - 1) / BLOCK, BLOCK, 0, st>>>(d + off, CHUNK, c);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpyAsync(h_out + off, d + off, CHUNK * sizeof(int), cudaMemcpyDeviceToHost, st));
    }
    for (int s = 0; s < STREAMS; s++)
        CHECK(cudaStreamSynchronize(stream[s]));

    int bad = 0;
    long long sum = 0;
    for (int i = 0; i < N; i++) {
        int want = 3 * h_in[i] + i / CHUNK;
        if (h_out[i] != want && bad++ < 5)
            printf("  out[%d] = %d, want %d\n", i, h_out[i], want);
        sum += h_out[i];
    }
    printf("stream_copy: %s n=%d chunks=%d streams=%d out[0]=%d out[%d]=%d sum=%lld\n", bad ? "FAIL" : "PASS", N,
           CHUNKS, STREAMS, h_out[0], N - 1, h_out[N - 1], sum);

    for (int s = 0; s < STREAMS; s++)
        CHECK(cudaStreamDestroy(stream[s]));
    CHECK(cudaFree(d));
    CHECK(cudaFreeHost(h_in));
    CHECK(cudaFreeHost(h_out));
    return bad ? 1 : 0;
}
