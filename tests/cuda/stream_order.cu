// stream_order.cu: work issued to a stream runs in the order issued, and
// the legacy default stream waits for the other blocking streams, while the
// host goes on without waiting.
// Conformance: cudaMemsetAsync and a chain of launches on one stream whose
// result depends on their order (x = 3x + k is not commutative: any other
// order gives another number), cudaMemcpyAsync into pinned memory,
// cudaStreamSynchronize; two streams each with its own chain; a launch on
// the legacy default stream (0) that reads what a launch on a created
// (blocking) stream wrote, with no host synchronisation between: the legacy
// stream waits for it, as CUDA specifies; cudaStreamCreateWithFlags
// (cudaStreamNonBlocking) and cudaStreamGetFlags; a blocking cudaMemcpy,
// which does not wait for a non-blocking stream: a kernel there spins on a
// flag in managed memory that the host raises only after the cudaMemcpy
// returned (had the copy waited for it, this would hang).
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

// x[i] = 3 * x[i] + k (mod 2^32, unsigned: no overflow to worry about).
__global__ void step(unsigned *x, int n, unsigned k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = 3u * x[i] + k;
}

// out[i] = in[i] + 1.
__global__ void plusOne(const unsigned *in, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] + 1u;
}

// Waits until the host raises *go, then writes 7.
__global__ void waitForHost(volatile int *go, int *done)
{
    while (*go == 0) {
    }
    *done = 7;
}

static unsigned chain(unsigned x0, unsigned first, int steps)
{
    unsigned x = x0;
    for (int k = 0; k < steps; k++)
        x = 3u * x + first + (unsigned)k;
    return x;
}

int main()
{
    const int N = 1000, STEPS = 12, BLOCK = 128, GRID = (N + BLOCK - 1) / BLOCK;
    unsigned *d[2], *h[2], *d_out;
    cudaStream_t s[2];
    for (int j = 0; j < 2; j++) {
        CHECK(cudaMalloc(&d[j], N * sizeof(unsigned)));
        CHECK(cudaMallocHost(&h[j], N * sizeof(unsigned)));
        CHECK(cudaStreamCreate(&s[j]));
    }
    CHECK(cudaMalloc(&d_out, N * sizeof(unsigned)));

    // two chains, interleaved when issued, each in order on its stream
    for (int j = 0; j < 2; j++)
        CHECK(cudaMemsetAsync(d[j], 0, N * sizeof(unsigned), s[j]));
    for (int k = 0; k < STEPS; k++)
        for (int j = 0; j < 2; j++) {
            step<<<GRID, BLOCK, 0, s[j]>>>(d[j], N, (unsigned)(100 * j + k));
            CHECK(cudaGetLastError());
        }
    for (int j = 0; j < 2; j++)
        CHECK(cudaMemcpyAsync(h[j], d[j], N * sizeof(unsigned), cudaMemcpyDeviceToHost, s[j]));
    for (int j = 0; j < 2; j++)
        CHECK(cudaStreamSynchronize(s[j]));
    int bad = 0;
    for (int j = 0; j < 2; j++) {
        unsigned want = chain(0, 100u * j, STEPS);
        for (int i = 0; i < N; i++)
            if (h[j][i] != want && bad++ < 5)
                printf("  stream %d: x[%d] = %u, want %u\n", j, i, h[j][i], want);
        printf("stream %d: %d steps in order: x = %u (want %u)\n", j, STEPS, h[j][0], want);
    }

    // the legacy default stream waits for stream 0's chain before it reads
    CHECK(cudaMemsetAsync(d[0], 0, N * sizeof(unsigned), s[0]));
    for (int k = 0; k < STEPS; k++)
        step<<<GRID, BLOCK, 0, s[0]>>>(d[0], N, (unsigned)k);
    plusOne<<<GRID, BLOCK>>>(d[0], d_out, N);
    CHECK(cudaGetLastError());
    unsigned last = 0;
    CHECK(cudaMemcpy(&last, d_out + N - 1, sizeof last, cudaMemcpyDeviceToHost));
    printf("legacy stream after a blocking stream: %u (want %u)\n", last, chain(0, 0, STEPS) + 1u);
    bad += last != chain(0, 0, STEPS) + 1u;

    // a non-blocking stream: not waited for by the blocking cudaMemcpy
    cudaStream_t nb;
    unsigned flags = 0;
    CHECK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
    CHECK(cudaStreamGetFlags(nb, &flags));
    int *go, *done;
    CHECK(cudaMallocManaged(&go, sizeof(int)));
    CHECK(cudaMallocManaged(&done, sizeof(int)));
    *go = 0;
    *done = 0;
    CHECK(cudaDeviceSynchronize());
    waitForHost<<<1, 1, 0, nb>>>(go, done);
    CHECK(cudaGetLastError());
    unsigned first = 0;
    CHECK(cudaMemcpy(&first, d_out, sizeof first, cudaMemcpyDeviceToHost));
    cudaError_t q = cudaStreamQuery(nb);
    *(volatile int *)go = 1;   // only now can the kernel end
    CHECK(cudaStreamSynchronize(nb));
    printf("non-blocking stream (flags %u): cudaMemcpy returned while its kernel waited (query: %s), then it "
           "ended: %d\n", flags, cudaGetErrorName(q), *done);
    bad += q != cudaErrorNotReady || *done != 7 || first != chain(0, 0, STEPS) + 1u;

    CHECK(cudaStreamDestroy(nb));
    CHECK(cudaFree(go));
    CHECK(cudaFree(done));
    for (int j = 0; j < 2; j++) {
        CHECK(cudaStreamDestroy(s[j]));
        CHECK(cudaFree(d[j]));
        CHECK(cudaFreeHost(h[j]));
    }
    CHECK(cudaFree(d_out));
    printf("stream_order: %s\n", bad ? "FAIL" : "PASS");
    return bad ? 1 : 0;
}
