/* common/simt/simt_device.h: the CUDA kernel language on the SIMT emulator (C++).
 *
 * Included by simt.h in C++ translation units that are not nvcc's. Each
 * name here is CUDA's own, with CUDA's signature, so unmodified kernels
 * build; what it does on the CPU is said where it is not obvious. Memory
 * accesses need nothing here: the compiler's ThreadSanitizer hooks report
 * every one to simt_check.c (see simt.h). The rest of the CUDA surface (math and
 * integer intrinsics, vector types, half and bfloat16, cooperative groups,
 * streams, symbols) is in simt_cuda.h.
 *
 * Call sites: a barrier or a collective names its file:line in messages.
 * The functions take them as default arguments __builtin_FILE() and
 * __builtin_LINE(), which the compiler fills in where the call is written.
 */
#ifndef PW_SIMT_DEVICE_H
#define PW_SIMT_DEVICE_H

#include <stdint.h>
#include <string.h>
#include <memory>       /* before the qualifier macros: libstdc++ spells __noinline__ itself */
#include <tuple>
#include <type_traits>
#include <utility>

/* ---- qualifiers ------------------------------------------------------------- */

/* A kernel is never inlined into the launcher: its accesses keep its own
 * lines in the debug line table (gcc would give them the launcher's). */
#define __global__ __attribute__((noinline))
#define __host__
#define __device__
#define __constant__
#define __managed__
#define __forceinline__ __inline__ __attribute__((always_inline))   /* as CUDA defines it */
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
#define __grid_constant__
#define __CUDA_ARCH_EMULATED__ 1
/* tools/pwcc-tr rewrites every __shared__ declaration; one that reaches the
 * compiler was not translated (a .cu compiled without tools/pwcc or make). */
#define __shared__ _Pragma("GCC error \"__shared__ outside tools/pwcc-tr: build .cu files with tools/pwcc (or make)\"")

#define PW_SITE_ARGS const char *pw_file = __builtin_FILE(), int pw_line = __builtin_LINE()
#define PW_SITE pw_file, pw_line

/* ---- who am I ----------------------------------------------------------------- */

#define threadIdx (pw_simt_thread_idx())
#define blockIdx (pw_simt_block_idx())
#define blockDim (dim3(pw_simt_block_dim()))
#define gridDim (dim3(pw_simt_grid_dim()))
static constexpr int warpSize = 32;

/* ---- barriers and warp collectives -------------------------------------------- */

static inline void __syncthreads(PW_SITE_ARGS) { pw_simt_syncthreads(PW_SITE); }
static inline int __syncthreads_count(int pred, PW_SITE_ARGS) { return pw_simt_syncthreads_op(1, pred, PW_SITE); }
static inline int __syncthreads_and(int pred, PW_SITE_ARGS) { return pw_simt_syncthreads_op(2, pred, PW_SITE); }
static inline int __syncthreads_or(int pred, PW_SITE_ARGS) { return pw_simt_syncthreads_op(3, pred, PW_SITE); }
static inline void __syncwarp(unsigned mask = 0xffffffffu, PW_SITE_ARGS)
{
    pw_simt_collect(PW_SYNCWARP, mask, 0, 0, 32, PW_SITE);
}

namespace pw {
/* Any value of up to 8 bytes travels through a collective as its bits. */
template <class T> static inline uint64_t to_bits(const T &v)
{
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value,
                  "a warp shuffle moves a value of at most 8 bytes");
    uint64_t b = 0;
    memcpy(&b, &v, sizeof v);
    return b;
}
template <class T> static inline T from_bits(uint64_t b)
{
    T v;
    memcpy((void *)&v, &b, sizeof v);
    return v;
}
}  // namespace pw

template <class T> static inline T __shfl_sync(unsigned mask, T var, int src, int width = 32, PW_SITE_ARGS)
{
    return pw::from_bits<T>(pw_simt_collect(PW_SHFL_IDX, mask, pw::to_bits(var), src, width, PW_SITE));
}
template <class T> static inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32, PW_SITE_ARGS)
{
    return pw::from_bits<T>(pw_simt_collect(PW_SHFL_UP, mask, pw::to_bits(var), (int)delta, width, PW_SITE));
}
template <class T> static inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32, PW_SITE_ARGS)
{
    return pw::from_bits<T>(pw_simt_collect(PW_SHFL_DOWN, mask, pw::to_bits(var), (int)delta, width, PW_SITE));
}
template <class T> static inline T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = 32, PW_SITE_ARGS)
{
    return pw::from_bits<T>(pw_simt_collect(PW_SHFL_XOR, mask, pw::to_bits(var), lane_mask, width, PW_SITE));
}
static inline unsigned __ballot_sync(unsigned mask, int pred, PW_SITE_ARGS)
{
    return (unsigned)pw_simt_collect(PW_VOTE_BALLOT, mask, pred != 0, 0, 32, PW_SITE);
}
static inline int __any_sync(unsigned mask, int pred, PW_SITE_ARGS)
{
    return (int)pw_simt_collect(PW_VOTE_ANY, mask, pred != 0, 0, 32, PW_SITE);
}
static inline int __all_sync(unsigned mask, int pred, PW_SITE_ARGS)
{
    return (int)pw_simt_collect(PW_VOTE_ALL, mask, pred != 0, 0, 32, PW_SITE);
}
static inline unsigned __activemask(void) { return pw_simt_activemask(); }
/* The lanes of mask whose value equals mine. */
template <class T> static inline unsigned __match_any_sync(unsigned mask, T value, PW_SITE_ARGS)
{
    return (unsigned)pw_simt_collect(PW_MATCH_ANY, mask, pw::to_bits(value), 0, 32, PW_SITE);
}
/* mask if every lane of mask has the same value (*pred = 1), else 0. */
template <class T> static inline unsigned __match_all_sync(unsigned mask, T value, int *pred, PW_SITE_ARGS)
{
    uint64_t r = pw_simt_collect(PW_MATCH_ALL, mask, pw::to_bits(value), 0, 32, PW_SITE);
    *pred = (int)(r >> 32);
    return (unsigned)r;
}
static inline unsigned __reduce_add_sync(unsigned mask, unsigned v, PW_SITE_ARGS)
{
    return (unsigned)pw_simt_collect(PW_REDUCE_ADD, mask, v, 0, 32, PW_SITE);
}
static inline int __reduce_add_sync(unsigned mask, int v, PW_SITE_ARGS)
{
    return (int)(unsigned)pw_simt_collect(PW_REDUCE_ADD, mask, (unsigned)v, 0, 32, PW_SITE);
}
static inline unsigned __reduce_min_sync(unsigned mask, unsigned v, PW_SITE_ARGS)
{
    return (unsigned)pw_simt_collect(PW_REDUCE_MIN, mask, v, 0, 32, PW_SITE);
}
static inline int __reduce_min_sync(unsigned mask, int v, PW_SITE_ARGS)
{
    return (int)(unsigned)pw_simt_collect(PW_REDUCE_MIN_S, mask, (unsigned)v, 0, 32, PW_SITE);
}
static inline unsigned __reduce_max_sync(unsigned mask, unsigned v, PW_SITE_ARGS)
{
    return (unsigned)pw_simt_collect(PW_REDUCE_MAX, mask, v, 0, 32, PW_SITE);
}
static inline int __reduce_max_sync(unsigned mask, int v, PW_SITE_ARGS)
{
    return (int)(unsigned)pw_simt_collect(PW_REDUCE_MAX_S, mask, (unsigned)v, 0, 32, PW_SITE);
}
static inline unsigned __reduce_and_sync(unsigned mask, unsigned v, PW_SITE_ARGS)
{
    return (unsigned)pw_simt_collect(PW_REDUCE_AND, mask, v, 0, 32, PW_SITE);
}
static inline unsigned __reduce_or_sync(unsigned mask, unsigned v, PW_SITE_ARGS)
{
    return (unsigned)pw_simt_collect(PW_REDUCE_OR, mask, v, 0, 32, PW_SITE);
}
static inline unsigned __reduce_xor_sync(unsigned mask, unsigned v, PW_SITE_ARGS)
{
    return (unsigned)pw_simt_collect(PW_REDUCE_XOR, mask, v, 0, 32, PW_SITE);
}

/* ---- atomics: the compiler's __atomic builtins, which the ThreadSanitizer
 * instrumentation turns into pw_tsan_atomic* calls: checked and counted by
 * simt_check.c like any access, and atomic between the OS threads that run blocks. */

#define PW_RELAXED __ATOMIC_RELAXED
#define PW_ATOMIC_INT_OPS(T)                                                                         \
    static inline T atomicAdd(T *p, T v) { return __atomic_fetch_add(p, v, PW_RELAXED); }            \
    static inline T atomicSub(T *p, T v) { return __atomic_fetch_sub(p, v, PW_RELAXED); }            \
    static inline T atomicExch(T *p, T v) { return __atomic_exchange_n(p, v, PW_RELAXED); }          \
    static inline T atomicAnd(T *p, T v) { return __atomic_fetch_and(p, v, PW_RELAXED); }            \
    static inline T atomicOr(T *p, T v) { return __atomic_fetch_or(p, v, PW_RELAXED); }              \
    static inline T atomicXor(T *p, T v) { return __atomic_fetch_xor(p, v, PW_RELAXED); }            \
    static inline T atomicCAS(T *p, T cmp, T v)                                                      \
    {                                                                                                \
        __atomic_compare_exchange_n(p, &cmp, v, false, PW_RELAXED, PW_RELAXED);                      \
        return cmp; /* the old value, swapped or not */                                              \
    }                                                                                                \
    static inline T atomicMin(T *p, T v)                                                             \
    {                                                                                                \
        T old = __atomic_load_n(p, PW_RELAXED);                                                      \
        while (v < old && !__atomic_compare_exchange_n(p, &old, v, true, PW_RELAXED, PW_RELAXED)) {} \
        return old;                                                                                  \
    }                                                                                                \
    static inline T atomicMax(T *p, T v)                                                             \
    {                                                                                                \
        T old = __atomic_load_n(p, PW_RELAXED);                                                      \
        while (old < v && !__atomic_compare_exchange_n(p, &old, v, true, PW_RELAXED, PW_RELAXED)) {} \
        return old;                                                                                  \
    }
PW_ATOMIC_INT_OPS(int)
PW_ATOMIC_INT_OPS(unsigned)
PW_ATOMIC_INT_OPS(unsigned long long)
PW_ATOMIC_INT_OPS(long long)
#undef PW_ATOMIC_INT_OPS
static inline unsigned short atomicCAS(unsigned short *p, unsigned short cmp, unsigned short v)
{
    __atomic_compare_exchange_n(p, &cmp, v, false, PW_RELAXED, PW_RELAXED);
    return cmp;
}
/* ((old >= limit) ? 0 : old + 1), and ((old == 0 || old > limit) ? limit : old - 1). */
static inline unsigned atomicInc(unsigned *p, unsigned limit)
{
    unsigned old = __atomic_load_n(p, PW_RELAXED);
    while (!__atomic_compare_exchange_n(p, &old, old >= limit ? 0 : old + 1, true, PW_RELAXED, PW_RELAXED)) {}
    return old;
}
static inline unsigned atomicDec(unsigned *p, unsigned limit)
{
    unsigned old = __atomic_load_n(p, PW_RELAXED);
    while (!__atomic_compare_exchange_n(p, &old, (old == 0 || old > limit) ? limit : old - 1, true, PW_RELAXED,
                                        PW_RELAXED)) {}
    return old;
}
/* Floating point: compare-and-swap on the bits until no one got in between. */
template <class F, class U> static inline F pw_atomic_float_op(F *p, F v, int op)
{
    U *u = reinterpret_cast<U *>(p);
    U old = __atomic_load_n(u, PW_RELAXED), next;
    F f, r;
    do {
        memcpy(&f, &old, sizeof f);
        r = op == 0 ? f + v : op == 1 ? v : op == 2 ? (v < f ? v : f) : (v > f ? v : f);
        memcpy(&next, &r, sizeof r);
    } while (!__atomic_compare_exchange_n(u, &old, next, true, PW_RELAXED, PW_RELAXED));
    memcpy(&f, &old, sizeof f);
    return f;
}
static inline float atomicAdd(float *p, float v) { return pw_atomic_float_op<float, uint32_t>(p, v, 0); }
static inline double atomicAdd(double *p, double v) { return pw_atomic_float_op<double, uint64_t>(p, v, 0); }
/* an exchange, not a compare-and-swap loop: it reads nothing first (initcheck) */
static inline float atomicExch(float *p, float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    u = __atomic_exchange_n(reinterpret_cast<uint32_t *>(p), u, PW_RELAXED);
    memcpy(&v, &u, sizeof v);
    return v;
}
static inline float atomicMin(float *p, float v) { return pw_atomic_float_op<float, uint32_t>(p, v, 2); }
static inline float atomicMax(float *p, float v) { return pw_atomic_float_op<float, uint32_t>(p, v, 3); }
static inline double atomicMin(double *p, double v) { return pw_atomic_float_op<double, uint64_t>(p, v, 2); }
static inline double atomicMax(double *p, double v) { return pw_atomic_float_op<double, uint64_t>(p, v, 3); }
/* The _block and _system scopes act like the device one here. */
template <class T, class V> static inline T atomicAdd_block(T *p, V v) { return atomicAdd(p, (T)v); }
template <class T, class V> static inline T atomicAdd_system(T *p, V v) { return atomicAdd(p, (T)v); }
template <class T, class V> static inline T atomicMax_block(T *p, V v) { return atomicMax(p, (T)v); }
template <class T, class V> static inline T atomicMin_block(T *p, V v) { return atomicMin(p, (T)v); }
template <class T, class V> static inline T atomicExch_block(T *p, V v) { return atomicExch(p, (T)v); }
template <class T, class C, class V> static inline T atomicCAS_block(T *p, C c, V v) { return atomicCAS(p, (T)c, (T)v); }
template <class T, class V> static inline T atomicSub_block(T *p, V v) { return atomicSub(p, (T)v); }
template <class T, class V> static inline T atomicAnd_block(T *p, V v) { return atomicAnd(p, (T)v); }
template <class T, class V> static inline T atomicOr_block(T *p, V v) { return atomicOr(p, (T)v); }
template <class T, class V> static inline T atomicXor_block(T *p, V v) { return atomicXor(p, (T)v); }
template <class T, class V> static inline T atomicSub_system(T *p, V v) { return atomicSub(p, (T)v); }
template <class T, class V> static inline T atomicAnd_system(T *p, V v) { return atomicAnd(p, (T)v); }
template <class T, class V> static inline T atomicOr_system(T *p, V v) { return atomicOr(p, (T)v); }
template <class T, class V> static inline T atomicXor_system(T *p, V v) { return atomicXor(p, (T)v); }
template <class T, class V> static inline T atomicMax_system(T *p, V v) { return atomicMax(p, (T)v); }
template <class T, class V> static inline T atomicMin_system(T *p, V v) { return atomicMin(p, (T)v); }
template <class T, class V> static inline T atomicExch_system(T *p, V v) { return atomicExch(p, (T)v); }
template <class T, class C, class V> static inline T atomicCAS_system(T *p, C c, V v) { return atomicCAS(p, (T)c, (T)v); }
static inline unsigned atomicInc_block(unsigned *p, unsigned l) { return atomicInc(p, l); }
static inline unsigned atomicDec_block(unsigned *p, unsigned l) { return atomicDec(p, l); }
static inline unsigned atomicInc_system(unsigned *p, unsigned l) { return atomicInc(p, l); }
static inline unsigned atomicDec_system(unsigned *p, unsigned l) { return atomicDec(p, l); }
#undef PW_RELAXED

/* Memory fences order this thread's accesses (the blocks of a grid may run
 * on several OS threads). */
static inline void __threadfence(void) { pw_simt_fence(); }
static inline void __threadfence_block(void) { pw_simt_fence(); }
static inline void __threadfence_system(void) { pw_simt_fence(); }
static inline void __nanosleep(unsigned ns) { (void)ns; pw_simt_yield(); }
static inline long long clock64(void) { return pw_simt_clock(); }
static inline void __trap(PW_SITE_ARGS) { pw_simt_trap("__trap()", PW_SITE); }
static inline void __brkpt(PW_SITE_ARGS) { pw_simt_trap("__brkpt()", PW_SITE); }
/* Read-only cache loads are plain loads here. */
template <class T> static inline T __ldg(const T *p) { return *p; }
template <class T> static inline T __ldcg(const T *p) { return *p; }
template <class T> static inline T __ldca(const T *p) { return *p; }
template <class T> static inline T __ldcs(const T *p) { return *p; }
template <class T> static inline T __ldlu(const T *p) { return *p; }
template <class T> static inline void __stcg(T *p, T v) { *p = v; }
template <class T> static inline void __stcs(T *p, T v) { *p = v; }
template <class T> static inline void __stwb(T *p, T v) { *p = v; }

/* ---- launching: what tools/pwcc-tr writes for k<<<g, b, s, st>>>(args) ---------- */

namespace pw {
struct launch_config {
    dim3 grid, block;
    size_t shmem;
    cudaStream_t stream;
};
static inline launch_config config(dim3 g, dim3 b, size_t s = 0, cudaStream_t st = 0)
{
    return launch_config{ g, b, s, st };
}
/* The arguments are evaluated once, on the host, as CUDA does, and kept in
 * one block of memory that the kernel's threads may read (its parameters). */
template <class F, class... A> static inline void launch(const char *name, const launch_config &c, F call, A &&...a)
{
    struct state {
        F call;
        std::tuple<typename std::decay<A>::type...> args;
    } st{ call, std::tuple<typename std::decay<A>::type...>(std::forward<A>(a)...) };
    pw_simt_config cfg = { name, c.grid, c.block, c.shmem, c.stream };
    pw_simt_launch(&cfg, [](void *p) { state *s = static_cast<state *>(p); std::apply(s->call, s->args); }, &st,
                   sizeof st);
}
/* A: an __align__(A) on the declaration (0: none). At least 16, like a GPU's. */
template <class T, size_t A> static inline T *shared_static(const void *tag)
{
    constexpr size_t align = alignof(T) > A ? alignof(T) : A;
    return static_cast<T *>(pw_simt_shared_static(tag, sizeof(T), align < 16 ? 16 : align));
}
template <class T> static inline T *shared_dynamic() { return static_cast<T *>(pw_simt_shared_dynamic()); }
}  // namespace pw

#include "simt_cuda.h"

#endif
