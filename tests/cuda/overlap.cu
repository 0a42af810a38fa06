// overlap.cu: the host works while a kernel runs, as asyncAPI shows.
// A launch returns at once; the host then does its own work (counting
// primes, checked against the known count) and counts the rounds it did
// while the kernel was still running, by cudaStreamQuery. The kernel waits
// for a flag the host raises only after its first round, so at least one
// round overlaps the kernel on every device and every run: the test does
// not depend on timing. Afterwards the kernel's result is checked, and a
// cudaDeviceSynchronize right after a launch waits for it.
// Conformance: asynchronous launches, cudaStreamQuery on the default
// stream (cudaErrorNotReady while the kernel runs), managed memory the host
// writes while a kernel reads it (a volatile read in a loop, as
// spin_flag.cu).
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

// Waits for the host's flag, then sums 0..n-1 into *out, one block of 256.
__global__ void waitThenSum(volatile int *go, int n, unsigned long long *out)
{
    while (*go == 0) {
    }
    __shared__ unsigned long long part[256];
    unsigned long long s = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s += (unsigned long long)i;
    part[threadIdx.x] = s;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
        if (threadIdx.x < w)
            part[threadIdx.x] += part[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        *out = part[0];
}

// One round of host work: the primes below 2000 (303 of them).
static int primesBelow(int n)
{
    int count = 0;
    for (int k = 2; k < n; k++) {
        int prime = 1;
        for (int d = 2; d * d <= k && prime; d++)
            prime = k % d != 0;
        count += prime;
    }
    return count;
}

int main()
{
    const int N = 100000;
    int *go;
    unsigned long long *sum;
    CHECK(cudaMallocManaged(&go, sizeof(int)));
    CHECK(cudaMallocManaged(&sum, sizeof *sum));
    *go = 0;
    *sum = 0;
    CHECK(cudaDeviceSynchronize());

    waitThenSum<<<1, 256>>>(go, N, sum);
    CHECK(cudaGetLastError());
    int rounds = 0, wrong = 0;
    while (cudaStreamQuery(0) == cudaErrorNotReady) {
        wrong += primesBelow(2000) != 303;
        rounds++;
        if (rounds == 1)
            *(volatile int *)go = 1;   // the kernel may end only now
    }
    CHECK(cudaDeviceSynchronize());
    unsigned long long want = (unsigned long long)N * (N - 1) / 2;
    int bad = rounds == 0 || wrong || *sum != want;
    printf("host rounds while the kernel ran: %s\n", rounds > 0 ? "more than 0" : "none");
    printf("host work right: %s; kernel sum = %llu (want %llu)\n", wrong ? "no" : "yes", *sum, want);

    // a synchronise right after a launch waits for it
    *go = 1;
    *sum = 0;
    waitThenSum<<<1, 256>>>(go, 1000, sum);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    printf("after cudaDeviceSynchronize: sum = %llu (want %d)\n", *sum, 1000 * 999 / 2);
    bad += *sum != 1000ull * 999 / 2;
    printf("overlap: %s\n", bad ? "FAIL" : "PASS");
    CHECK(cudaFree(go));
    CHECK(cudaFree(sum));
    return bad ? 1 : 0;
}
