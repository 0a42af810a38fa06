// callbacks.cu: host functions queued on a stream run after the stream's
// earlier work and before its later work, in the order issued.
// Conformance: cudaLaunchHostFunc and cudaStreamAddCallback (its status
// argument cudaSuccess), each seeing the result of the copy queued before
// it in pinned memory and not yet the next kernel's; callbacks on two
// streams, each in its own stream's order; cudaStreamSynchronize and
// cudaDeviceSynchronize waiting for them. Callbacks call no CUDA function
// (CUDA forbids it) and only record what they saw.
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

__global__ void setAll(int *x, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = v;
}

struct Seen {
    const int *h;      // the pinned copy to look at
    int stream;        // which stream queued it
    int step;          // its place in that stream
};
static char journal[16][96];   // what each callback saw, in the order they ran per stream
static int entries[2];

static void record(const Seen *s, const char *how, int status)
{
    int k = entries[s->stream]++;
    snprintf(journal[s->stream * 8 + k], sizeof journal[0], "stream %d step %d (%s%s): h[0] = %d, h[last] = %d",
             s->stream, s->step, how, status ? ", status not cudaSuccess" : "", s->h[0], s->h[1023]);
}
static void CUDART_CB hostFunc(void *p) { record((const Seen *)p, "cudaLaunchHostFunc", 0); }
static void CUDART_CB streamCallback(cudaStream_t, cudaError_t status, void *p)
{
    record((const Seen *)p, "cudaStreamAddCallback", status != cudaSuccess);
}

int main()
{
    const int N = 1024;
    int *d[2], *h[2];
    cudaStream_t s[2];
    Seen seen[2][3];
    for (int j = 0; j < 2; j++) {
        CHECK(cudaMalloc(&d[j], N * sizeof(int)));
        CHECK(cudaMallocHost(&h[j], N * sizeof(int)));
        CHECK(cudaStreamCreate(&s[j]));
    }
    for (int step = 0; step < 3; step++)
        for (int j = 0; j < 2; j++) {
            setAll<<<N / 256, 256, 0, s[j]>>>(d[j], N, 10 * (j + 1) + step);
            CHECK(cudaGetLastError());
            CHECK(cudaMemcpyAsync(h[j], d[j], N * sizeof(int), cudaMemcpyDeviceToHost, s[j]));
            seen[j][step] = Seen{ h[j], j, step };
            if (step % 2 == 0)
                CHECK(cudaLaunchHostFunc(s[j], hostFunc, &seen[j][step]));
            else
                CHECK(cudaStreamAddCallback(s[j], streamCallback, &seen[j][step], 0));
        }
    CHECK(cudaStreamSynchronize(s[0]));
    CHECK(cudaDeviceSynchronize());
    int bad = 0;
    for (int j = 0; j < 2; j++) {
        if (entries[j] != 3)
            bad++;
        for (int k = 0; k < entries[j]; k++) {
            printf("%s\n", journal[j * 8 + k]);
            int want = 10 * (j + 1) + k;
            char expect[96];
            snprintf(expect, sizeof expect, "h[0] = %d, h[last] = %d", want, want);
            bad += strstr(journal[j * 8 + k], expect) == NULL;
        }
    }
    printf("callbacks: %s\n", bad ? "FAIL" : "PASS");
    for (int j = 0; j < 2; j++) {
        CHECK(cudaStreamDestroy(s[j]));
        CHECK(cudaFree(d[j]));
        CHECK(cudaFreeHost(h[j]));
    }
    return bad ? 1 : 0;
}
