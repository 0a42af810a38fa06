/* common/simt/simt.h: CUDA kernels on a GPU with nvcc, or on the CPU without one.
 *
 * Kernels and drivers are plain CUDA C++ in .cu files, the same text for
 * both builds. nvcc builds them for the GPU. Without a GPU the host C++
 * compiler builds the same files against the SIMT emulator (common/simt/simt*.c),
 * which runs each block's threads as fibers on one OS thread and counts what
 * the GPU chapters are about:
 *
 *   __global__ void scale(const float *x, float *y, float a, int n)
 *   {
 *       int i = blockIdx.x * blockDim.x + threadIdx.x;
 *       if (i < n) y[i] = a * x[i];             // every access is seen
 *   }
 *   ...
 *   CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
 *   scale<<<(n + 255) / 256, 256>>>(d_x, d_y, 2.0f, n);
 *   CUDA_CHECK(cudaGetLastError());
 *
 * How plain CUDA runs on the CPU (tools/pwcc does all of it for one file):
 *   1. tools/pwcc-tr.c rewrites what C++ cannot say: k<<<g, b, s, st>>>(args)
 *      becomes a call of pw::launch, and each __shared__ variable a place in
 *      the block's shared memory (static ones first come, then the dynamic
 *      `extern __shared__` array), keeping every line where it was;
 *   2. the result is compiled as C++17 with -fsanitize=thread, which makes
 *      the compiler call __tsan_read4(addr), __tsan_write4(addr)... around
 *      every memory access; objcopy renames those calls to pw_tsan_*, which
 *      simt_check.c defines (the real ThreadSanitizer never meets them, so `make
 *      sanitize` still works). So the emulator sees every global, shared and
 *      atomic access with no LOAD/STORE in the source: it counts sectors and
 *      bank conflicts, and checks each access like compute-sanitizer.
 *
 * This header is three things:
 *   - under nvcc: the real cuda_runtime.h, and CUDA_CHECK;
 *   - on the emulator, in C (the workbook's checkers and host code): the
 *     host API (cudaMalloc...), the emulator's counters and controls;
 *   - on the emulator, in C++ (.cu files): all that, plus the kernel language
 *     (simt_device.h: threadIdx, __syncthreads, shuffles, atomics...) and the
 *     rest of the CUDA surface (simt_cuda.h).
 *
 * Behaves like a GPU where learners get burned (each is a check of
 * PW_SIMT_CHECKS, all on by default: see pw_simt_checks below):
 *   memcheck   an access outside every cudaMalloc allocation (with how far
 *              past which one), through a host pointer, or misaligned; a
 *              cudaFree of a pointer cudaMalloc did not return; device
 *              memory still allocated at exit. The kernel stops with
 *              cudaErrorIllegalAddress / cudaErrorMisalignedAddress; the
 *              process lives.
 *   racecheck  two threads of a block touch the same shared-memory bytes, at
 *              least one writes, and no __syncthreads (or, in one warp,
 *              __syncwarp or a warp collective) orders them.
 *   initcheck  a read of device memory that nothing wrote (cudaMalloc memory
 *              holds 0xFF bytes, as garbage as a GPU's) or of shared memory
 *              this block did not write (poison 0xFF at every block start:
 *              a float NaN, an int -1).
 *   synccheck  a barrier only some threads reach, threads at different
 *              barriers, a thread that exits while others wait, a warp
 *              collective with a bad mask: an error naming the threads and
 *              lines, never a hang.
 *   progress   a thread that spins on a flag another warp sets is preempted
 *              (as Volta's independent thread scheduling would); a block
 *              that makes no progress for PW_SIMT_SPIN_LIMIT accesses is a
 *              livelock, reported, never a hang.
 * Each report names the kernel, block, thread, source line and address. A
 * memcheck/synccheck error stops the launch and is returned by the next
 * cudaGetLastError / cudaDeviceSynchronize, as a GPU's would be; a racecheck
 * or initcheck report lets the kernel go on; a program that printed any
 * report exits with status 1 (a wrong program never looks right).
 *
 * Counters, per launch (pw_simt_last_counters) and summed since the last
 * pw_simt_counters_reset (pw_simt_total_counters): see pw_simt_counters.
 * A "warp step" is one warp-level instruction: the lanes' accesses made by
 * the same machine instruction (the hook's return address) on their k-th
 * pass over it since the warp last met, which is what lock-step SIMT
 * execution groups together, also after divergence. The per-warp counts
 * (warp steps, sectors, bank-conflict ways) are made only in a program that
 * calls pw_simt_last_counters, pw_simt_total_counters or pw_simt_trace_warp
 * (simt_counters.c says why: they cost about a third of the time); the
 * plain counts (loads, stores, barriers, blocks) always.
 *
 * A vector access (a float4 loaded or stored whole, a 16-byte memcpy) is
 * one 16-byte access, as a GPU's LDG.128 is, when the compiler keeps it
 * whole: gcc does (tools/pwcc builds with -fno-tree-sra); clang splits a
 * float4 whose components the code uses apart into 4- or 8-byte loads, so
 * under clang such kernels count 2-4 times the requests. Code that must
 * count the same under both moves its vectors with pw_simt_move (see
 * kernels/gemm_gpu.cu's gg_ld4).
 *
 * One store gcc does not instrument: a struct a non-inlined function
 * returns, stored straight into memory (`*(__half2 *)&s[i] = f(...)`); the
 * emulator does not see it (initcheck then reports the later reads). Write
 * it through a local (`__half2 v = f(...); *(__half2 *)&s[i] = v;`); clang
 * has no such gap.
 *
 * Scheduling: deterministic by default (threads run in order; a thread runs
 * until it must meet others, or is preempted after a slice of accesses).
 * PW_SIMT_SHUFFLE=SEED runs them in a random order per round instead;
 * The blocks of a grid run on one OS thread per core this process may use
 * (PW_SIMT_WORKERS=N: on N); reports and the launch's error come in block
 * order whatever N is (simt_order.c).
 * Launches are asynchronous, as on a GPU: queued on their stream and run
 * by the emulated device's own thread while the host goes on
 * (simt_stream.c says where the host waits; the emulator's own accessors
 * below wait for the work issued before them); PW_SIMT_SYNC_LAUNCH=1 makes
 * each call wait for its work, for debugging.
 * Emulated time means nothing: compare counts, not seconds.
 */
#ifndef PW_SIMT_H
#define PW_SIMT_H

/* What a .cu file defines for C callers (an exercise's launch function). */
#ifdef __cplusplus
#define PW_SIMT_EXTERN_C extern "C"
#else
#define PW_SIMT_EXTERN_C
#endif

/* ====================================================================== */
#if defined(__CUDACC__) && !defined(PW_SIMT_PWCC)   /* ---- nvcc: the real thing (tools/pwcc defines __CUDACC__ too, as nvcc does for .cu files) */

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#define PW_SIMT_EMULATED 0

#else   /* ---- the emulator ------------------------------------------------ */

#include "simt_api.h"   /* the emulator's C interface */

#ifdef __cplusplus
#include "simt_device.h"
#endif

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
