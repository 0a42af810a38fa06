/* common/simt/simt_driver.h: what every CUDA driver of the workbook does around
 * its kernels, the same on a GPU (nvcc) and on the SIMT emulator.
 *
 *   pw_cuda_start(prog)      GPU: the device's properties, or exit 77 with one
 *                            line on stderr when there is none (the guard
 *                            linked in, common/gpu_guard.cu, says it before
 *                            main). Emulator: says so.
 *   pw_cuda_time(...)        GPU: times a launch with CUDA events (warm-up,
 *                            then repeats; median and IQR as pw_bench does).
 *   pw_cuda_sync_check()     after a launch: the launch and the run succeeded.
 *
 * Emulated time means nothing, so drivers time on the GPU only and report
 * the emulator's counters instead (pw_simt_last_counters). */
#ifndef PW_SIMT_DRIVER_H
#define PW_SIMT_DRIVER_H

#include "simt_host.h"

/* Every launch is followed by this: the launch itself (bad configuration)
 * and the run (illegal address, and on the emulator deadlocks). */
#define pw_cuda_sync_check()                      \
    do {                                          \
        CUDA_CHECK(cudaGetLastError());           \
        CUDA_CHECK(cudaDeviceSynchronize());      \
    } while (0)

static inline void *pw_cuda_alloc(size_t bytes)
{
    void *p = NULL;
    CUDA_CHECK(cudaMalloc(&p, bytes ? bytes : 1));
    return p;
}

#if PW_SIMT_EMULATED
static inline void pw_cuda_start(const char *prog)
{
    (void)prog;
    printf("device: the SIMT emulator on this CPU (%d worker thread%s): counts are exact, emulated time means "
           "nothing\n", pw_simt_workers(), pw_simt_workers() == 1 ? "" : "s");
}
#else
static inline void pw_cuda_start(const char *prog)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        /* common/gpu_guard.cu has already said so before main; this is for
         * a program linked without it. */
        fprintf(stderr, "%s: skipped (needs a GPU): no CUDA device (CUDA says: %s)\n", prog,
                e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
        exit(PW_EXIT_SKIP);
    }
    cudaDeviceProp p;
    CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
    printf("device: %s, compute capability %d.%d, %d SMs, %.1f GiB, %zu KiB shared memory per block, L2 %d MiB\n",
           p.name, p.major, p.minor, p.multiProcessorCount, (double)p.totalGlobalMem / (1 << 30),
           p.sharedMemPerBlock / 1024, p.l2CacheSize >> 20);
}
#endif

typedef void (*pw_cuda_launch_fn)(void *ctx);

/* GPU: time fn(ctx) (which launches kernels) with CUDA events. Each sample
 * times `inner` back-to-back calls, so a 5-us kernel is not timed by one
 * event pair alone; the samples' per-call times go into *st. */
static inline void pw_cuda_time(const pw_bench_config *cfg, pw_cuda_launch_fn fn, void *ctx, pw_bench_stats *st)
{
    cudaEvent_t a, b;
    CUDA_CHECK(cudaEventCreate(&a));
    CUDA_CHECK(cudaEventCreate(&b));
    fn(ctx);                                   /* cold: module load, first touch */
    CUDA_CHECK(cudaDeviceSynchronize());
    int inner = 1;
    float ms = 0;
    for (;;) {                                 /* a sample of at least ~1 ms */
        CUDA_CHECK(cudaEventRecord(a));
        for (int k = 0; k < inner; k++) fn(ctx);
        CUDA_CHECK(cudaEventRecord(b));
        CUDA_CHECK(cudaEventSynchronize(b));
        CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
        if (ms >= 1.0f || inner >= 1 << 16) break;
        inner *= 2;
    }
    static double samples[PW_MAX_SAMPLES];
    int n = 0;
    double spent = 0;
    while (n < PW_MAX_SAMPLES && (n < cfg->min_reps || spent < cfg->min_time_s)) {
        CUDA_CHECK(cudaEventRecord(a));
        for (int k = 0; k < inner; k++) fn(ctx);
        CUDA_CHECK(cudaEventRecord(b));
        CUDA_CHECK(cudaEventSynchronize(b));
        CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
        samples[n++] = ms * 1e-3 / inner;
        spent += ms * 1e-3;
    }
    CUDA_CHECK(cudaGetLastError());
    pw_summarize(samples, n, st);
    st->inner = inner;
    CUDA_CHECK(cudaEventDestroy(a));
    CUDA_CHECK(cudaEventDestroy(b));
}

#endif
