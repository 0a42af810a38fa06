// wait_event.cu: one stream waits for an event recorded on another.
// Conformance: cudaStreamWaitEvent between two created streams: stream B's
// kernel reads what stream A's kernel wrote, with the host not waiting in
// between; while A's kernel is held (it spins on a flag in managed memory
// that the host raises after looking), B's work is pending too:
// cudaStreamQuery(B) says cudaErrorNotReady, though nothing was issued to B
// but the wait and a kernel. A second event recorded on B after its kernel
// lets the host wait for both streams' work with one cudaEventSynchronize.
// (The emulator runs all streams' work in one order, the order issued, so
// the wait holds there by construction; on a GPU, whose streams run at
// once, this checks it.)
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

// Waits for the host's flag, then x[i] = 2i + 1.
__global__ void produce(volatile int *go, int *x, int n)
{
    while (*go == 0) {
    }
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = 2 * i + 1;
}

// y[i] = x[i] * x[i].
__global__ void consume(const int *x, int *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i] * x[i];
}

int main()
{
    const int N = 2048, BLOCK = 256;
    int *go, *x, *y;
    CHECK(cudaMallocManaged(&go, sizeof(int)));
    CHECK(cudaMalloc(&x, N * sizeof(int)));
    CHECK(cudaMalloc(&y, N * sizeof(int)));
    *go = 0;
    cudaStream_t a, b;
    cudaEvent_t produced, consumed;
    CHECK(cudaStreamCreate(&a));
    CHECK(cudaStreamCreate(&b));
    CHECK(cudaEventCreateWithFlags(&produced, cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&consumed, cudaEventDisableTiming));

    produce<<<N / BLOCK, BLOCK, 0, a>>>(go, x, N);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(produced, a));
    CHECK(cudaStreamWaitEvent(b, produced, 0));
    consume<<<N / BLOCK, BLOCK, 0, b>>>(x, y, N);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(consumed, b));

    cudaError_t qb = cudaStreamQuery(b);
    printf("stream B while stream A's kernel is held: %s\n", cudaGetErrorName(qb));
    *(volatile int *)go = 1;
    CHECK(cudaEventSynchronize(consumed));

    int *h = (int *)malloc(N * sizeof(int)), bad = qb != cudaErrorNotReady;
    CHECK(cudaMemcpy(h, y, N * sizeof(int), cudaMemcpyDeviceToHost));
    long long sum = 0;
    for (int i = 0; i < N; i++) {
        if (h[i] != (2 * i + 1) * (2 * i + 1) && bad++ < 5)
            printf("  y[%d] = %d, want %d\n", i, h[i], (2 * i + 1) * (2 * i + 1));
        sum += h[i];
    }
    printf("stream B read stream A's result: y[0] = %d, y[%d] = %d, sum = %lld\n", h[0], N - 1, h[N - 1], sum);
    printf("wait_event: %s\n", bad ? "FAIL" : "PASS");
    free(h);
    CHECK(cudaEventDestroy(produced));
    CHECK(cudaEventDestroy(consumed));
    CHECK(cudaStreamDestroy(a));
    CHECK(cudaStreamDestroy(b));
    CHECK(cudaFree(go));
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    return bad ? 1 : 0;
}
