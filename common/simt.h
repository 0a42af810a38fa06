/* common/simt.h: CUDA kernels on a GPU with nvcc, or on the CPU without one.
 *
 * Kernels are written once, in the C subset of CUDA, in .cu files. nvcc
 * builds them for the GPU; any C11 compiler builds the same files against
 * the SIMT emulator in common/simt.c, which runs each block's threads as
 * fibers on one OS thread and counts what the GPU chapters are about.
 *
 * What a kernel file and its driver write (the same text for both builds):
 *
 *   #include "simt.h"
 *   __global__ void scale(const float *x, float *y, float a, int n)
 *   {
 *       int i = blockIdx.x * blockDim.x + threadIdx.x;
 *       if (i < n) STORE(y[i]) = a * LOAD(x[i]);    // counted loads/stores
 *   }
 *   ...
 *   CUDA_CHECK(cudaMalloc((void **)&d_x, n * sizeof(float)));
 *   PW_LAUNCH(scale, pw_ceil_div(n, 256), 256, 0, d_x, d_y, 2.0f, n);
 *   CUDA_CHECK(cudaGetLastError());
 *
 * The three things that differ from plain CUDA, and why:
 *   PW_LAUNCH(k, grid, block, shmem, args...)  is k<<<grid, block, shmem>>>(args...)
 *       under nvcc; C has no <<< >>>, so the emulator needs a macro.
 *   LOAD(x), STORE(x) = v                        are plain x under nvcc; the
 *       emulator sees the address, so it can count sectors and bank
 *       conflicts and catch out-of-bounds accesses. Uninstrumented accesses
 *       work too, they are just not counted or checked.
 *   DYNAMIC_SHARED(T, name);                     is extern __shared__ T name[];
 *
 * Everything else is CUDA's own spelling: threadIdx, blockIdx, blockDim,
 * gridDim, dim3, warpSize, __global__, __device__, __host__, __shared__
 * (static arrays), __syncthreads, __syncwarp, __shfl_sync / _up_ / _down_ /
 * _xor_ (with width), __ballot_sync, __any_sync, __all_sync, __popc, __ffs,
 * atomicAdd (int, unsigned, unsigned long long, float, double), atomicMax
 * (int, unsigned), atomicCAS (int, unsigned, unsigned long long), and the host
 * API cudaMalloc, cudaMemcpy, cudaMemset, cudaFree, cudaDeviceSynchronize,
 * cudaGetLastError, cudaGetErrorString, events and device properties.
 *
 * Behaves like a GPU where learners get burned:
 *   - shared memory holds a poison pattern (all bytes 0xFF: a float NaN, an
 *     int -1) at the start of every block: nothing carries over;
 *   - a barrier reached by only some threads, threads at different
 *     barriers, a thread that exits while others wait at a barrier, or a
 *     block where every thread waits: an error naming the kernel, the block,
 *     the threads and the barrier's file:line, never a hang;
 *   - a warp collective whose mask leaves out the caller, names lanes that
 *     do not exist or have exited, or reads a lane outside the mask: an error;
 *   - LOAD/STORE/atomics outside every cudaMalloc allocation: an error that
 *     says how far past which allocation (kernels touch device memory only).
 * An error stops the launch (the rest of the grid is not run), is printed
 * once on stderr (unless pw_simt_set_quiet), and is returned by the next
 * cudaGetLastError / cudaDeviceSynchronize, as a GPU's would be.
 *
 * Counters, per launch (pw_simt_last_counters) and summed since the last
 * pw_simt_counters_reset (pw_simt_total_counters): see pw_simt_counters.
 * A "warp step" is one warp-level instruction the emulator can see: an
 * instrumented load or store, or a warp collective. Accesses of the lanes of
 * a warp are matched into one step by where they come from (the LOAD's
 * file:line) and how many times each lane has passed there since the warp
 * last met, which is what lock-step SIMT execution would group together.
 *
 * Scheduling: deterministic by default (threads run in order; a thread runs
 * until it must meet others at a barrier or collective). The environment
 * variable PW_SIMT_SHUFFLE=SEED (or pw_simt_set_shuffle) runs them in a
 * random order per round instead, to expose races. PW_SIMT_WORKERS=N (or
 * pw_simt_set_workers) runs the blocks of a grid on N OS threads.
 * Emulated time means nothing: compare counts, not seconds.
 */
#ifndef PW_SIMT_H
#define PW_SIMT_H

/* ====================================================================== */
#ifdef __CUDACC__   /* ---- nvcc: the real thing ---------------------------- */

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define PW_LAUNCH(kernel, grid, block, shmem, ...) kernel<<<(grid), (block), (shmem)>>>(__VA_ARGS__)
#define LOAD(x) (x)
#define STORE(x) (x)
#define DYNAMIC_SHARED(type, name) extern __shared__ type name[]
#define PW_SIMT_EMULATED 0

#else   /* ---- any C compiler: the emulator --------------------------------- */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define PW_SIMT_EMULATED 1

/* ---- types and qualifiers ----------------------------------------------- */

typedef struct dim3 { unsigned x, y, z; } dim3;
typedef dim3 uint3;
/* dim3(16, 16) as in CUDA: the missing sizes are 1. */
static inline dim3 pw_dim3_1(unsigned x) { dim3 d = { x, 1, 1 }; return d; }
static inline dim3 pw_dim3_2(unsigned x, unsigned y) { dim3 d = { x, y, 1 }; return d; }
static inline dim3 pw_dim3_3(unsigned x, unsigned y, unsigned z) { dim3 d = { x, y, z }; return d; }
#define PW_DIM3_PICK(_1, _2, _3, name, ...) name
#define dim3(...) PW_DIM3_PICK(__VA_ARGS__, pw_dim3_3, pw_dim3_2, pw_dim3_1, _)(__VA_ARGS__)
/* A launch takes an int or a dim3, as CUDA's does. */
static inline dim3 pw_dim3_same(dim3 d) { return d; }
static inline dim3 pw_dim3_int(long long x) { return pw_dim3_1((unsigned)x); }
#define PW_DIM3_ARG(v) _Generic((v), dim3: pw_dim3_same, default: pw_dim3_int)(v)

#define __global__
#define __host__
#define __device__ static inline
#define __forceinline__
#define __noinline__
#define __restrict__ restrict
/* One copy per OS thread, and an OS thread runs one block at a time. */
#define __shared__ static _Thread_local
#define DYNAMIC_SHARED(type, name) type *name = (type *)pw_simt_dynamic_shared()
enum { warpSize = 32 };

/* ---- who am I: the running emulated thread -------------------------------- */

typedef struct pw_simt_thread pw_simt_thread;
struct pw_simt_thread_public {      /* the first members of every pw_simt_thread */
    uint3 thread_idx;
    const uint3 *block_idx;
    const dim3 *block_dim, *grid_dim;
};
extern _Thread_local struct pw_simt_thread_public *pw_simt_self;
#define threadIdx (pw_simt_self->thread_idx)
#define blockIdx (*pw_simt_self->block_idx)
#define blockDim (*pw_simt_self->block_dim)
#define gridDim (*pw_simt_self->grid_dim)

/* ---- memory accesses ------------------------------------------------------- */

/* A site names where an access or collective is in the source. */
#define PW_SIMT_STR2(x) #x
#define PW_SIMT_STR(x) PW_SIMT_STR2(x)
#define PW_SIMT_SITE __FILE__ ":" PW_SIMT_STR(__LINE__)

void *pw_simt_load(const void *addr, size_t bytes, const char *site);
void *pw_simt_store(void *addr, size_t bytes, const char *site);
#define LOAD(x) (*(const __typeof__(x) *)pw_simt_load(&(x), sizeof(x), PW_SIMT_SITE))
#define STORE(x) (*(__typeof__(x) *)pw_simt_store((void *)&(x), sizeof(x), PW_SIMT_SITE))
void *pw_simt_dynamic_shared(void);

/* ---- barriers and warp collectives ------------------------------------------ */

void pw_simt_syncthreads(const char *site);
#define __syncthreads() pw_simt_syncthreads(PW_SIMT_SITE)

typedef enum { PW_SHFL_IDX, PW_SHFL_UP, PW_SHFL_DOWN, PW_SHFL_XOR, PW_VOTE_BALLOT, PW_VOTE_ANY,
               PW_VOTE_ALL, PW_SYNCWARP } pw_simt_collective;
uint64_t pw_simt_collect(pw_simt_collective op, unsigned mask, uint64_t value, int arg, int width,
                         const char *site);

/* __syncwarp() or __syncwarp(mask): the mask is the last of {full, mask...}. */
void pw_simt_syncwarp(const unsigned *masks, size_t n, const char *site);
#define __syncwarp(...) pw_simt_syncwarp((const unsigned[]){ 0xffffffffu, __VA_ARGS__ }, \
    sizeof((const unsigned[]){ 0xffffffffu, __VA_ARGS__ }) / sizeof(unsigned), PW_SIMT_SITE)

/* Shuffles carry any 4- or 8-byte value through its bits. */
static inline uint64_t pw_simt_bits_f(float v) { uint32_t u; __builtin_memcpy(&u, &v, 4); return u; }
static inline uint64_t pw_simt_bits_d(double v) { uint64_t u; __builtin_memcpy(&u, &v, 8); return u; }
static inline float pw_simt_f_bits(uint64_t b) { uint32_t u = (uint32_t)b; float v; __builtin_memcpy(&v, &u, 4); return v; }
static inline double pw_simt_d_bits(uint64_t b) { double v; __builtin_memcpy(&v, &b, 8); return v; }
#define PW_SHFL_F(op) \
    static inline float pw_shfl_f_##op(unsigned m, float v, int a, int w, const char *s) \
    { return pw_simt_f_bits(pw_simt_collect(op, m, pw_simt_bits_f(v), a, w, s)); } \
    static inline double pw_shfl_d_##op(unsigned m, double v, int a, int w, const char *s) \
    { return pw_simt_d_bits(pw_simt_collect(op, m, pw_simt_bits_d(v), a, w, s)); } \
    static inline int pw_shfl_i_##op(unsigned m, int v, int a, int w, const char *s) \
    { return (int)(uint32_t)pw_simt_collect(op, m, (uint32_t)v, a, w, s); } \
    static inline unsigned pw_shfl_u_##op(unsigned m, unsigned v, int a, int w, const char *s) \
    { return (unsigned)pw_simt_collect(op, m, v, a, w, s); } \
    static inline long long pw_shfl_ll_##op(unsigned m, long long v, int a, int w, const char *s) \
    { return (long long)pw_simt_collect(op, m, (uint64_t)v, a, w, s); } \
    static inline unsigned long long pw_shfl_ull_##op(unsigned m, unsigned long long v, int a, int w, const char *s) \
    { return (unsigned long long)pw_simt_collect(op, m, v, a, w, s); }
PW_SHFL_F(PW_SHFL_IDX)
PW_SHFL_F(PW_SHFL_UP)
PW_SHFL_F(PW_SHFL_DOWN)
PW_SHFL_F(PW_SHFL_XOR)
#define PW_SHFL(op, mask, v, a, w) \
    _Generic((v), float: pw_shfl_f_##op, double: pw_shfl_d_##op, int: pw_shfl_i_##op, \
             unsigned: pw_shfl_u_##op, long long: pw_shfl_ll_##op, \
             unsigned long long: pw_shfl_ull_##op)((mask), (v), (a), (w), PW_SIMT_SITE)
/* The width is optional (default warpSize): pick the 4th argument or 32. */
#define PW_SHFL4(op, mask, v, a, w, ...) PW_SHFL(op, mask, v, a, w)
#define __shfl_sync(...) PW_SHFL4(PW_SHFL_IDX, __VA_ARGS__, 32, 0)
#define __shfl_up_sync(...) PW_SHFL4(PW_SHFL_UP, __VA_ARGS__, 32, 0)
#define __shfl_down_sync(...) PW_SHFL4(PW_SHFL_DOWN, __VA_ARGS__, 32, 0)
#define __shfl_xor_sync(...) PW_SHFL4(PW_SHFL_XOR, __VA_ARGS__, 32, 0)

#define __ballot_sync(mask, pred) \
    ((unsigned)pw_simt_collect(PW_VOTE_BALLOT, (mask), (pred) != 0, 0, 32, PW_SIMT_SITE))
#define __any_sync(mask, pred) \
    ((int)pw_simt_collect(PW_VOTE_ANY, (mask), (pred) != 0, 0, 32, PW_SIMT_SITE))
#define __all_sync(mask, pred) \
    ((int)pw_simt_collect(PW_VOTE_ALL, (mask), (pred) != 0, 0, 32, PW_SIMT_SITE))
/* The lanes of my warp that have not exited. */
unsigned pw_simt_activemask(void);
#define __activemask() pw_simt_activemask()

static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline int __ffs(int x) { return __builtin_ffs(x); }

/* ---- atomics ------------------------------------------------------------------ */

int pw_atomic_add_i(int *p, int v, const char *site);
unsigned pw_atomic_add_u(unsigned *p, unsigned v, const char *site);
unsigned long long pw_atomic_add_ull(unsigned long long *p, unsigned long long v, const char *site);
float pw_atomic_add_f(float *p, float v, const char *site);
double pw_atomic_add_d(double *p, double v, const char *site);
int pw_atomic_max_i(int *p, int v, const char *site);
unsigned pw_atomic_max_u(unsigned *p, unsigned v, const char *site);
int pw_atomic_cas_i(int *p, int cmp, int v, const char *site);
unsigned pw_atomic_cas_u(unsigned *p, unsigned cmp, unsigned v, const char *site);
unsigned long long pw_atomic_cas_ull(unsigned long long *p, unsigned long long cmp,
                                     unsigned long long v, const char *site);
#define atomicAdd(p, v) _Generic((p), int *: pw_atomic_add_i, unsigned *: pw_atomic_add_u, \
    unsigned long long *: pw_atomic_add_ull, float *: pw_atomic_add_f, \
    double *: pw_atomic_add_d)((p), (v), PW_SIMT_SITE)
#define atomicMax(p, v) _Generic((p), int *: pw_atomic_max_i, unsigned *: pw_atomic_max_u)((p), (v), PW_SIMT_SITE)
#define atomicCAS(p, c, v) _Generic((p), int *: pw_atomic_cas_i, unsigned *: pw_atomic_cas_u, \
    unsigned long long *: pw_atomic_cas_ull)((p), (c), (v), PW_SIMT_SITE)

/* ---- launching ---------------------------------------------------------------- */

typedef struct {
    const char *name;       /* the kernel's name, for messages */
    dim3 grid, block;
    size_t shmem;           /* bytes of dynamic shared memory per block */
} pw_simt_config;
static inline pw_simt_config pw_simt_make_config(const char *name, dim3 g, dim3 b, size_t s)
{
    pw_simt_config c = { name, g, b, s };
    return c;
}
/* Runs thunk(args) as every thread of the grid. The launchers that call it
 * are generated from each .cu file's __global__ signatures by mk/cuda.mk. */
void pw_simt_launch(const pw_simt_config *cfg, void (*thunk)(void *), void *args);
#define PW_LAUNCH(kernel, grid, block, shmem, ...) \
    pw_launch_##kernel(pw_simt_make_config(#kernel, PW_DIM3_ARG(grid), PW_DIM3_ARG(block), (shmem)), \
                       __VA_ARGS__)

/* ---- the host API stand-ins ---------------------------------------------------- */

typedef enum {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorNoDevice = 100,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchFailure = 719,
} cudaError_t;
typedef enum { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost,
               cudaMemcpyDeviceToDevice, cudaMemcpyDefault } cudaMemcpyKind;

typedef struct {
    char name[256];
    int major, minor;             /* compute capability: 0.0 for the emulator */
    int warpSize;
    int maxThreadsPerBlock;
    int multiProcessorCount;      /* the worker OS threads */
    size_t sharedMemPerBlock;
    size_t totalGlobalMem;
    int l2CacheSize;
    int memoryBusWidth;
} cudaDeviceProp;

typedef struct pw_simt_event *cudaEvent_t;

#define cudaMalloc pw_simt_malloc
#define cudaFree pw_simt_free
#define cudaMemcpy pw_simt_memcpy
#define cudaMemset pw_simt_memset
#define cudaDeviceSynchronize pw_simt_device_synchronize
#define cudaGetLastError pw_simt_get_last_error
#define cudaPeekAtLastError pw_simt_peek_last_error
#define cudaGetErrorString pw_simt_error_string
#define cudaGetDeviceCount pw_simt_get_device_count
#define cudaGetDeviceProperties pw_simt_get_device_properties
#define cudaSetDevice pw_simt_set_device
#define cudaEventCreate pw_simt_event_create
#define cudaEventRecord(...) pw_simt_event_record(__VA_ARGS__, 0)
#define cudaEventSynchronize pw_simt_event_synchronize
#define cudaEventElapsedTime pw_simt_event_elapsed_time
#define cudaEventDestroy pw_simt_event_destroy

cudaError_t pw_simt_malloc(void **p, size_t bytes);
cudaError_t pw_simt_free(void *p);
cudaError_t pw_simt_memcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind);
cudaError_t pw_simt_memset(void *p, int value, size_t bytes);
cudaError_t pw_simt_device_synchronize(void);
cudaError_t pw_simt_get_last_error(void);
cudaError_t pw_simt_peek_last_error(void);
const char *pw_simt_error_string(cudaError_t e);
cudaError_t pw_simt_get_device_count(int *n);
cudaError_t pw_simt_get_device_properties(cudaDeviceProp *p, int device);
cudaError_t pw_simt_set_device(int device);
cudaError_t pw_simt_event_create(cudaEvent_t *e);
cudaError_t pw_simt_event_record(cudaEvent_t e, ...);
cudaError_t pw_simt_event_synchronize(cudaEvent_t e);
cudaError_t pw_simt_event_elapsed_time(float *ms, cudaEvent_t start, cudaEvent_t stop);
cudaError_t pw_simt_event_destroy(cudaEvent_t e);

/* ---- the emulator's own controls (tests and chapter programs) ------------------ */

typedef struct {
    long long launches, blocks, threads;
    long long warp_steps;        /* warp-level instructions seen (accesses + collectives) */
    long long active_lanes;      /* lanes active in them, summed: SIMT efficiency = this / (32 warp_steps) */
    long long global_loads, global_stores;     /* per thread: LOADs/STOREs of device memory */
    long long global_load_requests, global_store_requests;   /* per warp */
    long long global_load_sectors, global_store_sectors;     /* 32-byte sectors those touched */
    long long shared_loads, shared_stores;     /* per thread */
    long long shared_requests;   /* per warp */
    long long shared_wavefronts; /* sum over requests of the bank-conflict ways (1 = none) */
    long long shared_max_ways;   /* the worst request */
    long long barriers;          /* __syncthreads passed, per block */
    long long barrier_crossings; /* ... times the threads that passed it */
    long long collectives;       /* warp shuffles, votes and __syncwarps completed */
    long long atomics;           /* per thread */
} pw_simt_counters;

const pw_simt_counters *pw_simt_last_counters(void);
const pw_simt_counters *pw_simt_total_counters(void);
void pw_simt_counters_reset(void);
/* Derived figures, 0 when there was nothing to count. */
double pw_simt_efficiency(const pw_simt_counters *c);         /* active lanes / 32 per warp step */
double pw_simt_sectors_per_request(const pw_simt_counters *c); /* global loads and stores */
double pw_simt_conflict_ways(const pw_simt_counters *c);       /* shared wavefronts per request */

/* The message of the last launch error ("" if none) and its code. */
const char *pw_simt_last_error_message(void);
/* Errors are printed on stderr when found, unless quiet (tests). */
void pw_simt_set_quiet(bool quiet);
/* 0: threads run in order (the default); else a seed for a random order. */
void pw_simt_set_shuffle(uint64_t seed);
/* OS threads that run the blocks of a grid (default 1, or PW_SIMT_WORKERS). */
void pw_simt_set_workers(int workers);
int pw_simt_workers(void);
/* Free the fibers and their stacks (also done at exit). */
void pw_simt_shutdown(void);

#endif  /* emulator */

/* ====================================================================== */
/* Both builds: the check macro. Every CUDA call, and cudaGetLastError()
 * after every launch, goes through it: the call's own text, file, line,
 * what CUDA said, then exit 1 (a wrong or missing result). */
#define CUDA_CHECK(call)                                                                 \
    do {                                                                                 \
        cudaError_t pw_err_ = (call);                                                    \
        if (pw_err_ != cudaSuccess) {                                                    \
            fprintf(stderr, "CUDA error %d (%s) from %s at %s:%d\n", (int)pw_err_,       \
                    cudaGetErrorString(pw_err_), #call, __FILE__, __LINE__);            \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

#endif
