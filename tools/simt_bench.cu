// tools/simt_bench.cu: micro-benchmarks of the SIMT emulator's hot paths
// (make simt-bench builds it into $(BUILD)/tools/simt_bench).
//
//   simt_bench [workers...]      default: 1 2
//
// Each benchmark is one kernel, run REPEATS times per worker count; it
// prints the median rate and the spread (min..max) over the repeats. The
// work done is read back from the emulator's own counters
// (pw_simt_last_counters), not assumed from the loop counts, so a rate
// cannot count work that was not done:
//   barrier     __syncthreads() in a loop, 256-thread blocks: barrier
//               crossings (threads x barriers passed) per second
//   global      loads and stores of each thread's own device-memory word
//               (volatile, so every one is an access): checked accesses/s
//   shared      the same on a __shared__ array (racecheck and initcheck on)
//   atomic      atomicAdd on one of 32 __shared__ words: atomics/s
//   shuffle     __shfl_xor_sync in a loop: lane shuffles/s (a warp
//               collective of 32 lanes counts 32)
// The checks are all on (PW_SIMT_CHECKS as set in the environment).
// Two rates each: per second of wall-clock time (what a user waits), and
// per second of the process's CPU time (all its threads): on a shared
// machine the second one moves less with the other load (the wall-clock
// one counts the time the workers waited for a core).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

enum { THREADS = 256, BLOCKS = 16, REPEATS = 5 };

__global__ void k_barrier(int iters)
{
    for (int i = 0; i < iters; i++) __syncthreads();
}

__global__ void k_global(int *a, int iters)
{
    volatile int *p = a + blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = 0; i < iters; i++) *p = *p + 1;
}

__global__ void k_shared(int *out, int iters)
{
    __shared__ int s[THREADS];
    volatile int *p = s + threadIdx.x;
    *p = 0;
    for (int i = 0; i < iters; i++) *p = *p + 1;
    out[blockIdx.x * blockDim.x + threadIdx.x] = *p;
}

__global__ void k_atomic(int *out, int iters)
{
    __shared__ int s[32];
    if (threadIdx.x < 32) s[threadIdx.x] = 0;
    __syncthreads();
    for (int i = 0; i < iters; i++) atomicAdd(&s[threadIdx.x % 32], 1);
    __syncthreads();
    if (threadIdx.x < 32) out[blockIdx.x * 32 + threadIdx.x] = s[threadIdx.x];
}

__global__ void k_shuffle(int *out, int iters)
{
    int v = threadIdx.x;
    for (int i = 0; i < iters; i++) v += __shfl_xor_sync(0xffffffffu, v, i & 31);
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// What one benchmark counts, from the counters of its launch.
static double work_of(int which, const pw_simt_counters *c)
{
    switch (which) {
    case 0: return (double)c->barrier_crossings;
    case 1: return (double)(c->global_loads + c->global_stores);
    case 2: return (double)(c->shared_loads + c->shared_stores);
    case 3: return (double)c->atomics;
    default: return 32.0 * (double)c->collectives;
    }
}

static double cpu_seconds()
{
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "simt_bench: %s: %s\n", what, cudaGetErrorString(e));
        exit(1);
    }
}

int main(int argc, char **argv)
{
    std::vector<int> workers;
    for (int i = 1; i < argc; i++) {
        char *end;
        long v = strtol(argv[i], &end, 10);
        if (*end || v < 1 || v > 256) {
            fprintf(stderr, "simt_bench: '%s' is not a worker count (1..256)\n", argv[i]);
            return 2;
        }
        workers.push_back((int)v);
    }
    if (workers.empty()) workers = { 1, 2 };
    int *d;
    check(cudaMalloc(&d, BLOCKS * THREADS * sizeof(int)), "cudaMalloc");
    check(cudaMemset(d, 0, BLOCKS * THREADS * sizeof(int)), "cudaMemset");
    const char *names[] = { "barrier crossings/s", "checked global accesses/s", "checked shared accesses/s",
                            "shared atomics/s", "lane shuffles/s" };
    // iterations per thread: each launch took 0.3-0.6 s before the speed work (one worker)
    const int iters[] = { 500, 1000, 1000, 1000, 500 };
    printf("simt_bench: %d blocks of %d threads, %d repeats; millions per second of wall-clock time: median "
           "(min..max); per second of CPU time: median\n", BLOCKS, THREADS, REPEATS);
    for (int nw : workers) {
        pw_simt_set_workers(nw);
        for (int b = 0; b < 5; b++) {
            std::vector<double> rate, cpu_rate;
            for (int r = 0; r < REPEATS; r++) {
                auto t0 = std::chrono::steady_clock::now();
                double c0 = cpu_seconds();
                switch (b) {
                case 0: k_barrier<<<BLOCKS, THREADS>>>(iters[b]); break;
                case 1: k_global<<<BLOCKS, THREADS>>>(d, iters[b]); break;
                case 2: k_shared<<<BLOCKS, THREADS>>>(d, iters[b]); break;
                case 3: k_atomic<<<BLOCKS, THREADS>>>(d, iters[b]); break;
                default: k_shuffle<<<BLOCKS, THREADS>>>(d, iters[b]); break;
                }
                check(cudaDeviceSynchronize(), names[b]);
                double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                double c = cpu_seconds() - c0;
                double work = work_of(b, pw_simt_last_counters());
                rate.push_back(work / s / 1e6);
                cpu_rate.push_back(work / c / 1e6);
            }
            std::sort(rate.begin(), rate.end());
            std::sort(cpu_rate.begin(), cpu_rate.end());
            printf("workers %d  %-27s %8.2f  (%.2f..%.2f)  cpu %8.2f\n", nw, names[b], rate[REPEATS / 2],
                   rate.front(), rate.back(), cpu_rate[REPEATS / 2]);
            fflush(stdout);
        }
    }
    check(cudaFree(d), "cudaFree");
    return 0;
}
