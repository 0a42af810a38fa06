/* common/simt/simt_api.h: the SIMT emulator's C interface: the types CUDA's
 * programs and the emulator share (dim3, cudaError_t, the counters...), the
 * pw_simt_* functions the emulator's .c files define, and the C names of
 * CUDA's host calls. simt.h includes it in emulator builds (and adds the C++
 * device surface, simt_device.h); the emulator's own files include it through
 * simt_state.h, never simt.h, so that the C machinery sits below the C++
 * surface that calls it. */
#ifndef PW_SIMT_API_H
#define PW_SIMT_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define PW_SIMT_EMULATED 1

#ifdef __cplusplus
extern "C" {
#endif

/* ---- types shared by C and C++ ---------------------------------------------- */

#ifdef __cplusplus
struct uint3 { unsigned x, y, z; };
struct dim3 {
    unsigned x, y, z;
    constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{ x, y, z }; }
};
#else
typedef struct dim3 { unsigned x, y, z; } dim3;
typedef struct uint3 { unsigned x, y, z; } uint3;
#endif

/* the error codes, copy kinds, device properties and attributes, 2-D/3-D copies */
#include "simt_cuda_types.h"

typedef struct pw_simt_event *cudaEvent_t;
typedef struct pw_simt_stream *cudaStream_t;   /* 0: the default stream */

/* ---- the host API: C names; C++ also gets CUDA's overloads (simt_cuda.h) ---- */

cudaError_t pw_simt_malloc(void **p, size_t bytes);
cudaError_t pw_simt_free(void *p);
cudaError_t pw_simt_memcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind);
cudaError_t pw_simt_memset(void *p, int value, size_t bytes);
cudaError_t pw_simt_device_synchronize(void);
cudaError_t pw_simt_get_last_error(void);
cudaError_t pw_simt_peek_last_error(void);
/* An error a host call found by itself: what cudaGetLastError returns next. */
cudaError_t pw_simt_record_error(cudaError_t e);
const char *pw_simt_error_string(cudaError_t e);
const char *pw_simt_error_name(cudaError_t e);
cudaError_t pw_simt_get_device_count(int *n);
cudaError_t pw_simt_get_device_properties(cudaDeviceProp *p, int device);
cudaError_t pw_simt_set_device(int device);
cudaError_t pw_simt_get_device(int *device);
cudaError_t pw_simt_event_create(cudaEvent_t *e);
cudaError_t pw_simt_event_record(cudaEvent_t e, cudaStream_t s);
cudaError_t pw_simt_event_synchronize(cudaEvent_t e);
cudaError_t pw_simt_event_elapsed_time(float *ms, cudaEvent_t start, cudaEvent_t stop);
cudaError_t pw_simt_event_destroy(cudaEvent_t e);
/* Memory the device and the host can both touch, registered as device memory
 * (no initcheck: managed memory starts zeroed, pinned memory is the host's). */
cudaError_t pw_simt_malloc_managed(void **p, size_t bytes);
cudaError_t pw_simt_malloc_host(void **p, size_t bytes);
cudaError_t pw_simt_free_host(void *p);
cudaError_t pw_simt_mem_get_info(size_t *free_bytes, size_t *total_bytes);
cudaError_t pw_simt_device_reset(void);
/* Streams, events, callbacks, asynchronous copies, cooperative launches:
 * queued and run on the emulated device's own thread (simt_stream.h, included
 * below pw_simt_launch). */
cudaError_t pw_simt_stream_create(cudaStream_t *s);
cudaError_t pw_simt_stream_destroy(cudaStream_t s);
cudaError_t pw_simt_stream_synchronize(cudaStream_t s);
/* What cudaMemcpyToSymbol does: the symbol is a host variable here. */
cudaError_t pw_simt_memcpy_to_symbol(void *symbol, const void *src, size_t bytes, size_t offset);
cudaError_t pw_simt_memcpy_from_symbol(void *dst, const void *symbol, size_t bytes, size_t offset);

/* C host code may include a header that declares kernels. */
#ifndef __cplusplus
#define __global__
#define __device__
#define __host__
#endif

/* C; C++ gets CUDA's own overloads from simt_cuda.h */
#ifndef __cplusplus
#define cudaMalloc pw_simt_malloc
#define cudaFree pw_simt_free
#define cudaMemcpy pw_simt_memcpy
#define cudaMemset pw_simt_memset
#define cudaDeviceSynchronize pw_simt_device_synchronize
#define cudaGetLastError pw_simt_get_last_error
#define cudaPeekAtLastError pw_simt_peek_last_error
#define cudaGetErrorString pw_simt_error_string
#define cudaGetErrorName pw_simt_error_name
#define cudaGetDeviceCount pw_simt_get_device_count
#define cudaGetDeviceProperties pw_simt_get_device_properties
#define cudaSetDevice pw_simt_set_device
#define cudaEventCreate pw_simt_event_create
#define cudaEventRecord(...) pw_simt_event_record(__VA_ARGS__, 0)
#define cudaEventSynchronize pw_simt_event_synchronize
#define cudaEventElapsedTime pw_simt_event_elapsed_time
#define cudaEventDestroy pw_simt_event_destroy
#endif

/* ---- launching (C++ code calls this through pw::launch) ----------------------- */

typedef struct {
    const char *name;       /* the kernel's name, for messages */
    dim3 grid, block;
    size_t shmem;           /* bytes of dynamic shared memory per block */
    cudaStream_t stream;
} pw_simt_config;
/* Runs thunk(args) as every thread of the grid. args points at `args_bytes`
 * bytes that hold the kernel's arguments: the kernel may read them (they
 * are its parameters), as it may its own stack. */
void pw_simt_launch(const pw_simt_config *cfg, void (*thunk)(void *), void *args, size_t args_bytes);
#include "simt_stream.h"

/* ---- the emulator's own controls (tests and chapter programs) ------------------ */

typedef struct {
    long long launches, blocks, threads;
    long long warp_steps;        /* warp-level instructions seen (accesses + collectives) */
    long long active_lanes;      /* lanes active in them, summed: SIMT efficiency = this / (32 warp_steps) */
    long long global_loads, global_stores;     /* per thread: loads/stores of device memory */
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
    long long mma_ops;           /* warp-level wmma::mma_sync calls: each one 16x16x16 tile product, 8192 flops */
    long long shared_ideal_wavefronts; /* what the shared requests would need with no bank conflict: one
                                          128-byte wavefront per 32 distinct words (1 for 4-byte lanes, 4 for
                                          16-byte ones); conflicts cost shared_wavefronts minus this */
    /* For the GPU model (common/gpu_model.h): */
    long long global_load_lines, global_store_lines;  /* distinct 128-byte lines per warp request, summed:
                                                         the L1 wavefronts a request costs (32 for a warp
                                                         whose lanes hit 32 different rows, 1 coalesced) */
    long long global_load_l2_sectors; /* load sectors the block had not loaded before: what L2 serves when the
                                         block's L1 keeps every sector it loaded while it runs (the model's
                                         idealised L1; stores always go to L2) */
    long long load_rounds;       /* dependent rounds of global loads, summed over warps: between two
                                    meetings of a warp (barrier, warp collective), the most times any one
                                    global load instruction ran (one pass of a loop = one round; loads
                                    before a barrier = one round) */
    long long warps;             /* warps run: blocks x ceil(threads per block / 32) */
    /* the launch's shape (the largest over launches, in pw_simt_total_counters): */
    long long threads_per_block;
    long long shared_static_bytes;   /* static __shared__ bytes a block used */
    long long shared_dynamic_bytes;  /* the launch's dynamic shared memory */
} pw_simt_counters;
/* The name of the last kernel launched, as its launch wrote it before <<< ("" before any). */
const char *pw_simt_last_kernel(void);

const pw_simt_counters *pw_simt_last_counters(void);
const pw_simt_counters *pw_simt_total_counters(void);
void pw_simt_counters_reset(void);
/* Derived figures, 0 when there was nothing to count. */
double pw_simt_efficiency(const pw_simt_counters *c);         /* active lanes / 32 per warp step */
double pw_simt_sectors_per_request(const pw_simt_counters *c); /* global loads and stores */
double pw_simt_conflict_ways(const pw_simt_counters *c);       /* shared wavefronts per request */

/* The lane map: the warp instructions of warp `warp` of block (0,0,0) in
 * the next launch, each with the address (device memory) or shared-memory
 * offset every active lane touched, in the order the warp began them; at
 * most cap of them. Atomics are not recorded. pw_simt_trace_count: how many
 * the launch recorded. */
typedef struct {
    int shared, store;            /* shared memory (else device memory); a store (else a load) */
    unsigned mask, bytes;         /* the lanes that took part; bytes per lane */
    uint64_t addr[32];
} pw_simt_step;
void pw_simt_trace_warp(int warp, pw_simt_step *buf, int cap);
int pw_simt_trace_count(void);

/* The access log: every access kernel code makes to device memory (a
 * cudaMalloc allocation or a __device__ variable) or to shared memory, by
 * every thread of every launch from now on, in the order the threads made
 * them, until called again (with NULL to stop). Stack and parameter accesses
 * are not memory accesses and are not logged. Meant for tiny launches (the
 * puzzles of chapter 08 draw it as a picture of which thread touched what):
 * the first cap accesses are kept, pw_simt_access_count says how many there
 * were. Each call starts the count again. While the log is on, a launch runs
 * its blocks one after another on one OS thread, so that the log is in
 * block order on any machine (a cooperative launch still runs them all at
 * once). */
typedef struct {
    unsigned block;               /* blockIdx.x + gridDim.x (blockIdx.y + gridDim.y blockIdx.z) */
    unsigned thread;              /* threadIdx, linear the same way within the block */
    unsigned char shared, store, atomic;   /* shared memory (else device); a store; an atomic */
    unsigned char bytes;
    uint64_t addr;                /* device memory: the address; shared memory: the offset */
} pw_simt_access;
void pw_simt_log_accesses(pw_simt_access *buf, long cap);
long pw_simt_access_count(void);

/* The checks (compute-sanitizer's four tools): PW_SIMT_CHECKS=all (the
 * default), none, or a comma list of memcheck,racecheck,initcheck,synccheck.
 * tools/pwsan --tool NAME ./prog sets it the way compute-sanitizer's --tool
 * does. Out-of-bounds accesses and deadlocks stop a kernel whatever is on
 * (the emulator cannot run past them); switching a check off only silences
 * the reports that do not. */
enum { PW_CHECK_MEMCHECK = 1, PW_CHECK_RACECHECK = 2, PW_CHECK_INITCHECK = 4, PW_CHECK_SYNCCHECK = 8,
       PW_CHECK_ALL = 15 };
unsigned pw_simt_checks(void);
void pw_simt_set_checks(unsigned checks);
/* Reports printed so far by racecheck, initcheck and memcheck (also those
 * that did not stop a kernel); a program with any exits with status 1. */
long pw_simt_report_count(void);
/* The text of the last of those reports ("" if none), also in quiet mode. */
const char *pw_simt_last_report(void);

/* The message of the last launch error ("" if none). */
const char *pw_simt_last_error_message(void);
/* Errors and reports are printed on stderr when found, unless quiet (tests). */
void pw_simt_set_quiet(bool quiet);
/* 0: threads run in order (the default); else a seed for a random order. */
void pw_simt_set_shuffle(uint64_t seed);
/* OS threads that run the blocks of a grid (0: the default, one per core this
 * process may use, or PW_SIMT_WORKERS). Reports come in block order either way. */
void pw_simt_set_workers(int workers);
int pw_simt_workers(void);
/* Accesses without progress before a block is called a livelock. */
void pw_simt_set_spin_limit(long long accesses);
/* Free the fibers and their stacks (also done at exit). */
void pw_simt_shutdown(void);

/* ---- what the kernel language (simt_device.h) calls ------------------------------ */

/* The running thread's indices: constant for one thread's run of a kernel. */
uint3 pw_simt_thread_idx(void) __attribute__((const));
uint3 pw_simt_block_idx(void) __attribute__((const));
uint3 pw_simt_block_dim(void) __attribute__((const));    /* (dim3 in C++: simt_device.h) */
uint3 pw_simt_grid_dim(void) __attribute__((const));
int pw_simt_in_kernel(void);
void pw_simt_syncthreads(const char *file, int line);
/* __syncthreads_count/_and/_or: op 1 count, 2 and, 3 or. */
int pw_simt_syncthreads_op(int op, int pred, const char *file, int line);
typedef enum { PW_SHFL_IDX, PW_SHFL_UP, PW_SHFL_DOWN, PW_SHFL_XOR, PW_VOTE_BALLOT, PW_VOTE_ANY,
               PW_VOTE_ALL, PW_SYNCWARP, PW_MATCH_ANY, PW_MATCH_ALL, PW_REDUCE_ADD, PW_REDUCE_MIN,
               PW_REDUCE_MAX, PW_REDUCE_AND, PW_REDUCE_OR, PW_REDUCE_XOR, PW_REDUCE_MIN_S,
               PW_REDUCE_MAX_S, PW_WARP_CALL } pw_simt_collective;
/* A warp collective: every lane named in mask calls it with the same op,
 * mask and width; `value` carries 8 bytes; returns this lane's result (for
 * PW_MATCH_ALL, bit 32 of the result is the predicate). */
uint64_t pw_simt_collect(pw_simt_collective op, unsigned mask, uint64_t value, int arg, int width,
                         const char *file, int line);
/* A warp-wide operation (the tensor cores: common/simt/cuda/mma.h, simt_wmma.c):
 * every lane of the warp calls it with its own `lane_arg`; when all 32 have
 * arrived, fn runs once with all of them (lane_args[l] is lane l's), then
 * every lane goes on. A lane missing, at another operation or exited is a
 * synccheck error naming `name`, as for a shuffle; so is a warp of fewer
 * than 32 threads. fn may stop the kernel with pw_simt_fail. */
typedef void (*pw_simt_warp_fn)(void *const lane_args[32], const char *file, int line);
void pw_simt_warp_call(const char *name, pw_simt_warp_fn fn, void *lane_arg, const char *file, int line);
/* Stop the running kernel with an error of `tool` (memcheck, synccheck...):
 * the message names kernel, block and thread, as the emulator's own do. */
void pw_simt_fail(const char *tool, cudaError_t code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));
/* One access by this lane, counted and checked as a plain one from the
 * caller's line (the device address is src for a load, dst for a store; a
 * 16-byte access must be 16-byte aligned), then the bytes copied. */
void pw_simt_move(void *dst, const void *src, size_t bytes, int store);
/* The calling thread's lane in its warp. */
int pw_simt_lane(void);
/* One more warp-level mma_sync in the running launch's counters. */
void pw_simt_count_mma(void);
/* The fragments' element layout (see common/simt/cuda/mma.h): 0, the default, is
 * the emulator's fixed layout (not the obvious row by row one); any other
 * seed scrambles it, differently per fragment kind. PW_SIMT_WMMA_SCRAMBLE=SEED
 * in the environment sets it at start. Call between launches. */
void pw_simt_set_wmma_scramble(uint64_t seed);
uint64_t pw_simt_wmma_scramble(void);

/* __activemask(): the lanes of my warp that have not exited. (Not the lanes
 * in my branch of an if: the emulator does not run a warp's lanes together.) */
unsigned pw_simt_activemask(void);
/* Where static __shared__ variables and the dynamic array live this block. */
void *pw_simt_shared_static(const void *tag, size_t bytes, size_t align);
void *pw_simt_shared_dynamic(void);
/* __threadfence(): a full memory fence. */
void pw_simt_fence(void);
/* The running thread gives way (__nanosleep, __threadfence in a spin loop). */
void pw_simt_yield(void);
/* __trap(), assert() in a kernel: the launch fails. */
void pw_simt_trap(const char *what, const char *file, int line) __attribute__((noreturn));
long long pw_simt_clock(void);

#ifdef __cplusplus
}   /* extern "C" */
#endif

#endif
