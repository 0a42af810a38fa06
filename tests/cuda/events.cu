// events.cu: events complete when the stream's work before them has run,
// and time it.
// Conformance: cudaEventCreate, cudaEventCreateWithFlags
// (cudaEventDisableTiming), cudaEventRecord on a stream, cudaEventQuery and
// cudaStreamQuery saying cudaErrorNotReady while a kernel runs (made
// certain, not left to timing: the kernel spins on a flag in managed memory
// that the host raises only after it has seen cudaErrorNotReady),
// cudaEventSynchronize, cudaStreamSynchronize, cudaEventElapsedTime (never negative for a stop
// recorded after its start; cudaErrorInvalidResourceHandle for an event
// created without timing, cudaErrorNotReady before both have run), a never-recorded event counting as complete;
// cudaErrorNotReady is not an error: cudaGetLastError stays cudaSuccess.
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

// Waits until the host raises *go, then fills x with i * i.
__global__ void waitThenFill(volatile int *go, int *x, int n)
{
    while (*go == 0) {
    }
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = i * i;
}

int main()
{
    const int N = 4096;
    int *go, *d, *h;
    CHECK(cudaMallocManaged(&go, sizeof(int)));
    CHECK(cudaMalloc(&d, N * sizeof(int)));
    CHECK(cudaMallocHost(&h, N * sizeof(int)));
    *go = 0;
    cudaStream_t s;
    cudaEvent_t start, stop, untimed, never;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming));
    CHECK(cudaEventCreate(&never));

    CHECK(cudaEventRecord(start, s));
    waitThenFill<<<N / 256, 256, 0, s>>>(go, d, N);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(h, d, N * sizeof(int), cudaMemcpyDeviceToHost, s));
    CHECK(cudaEventRecord(stop, s));
    CHECK(cudaEventRecord(untimed, s));

    // The kernel cannot end before the flag is up: the stop event and the stream are pending.
    cudaError_t qe = cudaEventQuery(stop), qs = cudaStreamQuery(s);
    printf("while the kernel waits: cudaEventQuery %s, cudaStreamQuery %s\n", cudaGetErrorName(qe),
           cudaGetErrorName(qs));
    printf("cudaGetLastError after those: %s\n", cudaGetErrorName(cudaGetLastError()));
    float ms = -1;
    cudaError_t early = cudaEventElapsedTime(&ms, start, stop);
    printf("cudaEventElapsedTime before stop has run: %s\n", cudaGetErrorName(early));
    cudaGetLastError();
    printf("a never-recorded event: %s\n", cudaGetErrorName(cudaEventQuery(never)));
    *(volatile int *)go = 1;

    CHECK(cudaEventSynchronize(stop));
    printf("after cudaEventSynchronize: cudaEventQuery %s\n", cudaGetErrorName(cudaEventQuery(stop)));
    CHECK(cudaStreamSynchronize(s));
    printf("after cudaStreamSynchronize: cudaStreamQuery %s\n", cudaGetErrorName(cudaStreamQuery(s)));
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    printf("elapsed start..stop >= 0: %s\n", ms >= 0.0f ? "yes" : "no");
    cudaError_t nt = cudaEventElapsedTime(&ms, start, untimed);
    printf("elapsed to an event without timing: %s\n", cudaGetErrorName(nt));
    cudaGetLastError();   // (that error is the last error now: clear it)

    int bad = 0;
    for (int i = 0; i < N; i++)
        if (h[i] != i * i && bad++ < 5)
            printf("  h[%d] = %d, want %d\n", i, h[i], i * i);
    bad += qe != cudaErrorNotReady || qs != cudaErrorNotReady || early != cudaErrorNotReady || ms < 0.0f ||
           nt != cudaErrorInvalidResourceHandle;
    printf("events: %s\n", bad ? "FAIL" : "PASS");

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaEventDestroy(untimed));
    CHECK(cudaEventDestroy(never));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(go));
    CHECK(cudaFree(d));
    CHECK(cudaFreeHost(h));
    return bad ? 1 : 0;
}
